//! Hostile: `--output-file` that would hang the run or damage the file (issue 27, items 7
//! and 16). A FIFO nobody reads is given up on within seconds, and Ctrl+C, SIGTERM and
//! SIGHUP end any wait for it; a read-only file is refused untouched, a replaced file keeps
//! its mode, a hard-linked one its links, and a missing directory is not created.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::signals::send;
use super::support::sandbox::{Sandbox, text};

const SOLO: &str = "agent:\n  id: solo\n  backend: {type: scripted, tokens_per_second: 0, answer: \"Solo: {question}\"}\n";

fn describe(output: &Output) -> String {
    format!(
        "--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    )
}

fn run_to(sandbox: &Sandbox, target: &str) -> Output {
    sandbox.write("solo.yaml", SOLO);
    sandbox
        .massgen()
        .args(["--config", "solo.yaml", "--display", "plain"])
        .args(["--output-file", target, "hello"])
        .write_stdin("")
        .output()
        .unwrap()
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

/// `massgen --output-file answer.fifo` started in the background, its stdout and stderr in
/// files, with an answer of `answer_bytes` (the question is appended to it).
fn start_to_fifo(sandbox: &Sandbox, answer_bytes: usize) -> (Child, PathBuf) {
    let answer = "x".repeat(answer_bytes);
    sandbox.write(
        "solo.yaml",
        &format!(
            "agent:\n  id: solo\n  backend: {{type: scripted, tokens_per_second: 0, answer: \
             \"{answer}{{question}}\"}}\n"
        ),
    );
    let fifo = sandbox.root.join("answer.fifo");
    mkfifo(&fifo);
    let child = Command::new(env!("CARGO_BIN_EXE_massgen"))
        .args(["--config", "solo.yaml", "--display", "plain"])
        .args(["--output-file", "answer.fifo", "hello"])
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(fs::File::create(sandbox.root.join("stdout.txt")).unwrap())
        .stderr(fs::File::create(sandbox.root.join("stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    (child, fifo)
}

/// Waits until the turn's answer was printed: massgen is at the output file now.
fn wait_for_the_answer(sandbox: &Sandbox) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let stdout = sandbox.root.join("stdout.txt");
    while !fs::read_to_string(&stdout)
        .unwrap_or_default()
        .contains("done in")
    {
        assert!(Instant::now() < deadline, "the turn never finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
}

/// The exit code of `child`, which must exit within `limit`.
fn exits_within(child: &mut Child, limit: Duration, what: &str) -> Option<i32> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: massgen still blocked after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_fifo_with_no_reader_fails_within_seconds_and_says_so() {
    let sandbox = Sandbox::new();
    let (mut child, _fifo) = start_to_fifo(&sandbox, 0);
    let started = Instant::now();
    let code = exits_within(&mut child, Duration::from_secs(20), "no reader");
    let stderr = fs::read_to_string(sandbox.root.join("stderr.txt")).unwrap();
    let stdout = fs::read_to_string(sandbox.root.join("stdout.txt")).unwrap();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(stderr.contains("no reader on the FIFO"), "{stderr}");
    assert!(
        stdout.contains("Final answer"),
        "the answer is not lost: {stdout}"
    );
}

#[test]
fn every_interrupt_ends_the_wait_for_a_fifo_reader_with_exit_4() {
    for signal in ["TERM", "INT", "HUP"] {
        let sandbox = Sandbox::new();
        let (mut child, _fifo) = start_to_fifo(&sandbox, 0);
        wait_for_the_answer(&sandbox);
        send(child.id(), signal);
        let code = exits_within(&mut child, Duration::from_secs(3), signal);
        let stderr = fs::read_to_string(sandbox.root.join("stderr.txt")).unwrap();
        assert_eq!(code, Some(4), "{signal}: {stderr}");
        assert!(stderr.contains("--output-file"), "{signal}: {stderr}");
    }
}

/// A reader that opens the FIFO and never reads: the answer fills the pipe and the write
/// waits, until SIGTERM ends it.
#[test]
fn sigterm_ends_a_write_into_a_fifo_nobody_reads() {
    let sandbox = Sandbox::new();
    let (mut child, fifo) = start_to_fifo(&sandbox, 300_000);
    // Opened without blocking, so a run that never gets to the FIFO cannot hang the test.
    let nonblocking = rustix::fs::OFlags::NONBLOCK.bits() as i32;
    let reader = fs::OpenOptions::new()
        .read(true)
        .custom_flags(nonblocking)
        .open(&fifo)
        .unwrap();
    wait_for_the_answer(&sandbox);
    send(child.id(), "TERM");
    let code = exits_within(&mut child, Duration::from_secs(3), "stuck reader");
    drop(reader);
    assert_eq!(code, Some(4));
}

#[test]
fn a_read_only_file_is_refused_before_the_turn_and_left_unchanged() {
    let sandbox = Sandbox::new();
    let path = sandbox.write("answer.txt", "precious");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
    let before = fs::metadata(&path).unwrap().ino();
    let output = run_to(&sandbox, "answer.txt");
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("--output-file") && stderr.contains("read-only"),
        "{stderr}"
    );
    assert!(!text(&output.stdout).contains("Solo:"), "no turn ran");
    assert_eq!(fs::read_to_string(&path).unwrap(), "precious");
    let after = fs::metadata(&path).unwrap();
    assert_eq!(after.mode() & 0o7777, 0o444);
    assert_eq!(after.ino(), before, "the file was replaced");
}

#[test]
fn a_replaced_file_keeps_its_mode() {
    let sandbox = Sandbox::new();
    for mode in [0o600, 0o640, 0o755] {
        let path = sandbox.write("answer.txt", "old");
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        let output = run_to(&sandbox, "answer.txt");
        assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
        assert_eq!(fs::read_to_string(&path).unwrap(), "Solo: hello");
        let kept = fs::metadata(&path).unwrap().mode() & 0o7777;
        assert_eq!(kept, mode, "mode {mode:o} became {kept:o}");
    }
}

#[test]
fn a_hard_linked_file_is_written_in_place_and_stays_linked() {
    let sandbox = Sandbox::new();
    let path = sandbox.write("answer.txt", "old");
    let other = sandbox.root.join("other_name.txt");
    fs::hard_link(&path, &other).unwrap();
    let output = run_to(&sandbox, "answer.txt");
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    assert_eq!(fs::read_to_string(&other).unwrap(), "Solo: hello");
    let (one, two) = (fs::metadata(&path).unwrap(), fs::metadata(&other).unwrap());
    assert_eq!(one.ino(), two.ino(), "the link was broken");
    assert_eq!(one.nlink(), 2);
}

#[test]
fn a_missing_directory_is_named_not_created() {
    let sandbox = Sandbox::new();
    let output = run_to(&sandbox, "no/such/dir/answer.txt");
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("no/such/dir") && stderr.contains("does not exist"),
        "{stderr}"
    );
    assert!(!text(&output.stdout).contains("Solo:"), "no turn ran");
    assert!(!sandbox.root.join("no").exists(), "a directory was created");
}
