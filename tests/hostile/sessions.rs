//! Hostile: concurrent runs. `~/.massgen/sessions.json` loses no entry when many runs
//! update it at once, and a session one run appends to cannot be continued by another.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::signals::{SLOW, send};
use crate::support::sandbox::{Sandbox, text};

const FAST: &str = r#"
agents:
  - id: a
    backend: {type: scripted, answers: ["fast answer"]}
  - id: b
    backend: {type: scripted, answers: ["fast answer"]}
"#;

#[test]
fn concurrent_registry_updaters_lose_no_entry() {
    let dir = tempfile::tempdir().unwrap();
    let registry = dir.path().join(".massgen/sessions.json");
    let threads: Vec<_> = (0..16)
        .map(|n| {
            let registry = registry.clone();
            let session = dir.path().join(format!("p/.massgen/sessions/session_{n}"));
            std::thread::spawn(move || {
                for turn in 1..=5 {
                    let id = format!("session_{n}");
                    massgen::session::register(&registry, &id, &session, turn, "t", "complete")
                        .unwrap();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let root: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&registry).unwrap()).unwrap();
    let sessions = root["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 16, "{root:#}");
    assert!(sessions.iter().all(|entry| entry["turns"] == 5), "{root:#}");
}

#[test]
fn a_session_another_run_appends_to_is_refused_and_loses_no_turn() {
    let sandbox = Sandbox::new();
    sandbox.write("fast.yaml", FAST);
    sandbox.write("slow.yaml", SLOW);
    sandbox
        .massgen()
        .args(["--config", "fast.yaml", "--display", "plain", "first"])
        .assert()
        .success();
    // A second run continues the session and is mid-turn…
    let mut running = Command::new(env!("CARGO_BIN_EXE_massgen"))
        .args([
            "--config",
            "slow.yaml",
            "--display",
            "plain",
            "--continue",
            "second",
        ])
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let sessions = sandbox.massgen_dir().join("sessions");
    let session = std::fs::read_dir(&sessions)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.is_dir())
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !session.join("turn_2").exists() {
        assert!(
            Instant::now() < deadline,
            "the continued turn never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // …so a third one may not append to it too.
    let output = sandbox
        .massgen()
        .args([
            "--config",
            "fast.yaml",
            "--display",
            "plain",
            "--continue",
            "third",
        ])
        .output()
        .unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "is in use by another massgen run; wait for it to finish or start a new session"
        ),
        "{stderr}"
    );
    assert!(
        !session.join("turn_3").exists(),
        "the refused run recorded nothing"
    );
    send(running.id(), "TERM");
    assert_eq!(running.wait().unwrap().code(), Some(4));
    // The session is free again, and both turns are there.
    sandbox
        .massgen()
        .args([
            "--config",
            "fast.yaml",
            "--display",
            "plain",
            "--continue",
            "fourth",
        ])
        .assert()
        .success();
    for turn in ["turn_1", "turn_2", "turn_3"] {
        assert!(session.join(turn).join("metadata.json").exists(), "{turn}");
    }
}
