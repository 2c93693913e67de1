//! The `massgen` command line: the offline demo and its logs, shipped examples, quick setup, config discovery, output options, stdin questions and exit codes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use support::sandbox::{Sandbox, text};

/// A tiny scripted agent that streams with no delay.
const SOLO: &str = "\
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answer: \"Solo answer to: {question}\"
";

/// `sandbox.run(args)`: the binary with an empty standard input.
trait RunArgs {
    fn run(&self, args: &[&str]) -> Output;
}

impl RunArgs for Sandbox {
    /// Runs `massgen ARGS` with an empty standard input.
    fn run(&self, args: &[&str]) -> Output {
        self.massgen().args(args).write_stdin("").output().unwrap()
    }
}

fn describe(output: &Output) -> String {
    format!(
        "--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

fn assert_code(output: &Output, code: i32) {
    assert_eq!(output.status.code(), Some(code), "{}", describe(output));
    assert!(
        !text(&output.stderr).contains("panicked"),
        "{}",
        describe(output)
    );
}

fn assert_stdout_contains(output: &Output, needle: &str) {
    assert!(
        text(&output.stdout).contains(needle),
        "stdout should contain {needle:?}\n{}",
        describe(output)
    );
}

fn assert_stderr_contains(output: &Output, needle: &str) {
    assert!(
        text(&output.stderr).contains(needle),
        "stderr should contain {needle:?}\n{}",
        describe(output)
    );
}

/// The lines between `── Final answer …` and the closing `──` of the `n`th turn (1-based).
fn final_section(stdout: &str, n: usize) -> String {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.starts_with("── Final answer"))
        .nth(n - 1)
        .map(|(index, _)| index)
        .unwrap_or_else(|| panic!("no `── Final answer` line number {n}\n{stdout}"));
    lines[start + 1..]
        .iter()
        .take_while(|line| **line != "──")
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `final/<winner>/answer.txt` files of an attempt directory.
fn final_answers(attempt: &Path) -> Vec<(String, String)> {
    std::fs::read_dir(attempt.join("final"))
        .unwrap()
        .flatten()
        .map(|entry| {
            let winner = entry.file_name().to_string_lossy().into_owned();
            let answer = std::fs::read_to_string(entry.path().join("answer.txt")).unwrap();
            (winner, answer)
        })
        .collect()
}

#[test]
fn readme_demo_runs_offline_and_logs_every_event() {
    let sandbox = Sandbox::new();
    let question = "What is the capital of France?";
    let started = Instant::now();
    let output = sandbox
        .massgen()
        .args(["--display", "plain", question])
        .timeout(Duration::from_secs(60))
        .write_stdin("")
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    assert_code(&output, 0);
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
    let info = describe(&output);

    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "one-line demo notice\n{info}");
    assert!(stderr.contains("demo"), "{info}");

    let stdout = text(&output.stdout);
    for needle in [
        "━━ Turn 1",
        "✔ answer agent",
        "☑ votes for",
        "🏆 Winner:",
        "── Final answer",
        question,
    ] {
        assert!(stdout.contains(needle), "stdout lacks {needle:?}\n{info}");
    }
    let done = stdout
        .lines()
        .find(|line| line.starts_with("✓ done"))
        .unwrap_or_else(|| panic!("no `✓ done` line\n{info}"));

    let run = sandbox.run_log_dir();
    let attempt = run.join("turn_1").join("attempt_1");
    assert!(
        done.ends_with(&format!("· log: {}", attempt.display())),
        "the done line names the attempt directory\n{info}"
    );

    let events_path = attempt.join("events.jsonl");
    let events = std::fs::read_to_string(&events_path).unwrap();
    let mut previous_seq = None;
    let mut types = Vec::new();
    let mut finished_winner = None;
    for (index, line) in events.lines().enumerate() {
        let event: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|error| panic!("events.jsonl line {}: {error}: {line}", index + 1));
        for key in ["seq", "at", "turn", "msg"] {
            assert!(
                event.get(key).is_some(),
                "line {} lacks {key}: {line}",
                index + 1
            );
        }
        let seq = event["seq"].as_u64().expect("seq is a number");
        if let Some(previous) = previous_seq {
            assert!(seq > previous, "seq {seq} after {previous}");
        }
        previous_seq = Some(seq);
        assert_eq!(event["turn"], 1, "{line}");
        let kind = event["msg"]["type"].as_str().expect("msg.type").to_string();
        if kind == "turn_started" {
            assert_eq!(event["msg"]["question"], question);
        }
        if kind == "turn_finished" {
            assert_eq!(event["msg"]["outcome"], "completed", "{line}");
            finished_winner = event["msg"]["winner"].as_str().map(str::to_string);
        }
        types.push(kind);
    }
    assert!(types.len() > 10, "a demo turn has many events: {types:?}");
    assert_eq!(types.first().map(String::as_str), Some("turn_started"));
    assert_eq!(types.last().map(String::as_str), Some("turn_finished"));

    let answers = final_answers(&attempt);
    assert_eq!(answers.len(), 1, "{answers:?}");
    let (winner, answer) = &answers[0];
    assert!(!answer.trim().is_empty(), "answer.txt is empty");
    assert_eq!(finished_winner.as_deref(), Some(winner.as_str()));
    assert!(
        stdout.contains(&format!("🏆 Winner: {winner} ")),
        "{winner} is announced\n{info}"
    );
    assert!(
        stdout.contains(answer.trim_end()),
        "stdout shows the logged final answer\n{info}"
    );
    // The files derived from the event log are beside it when the run ends.
    let coordination: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("coordination_events.json")).unwrap())
            .unwrap();
    assert_eq!(
        coordination["session_metadata"]["final_winner"],
        winner.as_str()
    );
    let metrics: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("metrics_summary.json")).unwrap())
            .unwrap();
    assert_eq!(metrics["meta"]["winner"], winner.as_str());
    let metadata: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("execution_metadata.yaml")).unwrap())
            .unwrap();
    assert_eq!(metadata["turn"], 1);
    assert!(metadata["config"]["agents"].as_array().unwrap().len() == 3);
    assert!(
        attempt
            .join(format!("agent_outputs/agent_{winner}.txt"))
            .is_file()
    );
    let status: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("status.json")).unwrap()).unwrap();
    assert_eq!(status["results"]["winner"], winner.as_str());
    assert_eq!(status["coordination"]["completion_percentage"], 100);
    assert_eq!(
        status["meta"]["log_dir"],
        attempt.display().to_string(),
        "status.json names the attempt directory"
    );
    let table = std::fs::read_to_string(attempt.join("coordination_table.txt")).unwrap();
    assert!(table.contains(&format!("🏆 Winner: {winner}")), "{table}");
    assert!(
        table.contains(&format!("| USER     | {question}")),
        "{table}"
    );
    // Tracing shares the run's log directory: info by default, no debug lines.
    let log = std::fs::read_to_string(run.join("massgen.log")).unwrap();
    assert!(log.contains("turn finished"), "{log}");
    assert!(!log.contains("DEBUG"), "{log}");
    assert!(!run.join("massgen_debug.log").exists());
    // The session store keeps the turn.
    let sessions: Vec<_> = std::fs::read_dir(sandbox.massgen_dir().join("sessions"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let session = &sessions[0];
    let metadata: serde_json::Value =
        serde_json::from_slice(&std::fs::read(session.join("turn_1/metadata.json")).unwrap())
            .unwrap();
    assert_eq!(metadata["winning_agent"], winner.as_str());
    assert_eq!(metadata["status"], "complete");
    assert_eq!(
        std::fs::read_to_string(session.join("turn_1/answer.txt")).unwrap(),
        *answer
    );
    assert!(session.join("SESSION_SUMMARY.txt").is_file());
    let registry: serde_json::Value = serde_json::from_slice(
        &std::fs::read(sandbox.root.join("home/.massgen/sessions.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        registry["sessions"][0]["session_dir"],
        session.display().to_string()
    );
}

#[test]
fn list_examples_names_shipped_configs() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--list-examples"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "  demo/three_agents ");
    assert_stdout_contains(&output, "  basic/multi/three_agents_default ");
    assert_stdout_contains(&output, "  scripted/single_agent ");
}

#[test]
fn every_listed_example_validates() {
    let sandbox = Sandbox::new();
    let listing = text(&sandbox.run(&["--list-examples"]).stdout);
    let names: Vec<&str> = listing
        .lines()
        .filter(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(names.len() >= 8, "{listing}");
    for name in names {
        let output = sandbox.run(&["--validate", &format!("@examples/{name}")]);
        assert_code(&output, 0);
        assert_stdout_contains(&output, &format!("✓ @examples/{name} is valid: "));
    }
}

#[test]
fn example_prints_the_shipped_yaml() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--example", "demo/three_agents"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "type: scripted");
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/demo/three_agents.yaml"),
    )
    .unwrap();
    assert_eq!(text(&output.stdout), shipped);
}

#[test]
fn example_with_an_unknown_name_fails() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--example", "nope_nothing"]);
    assert_code(&output, 1);
    assert!(output.stdout.is_empty(), "{}", describe(&output));
    assert_stderr_contains(&output, "error: no shipped config matches `nope_nothing`");
    assert_stderr_contains(&output, "--list-examples");
}

