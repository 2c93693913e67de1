//! Hostile: input. Questions on standard input are bounded by `limits.max_question_bytes`
//! (an endless `/dev/zero` stops at once), invalid UTF-8 is an error naming its byte offset,
//! and an empty question — argument or input — runs no turn. Each exits 1.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::support::sandbox::{Sandbox, text};

const SOLO: &str = "agent:\n  id: solo\n  backend: {type: scripted, tokens_per_second: 0, answer: \"Solo: {question}\"}\n";

fn describe(output: &Output) -> String {
    format!(
        "--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

/// The binary as the sandbox runs it, but with any standard input.
fn massgen(sandbox: &Sandbox, args: &[&str], stdin: Stdio) -> std::process::Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_massgen"));
    command
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("XDG_CONFIG_HOME", sandbox.root.join("home").join(".config"))
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command.spawn().unwrap()
}

/// Waits at most `limit` for `child`, killing it if it takes longer.
fn finish(mut child: std::process::Child, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    (child.wait_with_output().unwrap(), started.elapsed())
}

fn run_with_stdin(sandbox: &Sandbox, args: &[&str], input: Vec<u8>) -> Output {
    let mut child = massgen(sandbox, args, Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    // The binary may stop reading early; a broken pipe is expected then.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let (output, elapsed) = finish(child, Duration::from_secs(30));
    writer.join().unwrap();
    assert!(elapsed < Duration::from_secs(20), "took {elapsed:?}");
    output
}

#[test]
fn an_endless_stream_on_stdin_stops_at_the_question_limit() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let args = ["--config", "solo.yaml", "--display", "plain"];
    let child = massgen(
        &sandbox,
        &args,
        Stdio::from(std::fs::File::open("/dev/zero").unwrap()),
    );
    let (output, elapsed) = finish(child, Duration::from_secs(20));
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("larger than 1 MiB"),
        "{}",
        describe(&output)
    );
    assert!(
        stderr.contains("limits.max_question_bytes"),
        "{}",
        describe(&output)
    );
}

#[test]
fn a_piped_question_over_the_limit_is_refused_and_no_turn_runs() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let mut input = vec![b'a'; 2 * 1024 * 1024];
    input.push(b'\n');
    let output = run_with_stdin(
        &sandbox,
        &["--config", "solo.yaml", "--display", "plain"],
        input,
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        text(&output.stderr).contains("larger than 1 MiB"),
        "{}",
        describe(&output)
    );
    assert!(
        !text(&output.stdout).contains("Solo:"),
        "{}",
        describe(&output)
    );
    // A lowered limit applies to the command-line question too.
    sandbox.write(
        "small.yaml",
        &format!("{SOLO}limits: {{max_question_bytes: 10}}\n"),
    );
    let output = run_with_stdin(
        &sandbox,
        &[
            "--config",
            "small.yaml",
            "--display",
            "plain",
            "a question of thirty bytes",
        ],
        Vec::new(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        text(&output.stderr).contains("limits.max_question_bytes"),
        "{}",
        describe(&output)
    );
}

#[test]
fn invalid_utf8_on_stdin_is_an_error_naming_the_byte_offset() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let input = b"first question\nsecond \xff question\nthird question\n".to_vec();
    let output = run_with_stdin(
        &sandbox,
        &["--config", "solo.yaml", "--display", "plain"],
        input,
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("UTF-8"), "{}", describe(&output));
    // Byte 22 of the input: "first question\n" is 15 bytes, "second " 7 more.
    assert!(stderr.contains("byte 22"), "{}", describe(&output));
    assert!(
        text(&output.stdout).contains("Solo: first question"),
        "{}",
        describe(&output)
    );
    assert!(
        !text(&output.stdout).contains("third"),
        "{}",
        describe(&output)
    );
}

#[test]
fn an_empty_question_runs_no_turn() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    for question in ["", "   ", "\n\t"] {
        let output = run_with_stdin(
            &sandbox,
            &["--config", "solo.yaml", "--display", "plain", question],
            Vec::new(),
        );
        assert_eq!(
            output.status.code(),
            Some(1),
            "{question:?}\n{}",
            describe(&output)
        );
        assert!(
            text(&output.stderr).contains("question is empty"),
            "{}",
            describe(&output)
        );
        assert!(
            !text(&output.stdout).contains("Solo:"),
            "{}",
            describe(&output)
        );
    }
    // Standard input with nothing but blank lines holds no question either.
    let output = run_with_stdin(
        &sandbox,
        &["--config", "solo.yaml", "--display", "plain"],
        b"\n   \n\n".to_vec(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        text(&output.stderr).contains("no question"),
        "{}",
        describe(&output)
    );
    // The run's log directory may exist, but no turn was logged in it.
    let logs = sandbox.massgen_dir().join("massgen_logs");
    let turns = std::fs::read_dir(&logs)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|run| run.path().join("turn_1").exists())
        .count();
    assert_eq!(turns, 0, "{}", describe(&output));
}

#[test]
fn an_attached_system_path_is_refused_but_a_project_file_is_not() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    sandbox.write("notes.md", "notes");
    let output = run_with_stdin(
        &sandbox,
        &[
            "--config",
            "solo.yaml",
            "--display",
            "plain",
            "Read @/etc please",
        ],
        Vec::new(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        text(&output.stderr).contains("system directory"),
        "{}",
        describe(&output)
    );
    let output = run_with_stdin(
        &sandbox,
        &[
            "--config",
            "solo.yaml",
            "--display",
            "plain",
            "Read @notes.md please",
        ],
        Vec::new(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
}
