//! `massgen logs summary|list|tools|open`: their `--json` parses and matches the run's own
//! files, their text names what matters, and `logs` is never sent to a model as a question
//! (unless asked with `--`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::common::{RunArgs, assert_code, describe};
use crate::support::sandbox::{Sandbox, text};
use serde_json::Value;

/// Runs `massgen --automation ARGS` and returns its `LOG_DIR:` (the attempt directory).
fn run_turn(sandbox: &Sandbox, args: &[&str]) -> PathBuf {
    let mut all = vec!["--automation"];
    all.extend_from_slice(args);
    let output = sandbox.run(&all);
    let stdout = text(&output.stdout);
    let dir = stdout
        .lines()
        .find_map(|line| line.strip_prefix("LOG_DIR: "))
        .unwrap_or_else(|| panic!("{}", describe(&output)));
    PathBuf::from(dir)
}

fn json_of(sandbox: &Sandbox, args: &[&str]) -> Value {
    let output = sandbox.run(args);
    assert_code(&output, 0);
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!("not JSON ({error}):\n{}", describe(&output));
    })
}

fn file_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The `duration_ms` of the turn's `turn_finished` event, read straight from its log.
fn logged_duration(attempt: &Path) -> u64 {
    std::fs::read_to_string(attempt.join("events.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|event| event["msg"]["type"] == "turn_finished")
        .and_then(|event| event["msg"]["duration_ms"].as_u64())
        .unwrap()
}

#[test]
fn summary_json_matches_the_run_and_names_its_errors() {
    let sandbox = Sandbox::new();
    let attempt = run_turn(
        &sandbox,
        &[
            "--config",
            "@examples/scripted/fault_tolerance",
            "Why is the sky blue?",
        ],
    );
    let summary = json_of(&sandbox, &["logs", "summary", "--json"]);
    assert_eq!(summary["log_dir"], attempt.display().to_string());
    assert_eq!(summary["question"], "Why is the sky blue?");
    assert_eq!(summary["winner"], "steady");
    assert_eq!(summary["outcome"], "completed");
    assert_eq!(summary["duration_ms"], logged_duration(&attempt));
    assert_eq!(
        summary["metrics"],
        file_json(&attempt.join("metrics_summary.json"))
    );
    let errors = summary["errors"].as_array().unwrap();
    assert!(
        errors.iter().any(|error| error["agent"] == "flaky"
            && error["message"]
                .as_str()
                .unwrap()
                .contains("upstream returned 500")),
        "{summary}"
    );

    let output = sandbox.run(&["logs"]);
    assert_code(&output, 0);
    let shown = text(&output.stdout);
    for needle in [
        "Question: Why is the sky blue?",
        "Winner:   steady · completed · 4 agents",
        "[flaky]",
        "steady ",
    ] {
        assert!(shown.contains(needle), "{needle:?} in:\n{shown}");
    }
}

#[test]
fn list_shows_the_newest_runs_first_up_to_the_limit() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "solo.yaml",
        "agent:\n  id: solo\n  backend: {type: scripted, tokens_per_second: 0}\n",
    );
    let first = run_turn(&sandbox, &["--config", "solo.yaml", "first question"]);
    let second = run_turn(&sandbox, &["--config", "solo.yaml", "second question"]);
    let runs = json_of(&sandbox, &["logs", "list", "--json"]);
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 2, "{runs:?}");
    let run_of = |attempt: &Path| {
        attempt
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .display()
            .to_string()
    };
    assert_eq!(runs[0]["log_dir"], run_of(&second));
    assert_eq!(runs[1]["log_dir"], run_of(&first));
    assert_eq!(runs[0]["last_question"], "second question");
    assert_eq!(runs[0]["turns"], 1);
    assert_eq!(runs[0]["duration_ms"], logged_duration(&second));
    assert_eq!(runs[0]["last_outcome"], "completed");

    let limited = json_of(&sandbox, &["logs", "list", "--limit", "1", "--json"]);
    assert_eq!(limited.as_array().unwrap().len(), 1);
    let output = sandbox.run(&["logs", "list"]);
    assert_code(&output, 0);
    let lines: Vec<String> = text(&output.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].ends_with("second question"), "{lines:?}");
}

