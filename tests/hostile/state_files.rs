//! Hostile: massgen's own state files replaced by what a repository (or anyone who can
//! write there) might ship — a `/dev/zero` symlink, a FIFO, a file far larger than massgen
//! ever writes — and directory names that are not UTF-8. Each is refused by name at once,
//! in bounded memory (every run here has 1 GB of address space), or read around; nothing
//! hangs or panics.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::sandbox::{Sandbox, text};

mod non_utf8;

const FAST: &str = r#"
agents:
  - id: a
    backend: {type: scripted, answers: ["fast answer"]}
  - id: b
    backend: {type: scripted, answers: ["fast answer"]}
"#;

const MIB: u64 = 1024 * 1024;

#[derive(Clone, Copy, Debug)]
enum Hostile {
    DevZero,
    Fifo,
    /// A sparse file of zeros (no newline) of this many bytes.
    Oversized(u64),
}

impl Hostile {
    /// What the refusal says about it.
    fn refusal(self) -> &'static str {
        match self {
            Self::DevZero => "is a device, not a regular file",
            Self::Fifo => "is a FIFO, not a regular file",
            Self::Oversized(_) => "larger than",
        }
    }
}

/// Puts `hostile` at `path` in place of whatever was there.
fn plant(path: &Path, hostile: Hostile) {
    let _ = std::fs::remove_file(path);
    match hostile {
        Hostile::DevZero => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
        Hostile::Fifo => {
            let made = std::process::Command::new("mkfifo").arg(path).status();
            assert!(made.unwrap().success(), "mkfifo {}", path.display());
        }
        Hostile::Oversized(bytes) => std::fs::File::create(path).unwrap().set_len(bytes).unwrap(),
    }
}

/// `massgen args…` in `dir` with 1 GB of address space: a file read whole without a bound
/// ends the run instead of growing to gigabytes. The sandbox's timeout catches a hang.
pub(crate) fn bounded_in(sandbox: &Sandbox, dir: &Path, args: &[&OsStr]) -> Output {
    sandbox
        .shell("ulimit -v 1000000; exec \"$MASSGEN\" \"$@\"")
        .current_dir(dir)
        .arg("massgen")
        .args(args)
        .output()
        .unwrap()
}

pub(crate) fn bounded(sandbox: &Sandbox, args: &[&str]) -> Output {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    bounded_in(sandbox, &sandbox.root, &args)
}

