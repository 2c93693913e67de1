//! Hostile: the disk fills up during a turn (files may grow no further: `ulimit -f` with
//! SIGXFSZ ignored, so writes fail as on a full disk). The turn completes, its answer is
//! shown and recorded as complete in the session, and the failure is named, not repeated.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use crate::support::sandbox::{Sandbox, text};

const FINAL: &str = "The final answer, already shown.";

fn config() -> String {
    let long = "word ".repeat(40_000);
    format!(
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      \
         text: \"{long}\"\n      answers: [\"first answer\"]\n      final_answer: \"{FINAL}\"\n"
    )
}

#[test]
fn a_turn_completed_on_a_full_disk_keeps_its_answer_and_names_the_error() {
    let sandbox = Sandbox::new();
    sandbox.write("big.yaml", &config());
    // 64 blocks: 32 KiB in dash, 64 KiB in bash; the events of this turn are far larger,
    // the answer and the session's metadata far smaller.
    let output = sandbox
        .shell(
            "trap '' XFSZ; ulimit -f 64 && exec \"$MASSGEN\" --config big.yaml \
             --display plain 'What is 2+2?'",
        )
        .timeout(Duration::from_secs(60))
        .write_stdin("")
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains(FINAL), "{stdout}");
    let log_failures = stdout.matches("could not write the event log").count();
    assert_eq!(log_failures, 1, "named once: {stdout}");
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
    assert_eq!(metadata["status"], "complete", "{metadata}");
    assert_eq!(
        std::fs::read_to_string(session.join("turn_1/answer.txt")).unwrap(),
        FINAL
    );
    let registry =
        std::fs::read_to_string(sandbox.root.join("home/.massgen/sessions.json")).unwrap();
    assert!(registry.contains("\"complete\""), "{registry}");
}