#[test]
fn tools_match_the_runs_tool_metrics() {
    let sandbox = Sandbox::new();
    let attempt = run_turn(
        &sandbox,
        &[
            "--config",
            "@examples/scripted/workspaces",
            "Outline a talk",
        ],
    );
    let rows = json_of(
        &sandbox,
        &[
            "logs",
            "tools",
            "--sort",
            "calls",
            "--log-dir",
            attempt.to_str().unwrap(),
            "--json",
        ],
    );
    let by_tool = file_json(&attempt.join("metrics_summary.json"))["tools"]["by_tool"].clone();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), by_tool.as_object().unwrap().len());
    assert!(!rows.is_empty());
    for row in rows {
        let name = row["name"].as_str().unwrap();
        assert_eq!(row["calls"], by_tool[name]["call_count"], "{name}");
        assert_eq!(row["failures"], by_tool[name]["failure_count"], "{name}");
        assert_eq!(
            row["time_ms"], by_tool[name]["total_execution_time_ms"],
            "{name}"
        );
    }
    let calls: Vec<u64> = rows
        .iter()
        .map(|row| row["calls"].as_u64().unwrap())
        .collect();
    assert!(calls.windows(2).all(|pair| pair[0] >= pair[1]), "{calls:?}");
    assert!(
        rows.iter()
            .any(|row| row["name"] == "mcp__filesystem__write_file" && row["calls"] == 2),
        "{rows:?}"
    );
}

#[test]
fn open_uses_the_editor_without_a_desktop() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "solo.yaml",
        "agent:\n  id: solo\n  backend: {type: scripted, tokens_per_second: 0}\n",
    );
    let attempt = run_turn(&sandbox, &["--config", "solo.yaml", "q"]);
    let editor = sandbox.write("editor.sh", "#!/bin/sh\nprintf '%s' \"$1\" > opened.txt\n");
    let output = sandbox
        .massgen()
        .args(["logs", "open", "--json"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("VISUAL")
        .env("EDITOR", format!("sh {}", editor.display()))
        .write_stdin("")
        .output()
        .unwrap();
    assert_code(&output, 0);
    let run_dir = attempt.parent().unwrap().parent().unwrap();
    assert_eq!(
        std::fs::read_to_string(sandbox.root.join("opened.txt")).unwrap(),
        run_dir.display().to_string()
    );
    let said: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(said["log_dir"], run_dir.display().to_string());

    let output = sandbox
        .massgen()
        .args(["logs", "open"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("VISUAL")
        .env_remove("EDITOR")
        .write_stdin("")
        .output()
        .unwrap();
    assert_code(&output, 1);
    assert!(
        text(&output.stderr).contains("set EDITOR"),
        "{}",
        describe(&output)
    );
}

#[test]
fn logs_is_a_command_and_only_a_question_after_double_dash() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["logs"]);
    assert_code(&output, 1);
    assert!(
        text(&output.stderr).contains("no runs logged in"),
        "{}",
        describe(&output)
    );
    assert!(
        !sandbox.massgen_dir().join("massgen_logs").exists(),
        "no turn ran"
    );

    sandbox.write(
        "solo.yaml",
        "agent:\n  id: solo\n  backend: {type: scripted, tokens_per_second: 0}\n",
    );
    let output = sandbox.run(&["--automation", "--config", "solo.yaml", "--", "logs"]);
    assert_code(&output, 0);
    assert!(
        text(&output.stdout).contains("QUESTION: logs\n"),
        "{}",
        describe(&output)
    );

    let output = sandbox.run(&["logs", "summary", "--config", "solo.yaml"]);
    assert_code(&output, 1);
    assert!(text(&output.stderr).contains("unexpected argument '--config'"));
}

/// `massgen … | head -1`: the reader is gone before anything is written; the command ends
/// quietly with its own exit code, not with a panic.
#[test]
fn output_to_a_closed_pipe_is_not_a_panic() {
    let sandbox = Sandbox::new();
    for args in [
        vec!["--list-examples"],
        vec!["--example", "demo/three_agents"],
        vec!["--list-sessions"],
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("massgen"))
            .args(&args)
            .current_dir(&sandbox.root)
            .env("HOME", sandbox.root.join("home"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = text(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    }
}
