//! `massgen replay` through the binary: a recorded session, its run log and its
//! `events.jsonl` print the live run's transcript again, and paths or speeds that cannot
//! play are refused with exit code 1.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::sandbox::{Sandbox, text};

/// Two scripted agents that stream with no delay.
const PAIR: &str = "\
agents:
  - id: first
    backend: {type: scripted, tokens_per_second: 0, answer: \"First on {question}\"}
  - id: second
    backend: {type: scripted, tokens_per_second: 0, answer: \"Second on {question}\"}
";

fn run(sandbox: &Sandbox, args: &[&str]) -> Output {
    sandbox
        .massgen()
        .args(args)
        .write_stdin("")
        .output()
        .unwrap()
}

fn only_entry(dir: &Path) -> PathBuf {
    let entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    entries.into_iter().next().unwrap()
}

fn replay(sandbox: &Sandbox, path: &Path) -> String {
    let path = path.to_str().unwrap();
    let output = run(
        sandbox,
        &["replay", path, "--speed", "1000", "--display", "plain"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("massgen: replaying"));
    text(&output.stdout)
}

#[test]
fn a_replay_prints_the_live_runs_transcript_from_any_of_its_paths() {
    let sandbox = Sandbox::new();
    sandbox.write("pair.yaml", PAIR);
    let live = run(
        &sandbox,
        &[
            "--config",
            "pair.yaml",
            "--display",
            "plain",
            "Which is it?",
        ],
    );
    assert!(live.status.success(), "{}", text(&live.stderr));
    let transcript = text(&live.stdout);
    assert!(transcript.contains("── Final answer"), "{transcript}");

    let session = only_entry(&sandbox.massgen_dir().join("sessions"));
    let run_log = sandbox.run_log_dir();
    let events = run_log.join("turn_1/attempt_1/events.jsonl");
    for path in [session.clone(), session.join("turn_1"), run_log, events] {
        assert_eq!(
            replay(&sandbox, &path),
            transcript,
            "replaying {}",
            path.display()
        );
    }
}

#[test]
fn paths_without_events_and_bad_speeds_are_refused() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.root.join("empty")).unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["replay", "nowhere", "--display", "plain"],
            "nowhere does not exist",
        ),
        (
            &["replay", "empty", "--display", "plain"],
            "no recorded events in empty",
        ),
        (
            &["replay", "empty", "--speed", "0"],
            "must be a number above 0",
        ),
        (
            &["replay", "empty", "--step", "--display", "plain"],
            "--step needs the full-screen",
        ),
        (
            &["--config", "x.yaml", "replay", "empty"],
            "takes no question, config",
        ),
    ];
    for (args, message) in cases {
        let output = run(&sandbox, args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            text(&output.stderr)
        );
        assert!(
            text(&output.stderr).contains(message),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn a_replayed_council_prints_its_ballots_aggregate_and_chairman_again() {
    let sandbox = Sandbox::new();
    sandbox.write("pair.yaml", PAIR);
    let live = run(
        &sandbox,
        &[
            "--config",
            "pair.yaml",
            "--display",
            "plain",
            "--strategy",
            "council",
            "Which is it?",
        ],
    );
    assert!(live.status.success(), "{}", text(&live.stderr));
    let transcript = text(&live.stdout);
    for line in ["⚖ ranks ", "⚖ Aggregate (Borda): ", "🪑 Chairman: first"] {
        assert!(transcript.contains(line), "{line}\n{transcript}");
    }
    let session = only_entry(&sandbox.massgen_dir().join("sessions"));
    assert_eq!(replay(&sandbox, &session), transcript);
}
