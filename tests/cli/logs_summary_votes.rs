//! `massgen logs summary` tells votes cast from votes received: a run where newer answers
//! reset an agent's votes prints `cast 3 votes (2 reset) · received 0` for it and the
//! winner's `received 2` from the very tally that chose it, in text and in `--json`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::common::{RunArgs, assert_code, describe};
use crate::support::sandbox::{Sandbox, text};
use serde_json::Value;

/// `reviewer` answers at 100 ms and votes after each of `author`'s answers (600 ms and
/// 1200 ms), each of which resets the vote standing then; the votes settle on `author`,
/// 2–0. Every step is at least 100 ms from the next.
const CONFIG: &str = r#"
agents:
  - id: author
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 600
      answers: ["Cache reads in memory.", "A write-through cache in front of the database."]
      vote_for: author
  - id: reviewer
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 100
      answer: "Cache nothing until it is measured."
      vote_for: author
"#;

/// Runs the turn and returns its attempt directory.
fn run_turn(sandbox: &Sandbox) -> PathBuf {
    sandbox.write("votes.yaml", CONFIG);
    let output = sandbox.run(&[
        "--automation",
        "--config",
        "votes.yaml",
        "How should the service cache reads?",
    ]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    let dir = stdout
        .lines()
        .find_map(|line| line.strip_prefix("LOG_DIR: "))
        .unwrap_or_else(|| panic!("{}", describe(&output)));
    PathBuf::from(dir)
}

/// The run's events, straight from its log.
fn events(attempt: &Path) -> Vec<Value> {
    std::fs::read_to_string(attempt.join("events.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn summary_labels_votes_cast_and_received_from_the_tally() {
    let sandbox = Sandbox::new();
    let attempt = run_turn(&sandbox);
    let events = events(&attempt);
    let cast_by = |agent: &str| {
        events
            .iter()
            .filter(|event| event["msg"]["type"] == "vote_cast" && event["agent"] == agent)
            .count()
    };
    let tally = events
        .iter()
        .find(|event| event["msg"]["type"] == "winner_selected")
        .map(|event| event["msg"]["tally"].clone())
        .unwrap();
    let received_by = |agent: &str| {
        tally
            .as_array()
            .unwrap()
            .iter()
            .find(|count| count["agent"] == agent)
            .map_or(0, |count| count["votes"].as_u64().unwrap())
    };
    assert_eq!((cast_by("reviewer"), received_by("reviewer")), (3, 0));
    assert_eq!((cast_by("author"), received_by("author")), (1, 2));

    let output = sandbox.run(&["logs", "summary"]);
    assert_code(&output, 0);
    let summary = text(&output.stdout);
    let line_of = |agent: &str| {
        summary
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{agent} ")))
            .unwrap_or_else(|| panic!("no line for {agent}:\n{summary}"))
            .to_string()
    };
    assert!(
        line_of("reviewer").contains("· 1 answer · cast 3 votes (2 reset) · received 0 ·"),
        "{summary}"
    );
    assert!(
        line_of("author").contains("· 2 answers · cast 1 vote · received 2 ·"),
        "{summary}"
    );

    let output = sandbox.run(&["logs", "summary", "--json"]);
    assert_code(&output, 0);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        json["votes"],
        serde_json::json!({
            "author": {"cast": 1, "reset": 0, "received": 2},
            "reviewer": {"cast": 3, "reset": 2, "received": 0},
        })
    );
}
