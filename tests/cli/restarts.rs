//! An orchestration restart through the real binary: each attempt's log directory holds
//! its own events and derived files, the session records the whole turn, and the answer
//! printed is the submitted one.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{RunArgs, assert_code};
use crate::support::sandbox::{Sandbox, text};

const RESTARTING: &str = r#"
orchestrator:
  coordination: {max_orchestration_restarts: 1}
agents:
  - id: alpha
    backend:
      type: scripted
      tokens_per_second: 0
      answers: ["Four."]
      final_answer: "The answer is 4."
      post_evaluation: [{restart: "No working shown", instructions: "Show the sum"}]
  - id: beta
    backend: {type: scripted, tokens_per_second: 0, answers: ["4"], vote_for: alpha}
"#;

#[test]
fn each_attempt_logs_to_its_own_directory_and_the_session_keeps_the_turn() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", RESTARTING);
    let output = sandbox.run(&["--display", "plain", "--config", "run.yaml", "What is 2+2?"]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("ORCHESTRATION RESTART (attempt 2/2)")
            && stdout.contains("REASON: No working shown")
            && stdout.contains("INSTRUCTIONS: Show the sum"),
        "{stdout}"
    );
    let turn = sandbox.run_log_dir().join("turn_1");
    for attempt in ["attempt_1", "attempt_2"] {
        for file in ["events.jsonl", "coordination_events.json", "status.json"] {
            assert!(
                turn.join(attempt).join(file).is_file(),
                "{attempt}/{file} is missing"
            );
        }
    }
    assert_eq!(
        std::fs::read_to_string(turn.join("attempt_2/final/alpha/answer.txt")).unwrap(),
        "The answer is 4."
    );
    let sessions = sandbox.massgen_dir().join("sessions");
    let session = std::fs::read_dir(&sessions)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let metadata: serde_json::Value =
        serde_json::from_slice(&std::fs::read(session.join("turn_1/metadata.json")).unwrap())
            .unwrap();
    assert_eq!(
        metadata["log_dir"],
        serde_json::json!(turn.join("attempt_2"))
    );
    assert_eq!(
        std::fs::read_to_string(session.join("turn_1/answer.txt")).unwrap(),
        "The answer is 4."
    );
}

#[test]
fn automation_names_the_answer_file_of_the_attempt_that_ended_the_turn() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", RESTARTING);
    let output = sandbox.run(&["--automation", "--config", "run.yaml", "What is 2+2?"]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    let answer_file = stdout
        .lines()
        .find_map(|line| line.strip_prefix("ANSWER_FILE: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(answer_file.contains("attempt_2"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(answer_file).unwrap(),
        "The answer is 4."
    );
}

#[test]
fn replay_plays_both_attempts_of_the_turn() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", RESTARTING);
    assert_code(
        &sandbox.run(&["--display", "quiet", "--config", "run.yaml", "What is 2+2?"]),
        0,
    );
    let output = sandbox.run(&[
        "replay",
        "--display",
        "plain",
        "--speed",
        "1000",
        sandbox.run_log_dir().to_str().unwrap(),
    ]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    let question = stdout
        .find("What is 2+2?")
        .unwrap_or_else(|| panic!("{stdout}"));
    let banner = stdout
        .find("ORCHESTRATION RESTART (attempt 2/2)")
        .unwrap_or_else(|| panic!("{stdout}"));
    let answer = stdout
        .rfind("The answer is 4.")
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(question < banner && banner < answer, "{stdout}");
}
