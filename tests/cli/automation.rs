//! `--automation`: MassGen's parseable lines in their order, the files they name, every
//! exit code (a config error, failing agents and a failing provider, a timeout with no
//! answer, SIGINT), `--output-file`, and eight runs at once in one directory.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use crate::common::{RunArgs, assert_code, describe, read_until_containing, spawn_reading};
use crate::support::sandbox::{Sandbox, text};

const PAIR: &str = "\
agents:
  - id: alpha
    backend: {type: scripted, tokens_per_second: 0, answers: [\"Four.\"], final_answer: \"The answer is 4.\\nTwo and two make four.\"}
  - id: beta
    backend: {type: scripted, tokens_per_second: 0, answers: [\"4\"], vote_for: alpha}
";

/// The value after `NAME: ` on the line that starts with it.
fn value<'a>(stdout: &'a str, name: &str) -> Option<&'a str> {
    stdout
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
}

/// The names of the `NAME: value` lines, in order, with blank lines as "".
fn shape(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|line| match line.split_once(": ") {
            Some((name, _)) if name.chars().all(|ch| ch.is_ascii_uppercase() || ch == '_') => {
                name.to_string()
            }
            Some(_) | None => line.to_string(),
        })
        .collect()
}

fn automation(sandbox: &Sandbox, config: &str, extra: &[&str]) -> Output {
    sandbox.write("run.yaml", config);
    let mut args = vec!["--automation", "--config", "run.yaml"];
    args.extend_from_slice(extra);
    sandbox.run(&args)
}

#[test]
fn a_completed_turn_prints_the_lines_in_order_and_names_real_files() {
    let sandbox = Sandbox::new();
    let output = automation(&sandbox, PAIR, &["What is\n2+2?"]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    assert_eq!(
        shape(&stdout),
        [
            "LOG_DIR",
            "STATUS",
            "QUESTION",
            "[Coordination in progress - monitor status.json for real-time updates]",
            "",
            "WINNER",
            "ANSWER_FILE",
            "DURATION",
            "ANSWER_PREVIEW",
            "",
            "COMPLETED",
        ],
        "{}",
        describe(&output)
    );
    let log_dir = PathBuf::from(value(&stdout, "LOG_DIR").unwrap());
    assert!(
        log_dir.ends_with("turn_1/attempt_1"),
        "{}",
        log_dir.display()
    );
    assert!(log_dir.starts_with(sandbox.massgen_dir().join("massgen_logs")));
    assert_eq!(value(&stdout, "QUESTION"), Some("What is 2+2?"));
    assert_eq!(value(&stdout, "WINNER"), Some("alpha"));
    let answer_file = PathBuf::from(value(&stdout, "ANSWER_FILE").unwrap());
    assert_eq!(answer_file, log_dir.join("final/alpha/answer.txt"));
    assert_eq!(
        std::fs::read_to_string(&answer_file).unwrap(),
        "The answer is 4.\nTwo and two make four."
    );
    assert_eq!(
        value(&stdout, "ANSWER_PREVIEW"),
        Some("The answer is 4. Two and two make four.")
    );
    let duration = value(&stdout, "DURATION").unwrap();
    assert!(
        duration.ends_with('s') && duration.trim_end_matches('s').parse::<f64>().is_ok(),
        "{duration}"
    );
    let completed = value(&stdout, "COMPLETED").unwrap();
    assert!(
        completed.starts_with("2 agents, ") && completed.ends_with("s total"),
        "{completed}"
    );
    let status: serde_json::Value =
        serde_json::from_slice(&std::fs::read(value(&stdout, "STATUS").unwrap()).unwrap()).unwrap();
    assert_eq!(status["results"]["winner"], "alpha", "{status}");
    assert!(text(&output.stderr).is_empty(), "{}", describe(&output));
}

#[test]
fn logs_are_on_even_when_the_config_turns_them_off() {
    let sandbox = Sandbox::new();
    let config = format!("ui: {{logging_enabled: false}}\n{PAIR}");
    let output = automation(&sandbox, &config, &["q"]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    assert!(
        PathBuf::from(value(&stdout, "STATUS").unwrap()).is_file(),
        "{stdout}"
    );
}

#[test]
fn the_output_file_gets_the_whole_answer() {
    let sandbox = Sandbox::new();
    let output = automation(&sandbox, PAIR, &["--output-file", "answer.md", "q"]);
    assert_code(&output, 0);
    assert_eq!(
        std::fs::read_to_string(sandbox.root.join("answer.md")).unwrap(),
        "The answer is 4.\nTwo and two make four."
    );
}

#[test]
fn a_config_error_exits_1_before_any_line() {
    let sandbox = Sandbox::new();
    let output = automation(&sandbox, "agents: nope\n", &["q"]);
    assert_code(&output, 1);
    assert!(output.stdout.is_empty(), "{}", describe(&output));
}

#[test]
fn agents_that_all_fail_exit_2_with_no_winner() {
    let sandbox = Sandbox::new();
    let config =
        "agent:\n  id: broken\n  backend: {type: scripted, tokens_per_second: 0, fail: error}\n";
    let output = automation(&sandbox, config, &["q"]);
    assert_code(&output, 2);
    let stdout = text(&output.stdout);
    assert_eq!(
        shape(&stdout),
        [
            "LOG_DIR",
            "STATUS",
            "QUESTION",
            "[Coordination in progress - monitor status.json for real-time updates]",
            "",
            "DURATION",
            "",
            "COMPLETED",
        ],
        "{}",
        describe(&output)
    );
    assert!(
        text(&output.stderr).contains("failed: no agent produced an answer"),
        "{}",
        describe(&output)
    );
}

#[test]
fn a_timeout_with_no_answer_exits_3() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "hang.yaml",
        "agent:\n  id: stuck\n  backend: {type: scripted, tokens_per_second: 0, fail: hang}\n",
    );
    let output = sandbox
        .massgen()
        .args([
            "--automation",
            "--config",
            "hang.yaml",
            "--orchestrator-timeout",
            "1",
            "q",
        ])
        .timeout(Duration::from_secs(20))
        .write_stdin("")
        .output()
        .unwrap();
    assert_code(&output, 3);
    assert!(value(&text(&output.stdout), "WINNER").is_none());
    assert!(value(&text(&output.stdout), "COMPLETED").is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_provider_exits_2() {
    let server = crate::mock_llm::MockLlm::start(vec![crate::mock_llm::Reply::status(
        500,
        r#"{"error":{"message":"the model is on fire"}}"#,
    )])
    .await;
    let sandbox = Sandbox::new();
    let config = format!(
        "agent:\n  id: remote\n  backend: {{type: chatcompletion, model: m, api_key: sk-test-0123456789, \
         base_url: \"{}/v1\", max_retries: 0}}\n",
        server.base_url
    );
    sandbox.write("remote.yaml", &config);
    let mut command = sandbox.massgen();
    command
        .args(["--automation", "--config", "remote.yaml", "q"])
        .write_stdin("");
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    assert_code(&output, 2);
    assert!(value(&text(&output.stdout), "COMPLETED").is_some());
}

#[test]
fn sigint_cancels_saves_the_turn_and_exits_4() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "hang.yaml",
        "agent:\n  id: stuck\n  backend: {type: scripted, tokens_per_second: 0, fail: hang}\n",
    );
    let (mut child, mut stdout) =
        spawn_reading(&sandbox, &["--automation", "--config", "hang.yaml", "q"]);
    let mut seen = String::new();
    read_until_containing(&mut stdout, "[Coordination in progress", &mut seen);
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(4), "{seen}{rest}");
    assert!(rest.contains("COMPLETED: 1 agents"), "{seen}{rest}");
    let sessions: Vec<_> = std::fs::read_dir(sandbox.massgen_dir().join("sessions"))
        .unwrap()
        .collect();
    assert_eq!(sessions.len(), 1, "the cancelled turn is saved");
}

#[test]
fn eight_runs_at_once_in_one_directory_all_succeed_apart() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", PAIR);
    let children: Vec<_> = (0..8)
        .map(|n| {
            let mut command = sandbox.massgen();
            command
                .args(["--automation", "--config", "run.yaml"])
                .arg(format!("question {n}"))
                .timeout(Duration::from_secs(60))
                .write_stdin("");
            std::thread::spawn(move || command.output().unwrap())
        })
        .collect();
    let outputs: Vec<Output> = children.into_iter().map(|c| c.join().unwrap()).collect();
    let mut log_dirs = Vec::new();
    for output in &outputs {
        assert_code(output, 0);
        log_dirs.push(value(&text(&output.stdout), "LOG_DIR").unwrap().to_string());
    }
    log_dirs.sort();
    log_dirs.dedup();
    assert_eq!(log_dirs.len(), 8, "{log_dirs:?}");
    let registry: serde_json::Value = serde_json::from_slice(
        &std::fs::read(sandbox.root.join("home/.massgen/sessions.json")).unwrap(),
    )
    .unwrap();
    let sessions = registry["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 8, "{registry}");
    assert!(
        sessions
            .iter()
            .all(|session| session["last_turn_status"] == "complete"),
        "{registry}"
    );
}