pub(crate) fn describe(output: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

/// A sandbox with one finished run (one session turn, one logged attempt).
pub(crate) fn after_one_run() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("fast.yaml", FAST);
    let output = bounded(
        &sandbox,
        &["--config", "fast.yaml", "--display", "quiet", "q"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    sandbox
}

fn only_session_turn(sandbox: &Sandbox) -> PathBuf {
    let sessions = sandbox.massgen_dir().join("sessions");
    let session = std::fs::read_dir(sessions)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.is_dir())
        .unwrap();
    session.join("turn_1")
}

fn attempt_dir(sandbox: &Sandbox) -> PathBuf {
    sandbox.run_log_dir().join("turn_1").join("attempt_1")
}

#[test]
fn a_bad_session_registry_neither_stops_a_new_run_nor_is_replaced() {
    let sandbox = Sandbox::new();
    sandbox.write("fast.yaml", FAST);
    let registry = sandbox.root.join("home/.massgen/sessions.json");
    std::fs::create_dir_all(registry.parent().unwrap()).unwrap();
    for hostile in [
        Hostile::DevZero,
        Hostile::Fifo,
        Hostile::Oversized(65 * MIB),
    ] {
        plant(&registry, hostile);
        let output = bounded(
            &sandbox,
            &["--config", "fast.yaml", "--display", "quiet", "q"],
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{hostile:?}: {}",
            describe(&output)
        );
        assert!(text(&output.stdout).contains("fast answer"), "{hostile:?}");
        let left = std::fs::symlink_metadata(&registry).unwrap();
        match hostile {
            Hostile::DevZero => assert!(left.file_type().is_symlink()),
            Hostile::Fifo => assert!(!left.is_file(), "the FIFO was replaced"),
            Hostile::Oversized(bytes) => assert_eq!(left.len(), bytes, "it was rewritten"),
        }
    }
    // Nor does a FIFO where the registry's lock file goes.
    std::fs::remove_file(&registry).unwrap();
    plant(&registry.with_file_name("sessions.lock"), Hostile::Fifo);
    let output = bounded(
        &sandbox,
        &["--config", "fast.yaml", "--display", "quiet", "q"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
}

#[test]
fn a_refused_turn_file_stops_continue_with_a_message_naming_it() {
    let sandbox = after_one_run();
    let turn = only_session_turn(&sandbox);
    let cases = [
        ("answer.txt", Hostile::DevZero),
        ("answer.txt", Hostile::Fifo),
        ("answer.txt", Hostile::Oversized(17 * MIB)),
        ("metadata.json", Hostile::DevZero),
        ("metadata.json", Hostile::Fifo),
        ("metadata.json", Hostile::Oversized(17 * MIB)),
    ];
    for (name, hostile) in cases {
        let path = turn.join(name);
        let original = std::fs::read(&path).unwrap();
        plant(&path, hostile);
        let args = [
            "--config",
            "fast.yaml",
            "--display",
            "quiet",
            "--continue",
            "next",
        ];
        let output = bounded(&sandbox, &args);
        let stderr = text(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{name} {hostile:?}: {}",
            describe(&output)
        );
        for said in [name, hostile.refusal(), "run without --continue"] {
            assert!(
                stderr.contains(said),
                "{name} {hostile:?}: no {said:?} in {stderr}"
            );
        }
        assert!(!turn.with_file_name("turn_2").exists(), "no turn ran");
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, original).unwrap();
    }
    // The session's lock file is opened without blocking: a FIFO there is refused.
    let lock = turn.with_file_name(".run.lock");
    plant(&lock, Hostile::Fifo);
    let output = bounded(&sandbox, &["--config", "fast.yaml", "--continue", "next"]);
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(text(&output.stderr).contains(".run.lock is not a regular file"));
    std::fs::remove_file(&lock).unwrap();
    // A turn without its answer falls back on `partial_answers.json`, bounded too.
    std::fs::remove_file(turn.join("answer.txt")).unwrap();
    plant(&turn.join("partial_answers.json"), Hostile::Fifo);
    let output = bounded(&sandbox, &["--config", "fast.yaml", "--continue", "next"]);
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(text(&output.stderr).contains("partial_answers.json is a FIFO"));
}

#[test]
fn logs_refuse_a_special_or_oversized_log_by_name() {
    let sandbox = after_one_run();
    let attempt = attempt_dir(&sandbox);
    let cases = [
        ("events.jsonl", Hostile::DevZero, "summary"),
        ("events.jsonl", Hostile::Fifo, "summary"),
        ("events.jsonl", Hostile::Oversized(80 * MIB), "summary"),
        ("metrics_summary.json", Hostile::DevZero, "tools"),
        ("metrics_summary.json", Hostile::Fifo, "summary"),
        (
            "metrics_summary.json",
            Hostile::Oversized(17 * MIB),
            "summary",
        ),
    ];
    for (name, hostile, action) in cases {
        let path = attempt.join(name);
        let original = std::fs::read(&path).unwrap();
        plant(&path, hostile);
        let output = bounded(&sandbox, &["logs", action]);
        let stderr = text(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{name} {hostile:?}: {}",
            describe(&output)
        );
        let refusal = match (name, hostile) {
            ("events.jsonl", Hostile::Oversized(_)) => "a line longer than 64 MiB",
            _ => hostile.refusal(),
        };
        for said in [name, refusal, "help: remove that file"] {
            assert!(
                stderr.contains(said),
                "{name} {hostile:?}: no {said:?} in {stderr}"
            );
        }
        // `logs list` shows the other runs and says what it did not read.
        let output = bounded(&sandbox, &["logs", "list"]);
        assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
        assert!(
            text(&output.stdout).contains("note: not read:"),
            "{}",
            describe(&output)
        );
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, original).unwrap();
    }
    // massgen never reads `status.json` back: whatever it is, `logs` does not hang on it.
    for hostile in [Hostile::DevZero, Hostile::Fifo] {
        plant(&attempt.join("status.json"), hostile);
        let output = bounded(&sandbox, &["logs", "summary"]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{hostile:?}: {}",
            describe(&output)
        );
    }
}

#[test]
fn replay_refuses_a_special_or_oversized_event_log_by_name() {
    let sandbox = after_one_run();
    let attempt = attempt_dir(&sandbox);
    let log = attempt.join("events.jsonl");
    for hostile in [
        Hostile::DevZero,
        Hostile::Fifo,
        Hostile::Oversized(80 * MIB),
    ] {
        plant(&log, hostile);
        for target in [&attempt, &log] {
            let target = target.to_str().unwrap();
            let output = bounded(&sandbox, &["replay", target, "--display", "plain"]);
            let stderr = text(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(1),
                "{hostile:?}: {}",
                describe(&output)
            );
            let refusal = match hostile {
                Hostile::Oversized(_) => "more than 64 MiB of events",
                _ => hostile.refusal(),
            };
            assert!(stderr.contains("events.jsonl"), "{hostile:?}: {stderr}");
            assert!(stderr.contains(refusal), "{hostile:?}: {stderr}");
        }
    }
}
