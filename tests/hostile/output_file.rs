//! Hostile: output_file. `--output-file` writes a regular file atomically, writes into a
//! FIFO or character device in place, keeps a symlink and updates what it points to, and
//! refuses a directory, a dangling symlink or a path under a file before any turn runs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::process::Output;
use std::sync::mpsc;
use std::time::Duration;

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

fn run_to(sandbox: &Sandbox, target: &str) -> Output {
    sandbox.write("solo.yaml", SOLO);
    sandbox
        .massgen()
        .args([
            "--config",
            "solo.yaml",
            "--display",
            "plain",
            "--output-file",
            target,
            "hello",
        ])
        .write_stdin("")
        .output()
        .unwrap()
}

#[test]
fn a_regular_file_is_replaced_with_the_answer() {
    let sandbox = Sandbox::new();
    let path = sandbox.write("answer.txt", "old");
    let output = run_to(&sandbox, "answer.txt");
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    assert_eq!(std::fs::read_to_string(path).unwrap(), "Solo: hello");
}

#[test]
fn a_fifo_is_written_in_place_not_replaced() {
    let sandbox = Sandbox::new();
    let fifo = sandbox.root.join("answer.fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (sender, received) = mpsc::channel();
    let reader_path = fifo.clone();
    std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(reader_path)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        let _ = sender.send(text);
    });
    let output = run_to(&sandbox, "answer.fifo");
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    let read = received.recv_timeout(Duration::from_secs(10));
    assert_eq!(read.as_deref(), Ok("Solo: hello"), "{}", describe(&output));
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
}

#[test]
fn a_symlink_stays_and_the_file_it_points_to_gets_the_answer() {
    let sandbox = Sandbox::new();
    let target = sandbox.write("real/answer.txt", "old");
    let link = sandbox.root.join("answer.txt");
    std::os::unix::fs::symlink("real/answer.txt", &link).unwrap();
    let output = run_to(&sandbox, "answer.txt");
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(target).unwrap(), "Solo: hello");
}

#[test]
fn a_symlink_to_a_character_device_is_written_through() {
    let sandbox = Sandbox::new();
    let link = sandbox.root.join("null");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let output = run_to(&sandbox, "null");
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

#[test]
fn dev_null_is_written_not_replaced() {
    let sandbox = Sandbox::new();
    let output = run_to(&sandbox, "/dev/null");
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let stray = std::fs::read_dir("/dev")
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(".null."))
        .count();
    assert_eq!(stray, 0, "no temporary file beside /dev/null");
}

#[test]
fn bad_output_paths_are_refused_before_the_turn() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.root.join("out_dir")).unwrap();
    sandbox.write("notes.md", "notes");
    std::os::unix::fs::symlink("no/such/target.txt", sandbox.root.join("dangling")).unwrap();
    for (target, what) in [
        ("out_dir", "is a directory"),
        ("notes.md/answer.txt", "not a directory"),
        ("dangling", "does not exist"),
    ] {
        let output = run_to(&sandbox, target);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{target}\n{}",
            describe(&output)
        );
        let stderr = text(&output.stderr);
        assert!(stderr.contains("--output-file"), "{}", describe(&output));
        assert!(stderr.contains(what), "{what:?}\n{}", describe(&output));
        assert!(
            !text(&output.stdout).contains("Solo:"),
            "no turn ran\n{}",
            describe(&output)
        );
    }
    assert!(sandbox.root.join("out_dir").is_dir());
}
