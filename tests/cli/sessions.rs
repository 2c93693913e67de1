//! The `massgen` command line: questions read from standard input, one turn each, the exit code of a session and Ctrl+C at the prompt.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use crate::common::{SOLO, assert_code, assert_stdout_contains, final_section};
use crate::support::sandbox::{Sandbox, text};

#[test]
fn questions_from_stdin_run_one_turn_each() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let output = sandbox
        .massgen()
        .args(["--config", "solo.yaml", "--display", "plain"])
        .write_stdin("first question\nsecond question\n")
        .output()
        .unwrap();
    assert_code(&output, 0);
    assert_stdout_contains(&output, "━━ Turn 1 ━━ first question");
    assert_stdout_contains(&output, "━━ Turn 2 ━━ second question");
    assert!(!text(&output.stdout).contains("━━ Turn 3"));
    let stdout = text(&output.stdout);
    assert_eq!(final_section(&stdout, 1), "Solo answer to: first question");
    assert_eq!(final_section(&stdout, 2), "Solo answer to: second question");
    // Both turns log under the same run directory.
    let run = sandbox.run_log_dir();
    for turn in [1, 2] {
        let events = run
            .join(format!("turn_{turn}"))
            .join("attempt_1")
            .join("events.jsonl");
        assert!(events.is_file(), "{}", events.display());
    }
}

#[test]
fn stdin_skips_blank_lines_and_stops_at_quit() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let output = sandbox
        .massgen()
        .args(["--config", "solo.yaml", "--no-logs"])
        .write_stdin("\n   \nonly one\n/quit\nnever asked\n")
        .output()
        .unwrap();
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    assert_eq!(stdout.matches("━━ Turn ").count(), 1, "{stdout}");
    assert!(stdout.contains("━━ Turn 1 ━━ only one"), "{stdout}");
    assert!(!stdout.contains("never asked"), "{stdout}");
}

#[test]
fn a_failed_turn_decides_the_exit_code_of_a_session() {
    // Fails on its first call only: turn 1 has no answer, turn 2 succeeds.
    let sandbox = Sandbox::new();
    sandbox.write(
        "once.yaml",
        "agent:\n  id: once\n  backend:\n    type: scripted\n    tokens_per_second: 0\n    fail: {mode: error, times: 1}\n",
    );
    let output = sandbox
        .massgen()
        .args(["--config", "once.yaml", "--no-logs"])
        .write_stdin("first\nsecond\n")
        .output()
        .unwrap();
    assert_code(&output, 2);
    let stdout = text(&output.stdout);
    assert!(stdout.contains("✗ failed: no answer"), "{stdout}");
    assert!(stdout.contains("━━ Turn 2 ━━ second"), "{stdout}");
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|line| line.starts_with("✓ done")),
        "{stdout}"
    );
}

#[test]
fn ctrl_c_while_waiting_for_the_next_question_quits_with_code_4() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command as StdCommand, Stdio};

    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("massgen"))
        .args(["--config", "solo.yaml", "--display", "plain"])
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("XDG_CONFIG_HOME", sandbox.root.join("home").join(".config"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Keep stdin open: the session waits for a second question after the first.
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "first question").unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while stdout.read_line(&mut line).unwrap() > 0 && !line.starts_with("✓ done") {
        line.clear();
    }
    assert!(line.starts_with("✓ done"), "the first turn finished");
    std::thread::sleep(Duration::from_millis(300));
    let status = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let started = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "massgen ignored Ctrl+C at the prompt"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(stdin);
    assert_eq!(code, Some(4));
}
