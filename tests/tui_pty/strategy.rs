//! The strategy toggle in the real binary: on the offline demo, `S` (with the composer
//! left) switches the mode bar from the config's strategy (vote) to council, and the question
//! asked then runs as a council: its options carry the strategy and its members rank.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use crate::support::pty::Pty;

/// The `turn_started` events of every events log under `logs`.
fn turns_started(logs: &Path) -> Vec<serde_json::Value> {
    walkdir::WalkDir::new(logs)
        .into_iter()
        .flatten()
        .filter(|entry| entry.file_name() == "events.jsonl")
        .flat_map(|entry| {
            std::fs::read_to_string(entry.path())
                .unwrap()
                .lines()
                .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
                .collect::<Vec<_>>()
        })
        .filter(|event| event.to_string().contains("\"turn_started\""))
        .collect()
}

#[test]
fn s_switches_the_strategy_and_the_turn_runs_with_it() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(
        &["Type a question below", "Strategy ◉ vote"],
        "welcome, the config's strategy",
    );
    pty.press(b"\x1b"); // leave the composer: single keys work
    pty.press(b"S");
    let bar = pty.wait_for(&["Strategy ◉ council"], "council chosen");
    assert!(!bar.contains("Strategy ◉ vote"), "{bar}");
    pty.press(b"i");
    pty.press(b"What is the capital of France?\r");
    pty.wait_for(
        &["Turn 1", "What is the capital of France?"],
        "turn started",
    );
    pty.wait_for(&["Idle"], "turn finished");
    let bar = pty.wait_for(&["Strategy ◉ council"], "the choice stays");
    assert!(bar.contains("Strategy ◉ council"), "{bar}");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
    let started = turns_started(&home.path().join(".massgen/massgen_logs"));
    assert_eq!(started.len(), 1, "{started:#?}");
    let recorded = started[0].to_string();
    assert!(
        recorded.contains("\"strategy\":\"council\""),
        "the turn's options carry the chosen strategy: {recorded}"
    );
    let rankings = walkdir::WalkDir::new(home.path().join(".massgen/massgen_logs"))
        .into_iter()
        .flatten()
        .filter(|entry| entry.file_name() == "rankings.json")
        .count();
    assert_eq!(
        rankings, 1,
        "the turn ran as a council and wrote its rankings"
    );
}
