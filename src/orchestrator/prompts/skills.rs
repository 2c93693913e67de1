//! The skills section of an agent's system prompt (MassGen's `SkillsSection`): how to use
//! a skill, then each skill's name, description, source and `SKILL.md` to read.

use std::fmt::Write as _;

use crate::workspace::skills::Skill;

pub(super) fn skills_instructions(skills: &[Skill]) -> String {
    let mut text = String::from(
        "## Available Skills\n\n<usage>\nWhen users ask you to perform tasks, check if any of \
         the available skills below can help complete the task more effectively.\n\nHow to use \
         skills:\n- To load a skill's full instructions, read its SKILL.md file (the path in \
         <file>) with your file tools\n- Skills may be hierarchical: a single SKILL.md can \
         contain multiple sections covering related sub-capabilities\n- Each skill directory \
         may also contain bundled resources (templates, examples, configs) next to its \
         SKILL.md\n\nUsage notes:\n- Only use skills listed below\n- Do not invoke a skill \
         that is already loaded in your context\n</usage>\n\n<available_skills>",
    );
    for skill in skills {
        let description = if skill.description.is_empty() {
            "No description"
        } else {
            skill.description.as_str()
        };
        let _ = write!(
            text,
            "\n\n<skill>\n<name>{}</name>\n<description>{description}</description>\n\
             <location>{}</location>\n<file>{}</file>\n</skill>",
            skill.name,
            skill.source.name(),
            skill.file.display()
        );
    }
    text.push_str("\n\n</available_skills>");
    text
}
