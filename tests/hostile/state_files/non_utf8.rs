//! Hostile: directory names that are not UTF-8 — a run's log directory, a project — are
//! shown lossily or passed over; `massgen logs` and `--continue` do not panic on them.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::process::Output;

use super::{FAST, after_one_run, bounded, bounded_in, describe};
use crate::support::sandbox::{Sandbox, text};

/// A name that is not UTF-8 and, read lossily, is a run's name with multibyte characters
/// where digits belong.
fn not_utf8(prefix: &str) -> PathBuf {
    let mut name = prefix.as_bytes().to_vec();
    name.extend_from_slice(b"\xff\xfeab_123456");
    PathBuf::from(OsStr::from_bytes(&name))
}

fn assert_no_panic(output: &Output) {
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "{}", describe(output));
    assert!(
        output.status.code().is_some_and(|code| code < 100),
        "{}",
        describe(output)
    );
}

#[test]
fn logs_take_log_directories_whose_names_are_not_utf8() {
    let sandbox = after_one_run();
    let run = sandbox.run_log_dir();
    let renamed = run.with_file_name(not_utf8("log_"));
    std::fs::rename(&run, &renamed).unwrap();
    let list = bounded(&sandbox, &["logs", "list"]);
    assert_no_panic(&list);
    assert_eq!(list.status.code(), Some(0));
    assert!(
        text(&list.stdout).contains("log_\u{fffd}\u{fffd}ab_123456"),
        "{}",
        describe(&list)
    );
    let json = bounded(&sandbox, &["logs", "list", "--json"]);
    assert_eq!(json.status.code(), Some(0), "{}", describe(&json));
    for action in ["summary", "tools"] {
        let args: [&OsStr; 4] = [
            "logs".as_ref(),
            action.as_ref(),
            "--log-dir".as_ref(),
            renamed.as_os_str(),
        ];
        let output = bounded_in(&sandbox, &sandbox.root, &args);
        assert_no_panic(&output);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{action}: {}",
            describe(&output)
        );
        let json = [&args[..], &["--json".as_ref()]].concat();
        let output = bounded_in(&sandbox, &sandbox.root, &json);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{action} --json: {}",
            describe(&output)
        );
    }
    let summary = bounded_in(
        &sandbox,
        &sandbox.root,
        &[
            "logs".as_ref(),
            "summary".as_ref(),
            "--log-dir".as_ref(),
            renamed.as_os_str(),
        ],
    );
    assert!(
        text(&summary.stdout).contains("Question: q"),
        "{}",
        describe(&summary)
    );
}

#[test]
fn continue_in_a_project_whose_name_is_not_utf8_does_not_panic() {
    let sandbox = Sandbox::new();
    let project = sandbox.root.join(not_utf8("project_"));
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("fast.yaml"), FAST).unwrap();
    let run = |extra: &[&str]| {
        let mut args: Vec<&OsStr> = ["--config", "fast.yaml", "--display", "quiet"]
            .iter()
            .chain(extra)
            .map(OsStr::new)
            .collect();
        args.push(OsStr::new("q"));
        bounded_in(&sandbox, &project, &args)
    };
    for extra in [&[][..], &["--continue"][..]] {
        let output = run(extra);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{extra:?}: {}",
            describe(&output)
        );
        assert!(
            text(&output.stdout).contains("fast answer"),
            "{}",
            describe(&output)
        );
        let stderr = text(&output.stderr);
        assert!(!stderr.contains("panicked"), "{}", describe(&output));
        assert!(
            !stderr.contains("event log"),
            "the turn went unlogged: {}",
            describe(&output)
        );
    }
    let logs = project.join(".massgen/massgen_logs");
    let mut runs = 0;
    for run in std::fs::read_dir(logs).unwrap().flatten() {
        for turn in std::fs::read_dir(run.path()).unwrap().flatten() {
            let metadata = turn.path().join("attempt_1/execution_metadata.yaml");
            if !turn.file_name().to_string_lossy().starts_with("turn_") {
                continue;
            }
            runs += 1;
            let written = std::fs::read_to_string(&metadata).unwrap_or_default();
            assert!(
                written.contains("project_"),
                "{} names the project: {written}",
                metadata.display()
            );
        }
    }
    assert_eq!(runs, 2, "both turns were logged");
    let sessions = project.join(".massgen/sessions");
    let session = std::fs::read_dir(sessions)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    assert!(
        session.join("turn_2/metadata.json").is_file(),
        "the second turn was recorded"
    );
}
