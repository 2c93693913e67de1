//! The memory section of an agent's system prompt in filesystem memory mode (MassGen's
//! `MemorySection`): the two tiers, the agent's own memories, every agent's memories from
//! its temporary workspace, and how to save memories; and the presenter's consolidation
//! instructions.

use std::fmt::Write as _;

use crate::backend::Message;
use crate::workspace::MemoryView;
use crate::workspace::memory::{MemoryFile, Tier};

const HEADER: &str = "## Decision Documentation System\n\n\
Document decisions and learnings to **optimize future work** and **prevent repeated mistakes**. \
This isn't just memory - it's about capturing **why** decisions were made, **what worked/failed**, \
and **what would help similar tasks succeed**.\n";

const TIERS: &str = "### Storage Tiers\n\n\
**short_term** (auto-loaded every turn):\n\
- User preferences and workflow patterns\n\
- Quick reference info needed frequently\n\
- Current task context and findings\n\
- Small, tactical observations (<100 lines)\n\
- Examples: user_prefs.md, current_findings.md\n\n\
**long_term** (load manually when needed):\n\
- Detailed post-mortems and analyses\n\
- Comprehensive skill effectiveness reports\n\
- Complex lessons with context (>100 lines)\n\
- Knowledge that's useful but not needed every turn\n\
- Examples: detailed_analysis.md, comprehensive_guide.md\n\n\
**Rule of thumb**: If it's small and useful every turn → short_term. \
If it's detailed and situationally useful → long_term.\n";

const SAVING: &str = "\n### Saving Memories\n\n\
Save memories by writing markdown files to the memory directory of your workspace:\n\
- **Short-term** → `memory/short_term/{name}.md` (auto-loaded every turn)\n\
- **Long-term** → `memory/long_term/{name}.md` (load manually when needed)\n\n\
**File Format (REQUIRED YAML Frontmatter):**\n\
```markdown\n---\nname: quick_notes\ndescription: Tactical observations from current work\n\
created: 2025-11-23T20:00:00\nupdated: 2025-11-23T20:00:00\n---\n\n\
## Your Content Here\nDocument your findings...\n```\n\n\
**Important:** You are stateless - you don't have a persistent identity across restarts. \
The system shows you the current memories from all agents (for comparing approaches). \
When the turn ends, every agent's memories are merged into the winner's workspace and \
carried into the next turn.\n";

const WHAT_TO_DOCUMENT: &str = "\n### What to Document\n\n\
**SHORT-TERM (use for most things):**\n\n\
**User Preferences** → memory/short_term/user_prefs.md\n\
- What does the user value (speed vs quality, iteration vs one-shot, etc.)?\n\
- Coding style, naming conventions, workflow preferences\n\n\
**Quick Observations** → memory/short_term/quick_notes.md\n\
- Tactical findings from current work\n\
- What worked/failed in this specific task\n\
- Tool tips and gotchas discovered\n\n\
**Current Context** → memory/short_term/task_context.md\n\
- Key findings about the current task\n\
- Important decisions made\n\
- State of work in progress\n\n\
**LONG-TERM (only if detailed/comprehensive):**\n\n\
**Detailed Post-Mortems** → memory/long_term/approach_patterns.md\n\
- In-depth analysis of complex approaches\n\
- Multi-step strategies with rationale\n\n\
**Note**: Most observations should go in **short_term**. Reserve long_term for truly \
detailed analyses that would clutter the auto-loaded context.\n";

/// The presenter's instructions in memory mode (MassGen's memory consolidation).
pub const PRESENTER_INSTRUCTIONS: &str = "### Memory Consolidation\n\n\
Your final output MUST include consolidated memory files in your workspace directory:\n\n\
1. Write concise reusable memories to `memory/short_term/*.md` (auto-loaded every turn).\n\
2. Write detailed durable analyses to `memory/long_term/*.md` only when substantial.\n\
3. Preserve YAML frontmatter (`name`, `description`, `created`, `updated`) in each memory file.\n\
4. De-duplicate overlaps across agents (merged into your memory files under \
`# From Agent …`) and keep only the clearest final version of each memory.\n\n\
Synthesize short, reusable memory entries for future turns: decision rationale, what \
worked/failed, pitfalls to avoid next time, user preferences discovered.";

/// The `<memory>` section's body for a round.
pub fn memory_section(view: &MemoryView) -> String {
    let mut parts = vec![HEADER.to_string(), TIERS.to_string()];
    let short: Vec<&MemoryFile> = of_tier(&view.own, Tier::ShortTerm).collect();
    let mut current = String::from("\n### Current Short-Term Memories\n");
    if short.is_empty() {
        current.push_str("\n*No short-term memories yet*");
    }
    write_in_full(&mut current, &short);
    parts.push(current);
    let long: Vec<&MemoryFile> = of_tier(&view.own, Tier::LongTerm).collect();
    if !long.is_empty() {
        let mut available =
            String::from("\n### Available Long-Term Memories\n\n<available_long_term_memories>");
        for file in long {
            let _ = write!(
                available,
                "\n<memory>\n<id>memory/long_term/{}.md</id>\n<summary>{}</summary>\n</memory>",
                file.name,
                file.description().unwrap_or("No description")
            );
        }
        available.push_str("\n</available_long_term_memories>");
        parts.push(available);
    }
    if !view.peers.is_empty() {
        let mut peers = String::from(
            "\n### Current Agent Memories (For Comparison)\n\nThese are the current memories \
             from all agents working on this task (from their latest answers, in your \
             temporary workspace). Review to compare approaches and avoid duplicating work.\n",
        );
        for (anon, files) in &view.peers {
            let _ = write!(peers, "\n**{anon}:**");
            let short: Vec<&MemoryFile> = of_tier(files, Tier::ShortTerm).collect();
            if !short.is_empty() {
                peers.push_str("\n*short_term:*");
            }
            write_in_full(&mut peers, &short);
            let long: Vec<&MemoryFile> = of_tier(files, Tier::LongTerm).collect();
            if !long.is_empty() {
                peers.push_str("\n*long_term:*");
            }
            for file in long {
                let description = file.description().unwrap_or("No description");
                let _ = write!(peers, "\n- `{}.md`: {description}", file.name);
            }
        }
        parts.push(peers);
    }
    parts.push(SAVING.to_string());
    parts.push(WHAT_TO_DOCUMENT.to_string());
    parts.join("\n")
}

/// Each of `files` (short-term memories) with its whole body, as MassGen lists them.
fn write_in_full(out: &mut String, files: &[&MemoryFile]) {
    for file in files {
        let _ = write!(
            out,
            "\n- `{}.md`\n  ```\n  {}\n  ```",
            file.name,
            file.body()
        );
    }
}

fn of_tier(files: &[MemoryFile], tier: Tier) -> impl Iterator<Item = &MemoryFile> {
    files.iter().filter(move |file| file.tier == tier)
}

/// Puts the `<memory>` section at the end of the round's system prompt.
pub fn add_to_system_prompt(messages: &mut [Message], view: &MemoryView) {
    let Some(Message::System { content }) = messages
        .iter_mut()
        .find(|message| matches!(message, Message::System { .. }))
    else {
        return;
    };
    let section = format!(
        "<memory priority=\"high\">\n{}\n</memory>\n",
        memory_section(view)
    );
    match content.rfind("</system_prompt>") {
        Some(end) => content.insert_str(end, &section),
        None => {
            content.push_str("\n\n");
            content.push_str(&section);
        }
    }
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
