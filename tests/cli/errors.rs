//! The `massgen` command line: timeouts, failing agents, bad arguments and missing paths, and their exit codes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use crate::common::{
    RunArgs, assert_code, assert_stderr_contains, assert_stdout_contains, describe,
};
use crate::support::sandbox::{Sandbox, text};

/// The time runs out after one agent answered: its answer is presented and the run
/// succeeds, as in MassGen (3 is for a timeout with no answer, below).
#[test]
fn a_timeout_that_still_presents_an_answer_exits_0() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--config", "@examples/scripted/timeout", "--no-logs", "q"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "⏱ coordination timed out after 3 s");
    assert_stdout_contains(&output, "Quick answer to: q");
    assert!(
        text(&output.stdout)
            .lines()
            .any(|line| line.starts_with("⏱ timed out in ")),
        "{}",
        describe(&output)
    );
}

#[test]
fn an_agent_that_errors_leaves_no_answer_and_exits_2() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "broken.yaml",
        "agent:\n  id: broken\n  backend:\n    type: scripted\n    tokens_per_second: 0\n    fail: error\n",
    );
    let output = sandbox.run(&["--config", "broken.yaml", "q"]);
    assert_code(&output, 2);
    assert_stdout_contains(&output, "[broken] ✗ error: scripted failure");
    assert_stdout_contains(&output, "✗ failed: no answer");
    // The failed turn is still logged, without a final answer.
    let attempt = sandbox.run_log_dir().join("turn_1").join("attempt_1");
    assert!(attempt.join("events.jsonl").is_file());
    assert!(!attempt.join("final").exists());
}

#[test]
fn orchestrator_timeout_flag_stops_a_hanging_agent() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "hang.yaml",
        "agent:\n  id: stuck\n  backend:\n    type: scripted\n    tokens_per_second: 0\n    fail: hang\n",
    );
    let started = Instant::now();
    let output = sandbox
        .massgen()
        .args([
            "--config",
            "hang.yaml",
            "--orchestrator-timeout",
            "1",
            "--no-logs",
            "q",
        ])
        .timeout(Duration::from_secs(15))
        .write_stdin("")
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    assert_code(&output, 3);
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    assert_stdout_contains(&output, "timed out after 1 s");
}

#[test]
fn fault_tolerance_example_survives_broken_agents() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&[
        "--config",
        "@examples/scripted/fault_tolerance",
        "--no-logs",
        "q",
    ]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "[flaky] ✗ error: upstream returned 500");
    assert_stdout_contains(&output, "[rambler] ✗ out of this turn");
    assert_stdout_contains(&output, "🏆 Winner: steady");
    let stdout = text(&output.stdout);
    assert!(
        stdout.lines().any(|line| line.starts_with("✓ done")),
        "{stdout}"
    );
}

#[test]
fn bad_arguments_exit_with_the_config_error_code() {
    let sandbox = Sandbox::new();
    for args in [
        vec!["--no-such-flag", "q"],
        vec!["--validate", "a.yaml", "--config", "b.yaml"],
        vec!["--orchestrator-timeout", "0", "q"],
        vec!["--orchestrator-timeout", "18446744073709551615", "q"],
    ] {
        let output = sandbox.run(&args);
        assert_code(&output, 1);
    }
    let output = sandbox.run(&["--orchestrator-timeout", "0", "q"]);
    assert_stderr_contains(&output, "must be at least 1 second");
}

#[test]
fn a_missing_context_path_stops_the_run_with_the_path_named() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "ctx.yaml",
        "agent:\n  id: a\n  backend: {type: scripted}\norchestrator:\n  context_paths:\n    \
         - {path: ./no_such_dir, permission: write}\n",
    );
    let output = sandbox.run(&["--config", "ctx.yaml", "--display", "plain", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "context path");
    assert_stderr_contains(&output, "no_such_dir");
    assert_stderr_contains(&output, "does not exist");
}

#[test]
fn a_question_with_a_missing_attached_path_is_refused() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--display", "plain", "Summarise @no_such_notes.md please"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "not found: @no_such_notes.md");
}
