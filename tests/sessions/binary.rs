//! Sessions through the binary: `--continue` and `--list-sessions`, and `kill -9` at several
//! moments of a turn (streaming, after an answer, during voting, during the final
//! presentation), after which every JSON file under `.massgen/` is whole,
//! `--list-sessions` shows the session, `massgen replay` plays what was recorded and
//! `--continue` goes on with it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::support::sandbox::{Sandbox, text};

/// Runs the demo until a stdout line contains `marker`, then kills it with SIGKILL.
fn kill_when(sandbox: &Sandbox, marker: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_massgen"))
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("XDG_CONFIG_HOME", sandbox.root.join("home/.config"))
        .env("NO_COLOR", "1")
        .args(["--display", "plain", "What is the capital of France?"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (seen_tx, seen_rx) = mpsc::channel();
    let wanted = marker.to_string();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line.contains(&wanted) {
                let _ = seen_tx.send(line);
                break;
            }
        }
    });
    let seen = seen_rx.recv_timeout(Duration::from_secs(60));
    child.kill().unwrap();
    child.wait().unwrap();
    seen.unwrap_or_else(|_| panic!("the run never printed {marker:?}"));
}

fn every_json_file_is_whole(sandbox: &Sandbox) -> usize {
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(sandbox.massgen_dir()) {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().is_file() && path.extension().is_some_and(|ext| ext == "json") {
            let bytes = std::fs::read(path).unwrap();
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .unwrap_or_else(|error| panic!("{} is not whole: {error}", path.display()));
            checked += 1;
        }
    }
    checked
}

/// The run says once, on either stream, which session it continues and how many turns.
fn assert_continuing_once(output: &std::process::Output, turns: &str) {
    let said = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert_eq!(said.matches("continuing session_").count(), 1, "{said}");
    assert!(said.contains(turns), "{said}");
    assert!(!said.contains("(s)"), "{said}");
}

fn survives_a_kill(marker: &str) {
    let sandbox = Sandbox::new();
    kill_when(&sandbox, marker);
    assert!(
        every_json_file_is_whole(&sandbox) > 0,
        "the session was recorded"
    );

    let listed = sandbox.massgen().arg("--list-sessions").output().unwrap();
    assert!(listed.status.success());
    let listing = text(&listed.stdout);
    assert!(listing.contains("  1 turn  "), "{listing}");
    assert!(listing.contains("incomplete"), "{listing}");

    let session = std::fs::read_dir(sandbox.massgen_dir().join("sessions"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let replayed = sandbox
        .massgen()
        .args(["replay", "--speed", "1000", "--display", "plain"])
        .arg(&session)
        .output()
        .unwrap();
    assert!(replayed.status.success(), "{}", text(&replayed.stderr));
    assert!(
        text(&replayed.stdout).contains("━━ Turn 1 ━━"),
        "what was recorded plays"
    );

    let continued = sandbox
        .massgen()
        .args(["--display", "plain", "--continue", "Go on, please."])
        .timeout(Duration::from_secs(90))
        .output()
        .unwrap();
    assert!(
        continued.status.success(),
        "{}\n{}",
        text(&continued.stdout),
        text(&continued.stderr)
    );
    assert_continuing_once(&continued, "(1 earlier turn in the history)");
    every_json_file_is_whole(&sandbox);
    let listed = text(
        &sandbox
            .massgen()
            .arg("--list-sessions")
            .output()
            .unwrap()
            .stdout,
    );
    assert!(listed.contains("  2 turns  "), "{listed}");
}

#[test]
fn killed_while_streaming() {
    survives_a_kill("[scout]");
}

#[test]
fn killed_after_an_answer() {
    survives_a_kill("✔ answer");
}

#[test]
fn killed_during_voting() {
    survives_a_kill("votes for");
}

#[test]
fn killed_during_the_presentation() {
    survives_a_kill("Final answer");
}

/// `status.json` is written while the turn runs (every 2 s), so a killed run leaves one.
#[test]
fn a_killed_run_leaves_a_live_status_file() {
    let sandbox = Sandbox::new();
    kill_when(&sandbox, "Final answer");
    let attempt = sandbox.run_log_dir().join("turn_1").join("attempt_1");
    let status: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("status.json")).unwrap()).unwrap();
    assert_eq!(status["meta"]["question"], "What is the capital of France?");
    assert!(status["meta"]["elapsed_seconds"].as_f64().unwrap() >= 1.5);
    assert!(
        !attempt.join("coordination_table.txt").exists(),
        "the derived files wait for the turn's end"
    );
}

#[test]
fn continue_goes_on_with_the_newest_session_and_list_sessions_shows_it() {
    let sandbox = Sandbox::new();
    let first = sandbox
        .massgen()
        .args(["--display", "plain", "First question?"])
        .output()
        .unwrap();
    assert!(first.status.success());
    let second = sandbox
        .massgen()
        .args(["--display", "plain", "--continue", "Second question?"])
        .output()
        .unwrap();
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_continuing_once(&second, "(1 earlier turn in the history)");
    let sessions: Vec<_> = std::fs::read_dir(sandbox.massgen_dir().join("sessions"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(sessions.len(), 1, "one session, continued: {sessions:?}");
    let metadata: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sessions[0].join("turn_2/metadata.json")).unwrap())
            .unwrap();
    assert_eq!(metadata["task"], "Second question?");

    let listed = sandbox
        .massgen()
        .args(["--list-sessions"])
        .output()
        .unwrap();
    assert!(listed.status.success());
    assert!(text(&listed.stdout).contains("  2 turns  "));
    assert!(text(&listed.stdout).contains("First question?"));
    assert!(text(&listed.stdout).contains("Second question?"));

    let missing = sandbox
        .massgen()
        .args(["--display", "plain", "--session-id", "session_nope", "q"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("no session `session_nope`"));
}
