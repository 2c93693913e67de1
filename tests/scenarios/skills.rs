//! `use_skills`: skills from each source (the project's `skills_directory`, the user's
//! `~/.agent/skills`, earlier runs' evolving skills) are listed in the agent's system
//! prompt, and the agent can read a skill's `SKILL.md` with its file tools.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::coordination_keys::common::tool_ends;
use crate::support::{Scenario, assert_completed, load};
use massgen::protocol::{EventMsg, Mode, TurnOptions};

fn write_skill(dir: &Path, name: &str, body: &str) -> PathBuf {
    let file = dir.join("SKILL.md");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        &file,
        format!("---\nname: {name}\ndescription: How to {name} well\n---\n{body}\n"),
    )
    .unwrap();
    file.canonicalize().unwrap()
}

/// One agent with a workspace that reads `file` before answering, `coordination` as given.
fn reader(file: &Path, coordination: &str) -> String {
    format!(
        "agent:\n  id: a\n  backend:\n    type: scripted\n    tokens_per_second: 0\n    \
         cwd: workspace\n    answer: done\n    tool_calls:\n      - {{name: \
         mcp__filesystem__read_text_file, arguments: {{path: \"{}\"}}}}\n\
         orchestrator:\n  coordination: {coordination}\n",
        file.display()
    )
}

/// Runs `yaml` in `dir` (the user's skills folder set to `user`); the first system prompt
/// and the outcome of the read.
async fn run(dir: tempfile::TempDir, yaml: &str, user: Option<&Path>) -> (String, bool, String) {
    let mut config = load(yaml);
    if let Some(skills) = &mut config.orchestrator.coordination.skills {
        skills.user_directory = user.map(Path::to_path_buf);
    }
    let mut scenario = Scenario::start_with_tools_config(dir, config);
    let events = scenario
        .submit("q", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&events);
    assert!(
        !events.iter().any(|event| matches!(
            &event.msg,
            EventMsg::Warning { message } if message.contains("skill")
        )),
        "no skill warnings"
    );
    let system = scenario.requests_of("a")[0].messages[0]
        .content()
        .to_string();
    let ends = tool_ends(&events, "a");
    let (_, ok, output) = ends
        .into_iter()
        .find(|(tool, _, _)| tool.ends_with("read_text_file"))
        .expect("the read was made");
    (system, ok, output)
}

fn assert_listed(system: &str, name: &str, location: &str, file: &Path) {
    let entry = format!(
        "<name>{name}</name>\n<description>How to {name} well</description>\n\
         <location>{location}</location>\n<file>{}</file>",
        file.display()
    );
    assert!(system.contains(&entry), "{entry}\nnot in:\n{system}");
}

#[tokio::test(start_paused = true)]
async fn project_skills_directory_is_listed_and_readable() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_skill(
        &dir.path().join("team-skills/pdf"),
        "pdf",
        "Use pdftotext first.",
    );
    let yaml = reader(&file, "{use_skills: true, skills_directory: team-skills}");
    let (system, ok, output) = run(dir, &yaml, None).await;
    assert_listed(&system, "pdf", "project", &file);
    assert!(ok, "{output}");
    assert!(output.contains("Use pdftotext first."), "{output}");

    // Without `use_skills` the skill is neither listed nor readable.
    let dir = tempfile::tempdir().unwrap();
    let file = write_skill(&dir.path().join("team-skills/pdf"), "pdf", "x");
    let mut scenario =
        Scenario::start_with_tools(dir, &reader(&file, "{skills_directory: team-skills}"));
    let events = scenario
        .submit("q", Mode::Normal, TurnOptions::default())
        .await;
    let system = scenario.requests_of("a")[0].messages[0]
        .content()
        .to_string();
    assert!(!system.contains("<available_skills>"), "{system}");
    let ends = tool_ends(&events, "a");
    assert!(
        !ends.is_empty() && ends.iter().all(|(_, ok, _)| !ok),
        "{ends:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_users_skills_folder_is_listed_and_readable() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let user_skills = home.path().join(".agent/skills");
    let file = write_skill(&user_skills.join("xlsx"), "xlsx", "Keep formulas.");
    let yaml = reader(&file, "{use_skills: true}");
    let (system, ok, output) = run(dir, &yaml, Some(&user_skills)).await;
    assert_listed(&system, "xlsx", "user", &file);
    assert!(ok, "{output}");
    assert!(output.contains("Keep formulas."), "{output}");
}

#[tokio::test(start_paused = true)]
async fn previous_session_skills_are_listed_and_readable_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let evolving = dir.path().join(
        ".massgen/massgen_logs/log_20200101_000000_000000/turn_1/attempt_1/final/a/workspace/tasks/evolving_skill",
    );
    let file = write_skill(&evolving, "release-notes", "Group by area.");
    let yaml = reader(
        &file,
        "{use_skills: true, load_previous_session_skills: true}",
    );
    let (system, ok, output) = run(dir, &yaml, None).await;
    assert_listed(&system, "release-notes", "previous_session", &file);
    assert!(ok, "{output}");
    assert!(output.contains("Group by area."), "{output}");
}

#[tokio::test(start_paused = true)]
async fn the_run_lists_its_skills_for_front_ends_only_when_skills_are_on() {
    let listed = |events: &[massgen::protocol::Event]| {
        events.iter().find_map(|event| match &event.msg {
            EventMsg::SkillsListed { skills, searched } => Some((skills.clone(), searched.clone())),
            _ => None,
        })
    };
    let dir = tempfile::tempdir().unwrap();
    let file = write_skill(&dir.path().join("team-skills/pdf"), "pdf", "x");
    let yaml = reader(&file, "{use_skills: true, skills_directory: team-skills}");
    let mut config = load(&yaml);
    if let Some(skills) = &mut config.orchestrator.coordination.skills {
        skills.user_directory = None;
    }
    let mut scenario = Scenario::start_with_tools_config(dir, config);
    let events = scenario
        .submit("q", Mode::Normal, TurnOptions::default())
        .await;
    let (skills, searched) = listed(&events).expect("the skills are listed");
    assert_eq!(skills.len(), 1, "{skills:?}");
    assert_eq!(skills[0].name, "pdf");
    assert_eq!(skills[0].description, "How to pdf well");
    assert_eq!(skills[0].source, massgen::protocol::SkillSource::Project);
    assert_eq!(skills[0].file, file);
    assert_eq!(searched.len(), 1, "{searched:?}");
    assert!(searched[0].ends_with("team-skills"), "{searched:?}");

    let dir = tempfile::tempdir().unwrap();
    let file = write_skill(&dir.path().join("team-skills/pdf"), "pdf", "x");
    let mut scenario = Scenario::start_with_tools(dir, &reader(&file, "{}"));
    let events = scenario
        .submit("q", Mode::Normal, TurnOptions::default())
        .await;
    assert_eq!(listed(&events), None, "skills are off");
}