#[test]
fn quiet_display_prints_only_the_final_answer() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&[
        "--config",
        "@examples/scripted/single_agent",
        "--display",
        "quiet",
        "q",
    ]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    assert_eq!(stdout, "A single scripted agent's answer to: q\n");
    assert!(!stdout.contains("━━") && !stdout.contains("[solo]"));
    assert!(output.stderr.is_empty(), "{}", describe(&output));
}

#[test]
fn quick_setup_with_the_scripted_model() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--model", "scripted", "--no-logs", "hello"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "━━ Turn 1 ━━ hello");
    assert_stdout_contains(&output, "This is a scripted answer to: hello");
    assert!(output.stderr.is_empty(), "{}", describe(&output));
}

#[test]
fn quick_setup_with_a_real_model_needs_its_key_before_anything_starts() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--model", "gpt-5", "q"]);
    assert_code(&output, 1);
    assert!(output.stdout.is_empty(), "{}", describe(&output));
    assert_stderr_contains(
        &output,
        "error: agent `agent`: backend `openai` needs an API key: set OPENAI_API_KEY",
    );
    let output = sandbox.run(&["--backend", "claude", "--model", "claude-sonnet-4-5", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "set ANTHROPIC_API_KEY");
    assert!(!sandbox.massgen_dir().exists(), "{}", describe(&output));
}

