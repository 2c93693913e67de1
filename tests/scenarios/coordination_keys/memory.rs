//! `enable_memory_filesystem_mode`: agents' `memory/` files are shown in their system
//! prompts, peers' through their latest answers' copies, merged into the winner's
//! workspace at the end of the turn and carried into the next turn for every agent.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::support::{Scenario, assert_completed};
use massgen::backend::Message;
use massgen::protocol::{Mode, TurnOptions};

/// Agents `a` and `b`, each with a workspace, each writing `user_prefs.md` (its own note)
/// before answering; both vote for `b`.
fn two_note_takers(memory: bool) -> String {
    let agent = |id: &str, first_token_ms: u32| {
        format!(
            "  - id: {id}\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      \
             first_token_ms: {first_token_ms}\n      cwd: workspace\n      answer: \"Answer from \
             {id}\"\n      vote_for: b\n      tool_calls:\n        - {{name: \
             mcp__filesystem__write_file, arguments: {{path: memory/short_term/user_prefs.md, \
             content: \"---\\nname: user_prefs\\ndescription: prefs\\n---\\nNote by {id}\"}}}}\n"
        )
    };
    format!(
        "agents:\n{}{}orchestrator:\n  coordination: {{enable_memory_filesystem_mode: {memory}}}\n",
        agent("a", 100),
        agent("b", 1000)
    )
}

fn system_prompt(messages: &[Message]) -> String {
    messages
        .iter()
        .find_map(|message| match message {
            Message::System { content } => Some(content.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn prompts_of(scenario: &Scenario, agent: &str) -> Vec<String> {
    scenario
        .requests_of(agent)
        .iter()
        .map(|request| system_prompt(&request.messages))
        .collect()
}

fn files_under(root: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(root) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path, suffix));
        } else if path.to_string_lossy().ends_with(suffix) {
            found.push(path);
        }
    }
    found
}

#[tokio::test(start_paused = true)]
async fn memories_are_shown_to_peers_merged_into_the_winner_and_carried_to_the_next_turn() {
    let mut scenario =
        Scenario::start_with_tools(tempfile::tempdir().unwrap(), &two_note_takers(true));
    let first = scenario
        .submit("q1", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&first);
    let turn_one_b = prompts_of(&scenario, "b");
    assert!(
        turn_one_b
            .iter()
            .filter(|prompt| prompt.starts_with("<system_prompt>"))
            .all(|prompt| prompt.contains("<memory priority=\"high\">")),
        "every coordination round has the memory section"
    );
    assert!(
        turn_one_b
            .iter()
            .any(|prompt| prompt.contains("**agent1:**") && prompt.contains("Note by a")),
        "b sees a's memory through a's answer: {turn_one_b:#?}"
    );

    // The winner b's workspace, as kept in the log, holds a's note merged into its own.
    let finals = files_under(
        &scenario.dir.path().join(".massgen"),
        "final/b/workspace/memory/short_term/user_prefs.md",
    );
    assert_eq!(finals.len(), 1, "{finals:?}");
    let merged = std::fs::read_to_string(&finals[0]).unwrap();
    assert!(merged.starts_with("---\nname: user_prefs"), "{merged}");
    assert!(
        merged.contains("Note by b\n\n---\n\n# From Agent a\n\n---\nname: user_prefs"),
        "{merged}"
    );

    let a_requests_before = scenario.requests_of("a").len();
    let b_requests_before = scenario.requests_of("b").len();
    let second = scenario
        .submit("q2", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&second);
    for (agent, before) in [("a", a_requests_before), ("b", b_requests_before)] {
        let first_of_turn_two = &prompts_of(&scenario, agent)[before];
        let own = first_of_turn_two
            .split("### Current Short-Term Memories")
            .nth(1)
            .and_then(|rest| rest.split("###").next())
            .unwrap_or_default();
        assert!(
            own.contains("`user_prefs.md`")
                && own.contains("Note by a")
                && own.contains("Note by b"),
            "{agent} starts turn 2 with the merged memories: {first_of_turn_two}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn without_the_key_there_is_no_memory_section_or_directory() {
    let yaml =
        two_note_takers(false).replace("path: memory/short_term/user_prefs.md", "path: notes.md");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("q1", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&events);
    assert!(
        prompts_of(&scenario, "a")
            .iter()
            .all(|prompt| !prompt.contains("<memory")),
        "no memory section"
    );
    let workspaces = scenario.dir.path().join(".massgen/workspaces");
    assert!(
        files_under(&workspaces, "notes.md").len() == 2,
        "both wrote notes"
    );
    let memory_dirs: Vec<_> = std::fs::read_dir(&workspaces)
        .unwrap()
        .flatten()
        .filter(|workspace| workspace.path().join("memory").exists())
        .collect();
    assert!(
        memory_dirs.is_empty(),
        "no memory/ directory without the key"
    );
}

#[tokio::test(start_paused = true)]
async fn the_presenter_is_told_to_consolidate_memories() {
    let mut scenario =
        Scenario::start_with_tools(tempfile::tempdir().unwrap(), &two_note_takers(true));
    let events = scenario
        .submit("q1", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&events);
    let presenter = prompts_of(&scenario, "b");
    assert!(
        presenter
            .iter()
            .any(|prompt| prompt.contains("### Memory Consolidation")),
        "{presenter:#?}"
    );
}