#[test]
fn a_key_from_a_dotenv_file_is_enough_to_start() {
    let sandbox = Sandbox::new();
    sandbox.write(".env", "GROQ_API_KEY=gsk-from-dotenv\n");
    // Nothing listens on this port: the run starts, then the agent fails to connect.
    let output = sandbox
        .massgen()
        .args([
            "--backend",
            "groq",
            "--model",
            "llama-3.3-70b-versatile",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--display",
            "plain",
            "q",
        ])
        .output()
        .unwrap();
    let all = describe(&output);
    assert!(!all.contains("needs an API key"), "{all}");
    assert!(all.contains("cannot reach Groq"), "{all}");
    assert!(!all.contains("gsk-from-dotenv"), "{all}");
}

#[test]
fn validate_notes_missing_keys_but_fails_on_config_mistakes() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--validate", "@examples/providers/claude/claude_sonnet_4_5"]);
    assert_code(&output, 0);
    assert_stderr_contains(
        &output,
        "note: agent `claude_agent`: backend `claude` needs an API key: set ANTHROPIC_API_KEY",
    );
    sandbox.write(
        "custom.yaml",
        "agent:\n  id: a\n  backend:\n    type: chatcompletion\n    model: m\n    base_url: https://llm.example.com/v1\n",
    );
    let output = sandbox.run(&["--validate", "custom.yaml"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "needs an API key: set `api_key` in the config");
}

#[test]
fn quick_setup_with_an_unknown_model_asks_for_backend() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--model", "llama-unknown", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(
        &output,
        "error: --model: cannot tell which backend serves model `llama-unknown`",
    );
    assert_stderr_contains(&output, "--backend");
}

#[test]
fn quick_setup_with_a_misspelled_backend_suggests_one() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--backend", "opnai", "--model", "x", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "error: --backend: unknown backend type `opnai`");
    assert_stderr_contains(&output, "did you mean `openai`?");
}

#[test]
fn missing_config_file_fails() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--config", "does_not_exist.yaml", "q"]);
    assert_code(&output, 1);
    assert!(output.stdout.is_empty(), "{}", describe(&output));
    assert_stderr_contains(&output, "config file `does_not_exist.yaml` not found");
}

#[test]
fn unknown_example_config_fails_and_points_at_the_list() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--config", "@examples/zzz_nothing", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "no shipped config matches `@examples/zzz_nothing`");
    assert_stderr_contains(&output, "--list-examples");
}

#[test]
fn project_config_is_used_without_config_flag() {
    let sandbox = Sandbox::new();
    sandbox.write(".massgen/config.yaml", SOLO);
    let output = sandbox.run(&["--display", "plain", "where"]);
    assert_code(&output, 0);
    assert!(
        output.stderr.is_empty(),
        "no demo notice\n{}",
        describe(&output)
    );
    assert_stdout_contains(&output, "agents: solo (scripted)");
    assert_stdout_contains(&output, "Solo answer to: where");
}

#[test]
fn user_config_is_used_and_the_project_config_wins_over_it() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "home/.config/massgen/config.yaml",
        &SOLO.replace("id: solo", "id: from_user"),
    );
    let output = sandbox.run(&["--no-logs", "q"]);
    assert_code(&output, 0);
    assert!(output.stderr.is_empty(), "{}", describe(&output));
    assert_stdout_contains(&output, "agents: from_user (scripted)");

    sandbox.write(".massgen/config.yaml", SOLO);
    let output = sandbox.run(&["--no-logs", "q"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "agents: solo (scripted)");
}

#[test]
fn output_file_holds_the_final_answer() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let output = sandbox.run(&[
        "--config",
        "solo.yaml",
        "--display",
        "plain",
        "--output-file",
        "out.txt",
        "capital?",
    ]);
    assert_code(&output, 0);
    let written = std::fs::read_to_string(sandbox.root.join("out.txt")).unwrap();
    assert_eq!(written.trim_end(), "Solo answer to: capital?");
    assert_eq!(
        final_section(&text(&output.stdout), 1),
        written.trim_end(),
        "{}",
        describe(&output)
    );
    let attempt = sandbox.run_log_dir().join("turn_1").join("attempt_1");
    assert_eq!(final_answers(&attempt), vec![("solo".to_string(), written)]);
}

#[test]
fn debug_logs_to_massgen_debug_log_and_standard_error() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let output = sandbox.run(&["--config", "solo.yaml", "--debug", "q"]);
    assert_code(&output, 0);
    let run = sandbox.run_log_dir();
    assert!(!run.join("massgen.log").exists());
    let log = std::fs::read_to_string(run.join("massgen_debug.log")).unwrap();
    assert!(log.contains("DEBUG"), "{log}");
    assert!(log.contains("turn finished"), "{log}");
    assert_stderr_contains(&output, "turn finished");
}

#[test]
fn no_logs_leaves_no_massgen_directory() {
    let sandbox = Sandbox::new();
    sandbox.write("solo.yaml", SOLO);
    let output = sandbox.run(&["--config", "solo.yaml", "--no-logs", "q"]);
    assert_code(&output, 0);
    assert!(!sandbox.massgen_dir().exists());
    let done = text(&output.stdout)
        .lines()
        .find(|line| line.starts_with("✓ done"))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("{}", describe(&output)));
    assert!(!done.contains("log:"), "{done}");
}

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
fn timeout_example_exits_3() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--config", "@examples/scripted/timeout", "--no-logs", "q"]);
    assert_code(&output, 3);
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
fn configs_for_backends_with_their_own_default_model_validate() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "cc.yaml",
        "agents:\n  - id: coder\n    backend: {type: claude_code, cwd: workspace}\n  - id: team\n    backend:\n      type: ag2\n      agent_config: {type: assistant}\n",
    );
    let output = sandbox.run(&["--validate", "cc.yaml"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "coder (claude_code/default)");
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
