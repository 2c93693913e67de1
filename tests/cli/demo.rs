//! The `massgen` command line: the offline demo and its logs, the quiet display, `--output-file`, `--debug` and `--no-logs`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{RunArgs, SOLO, assert_code, assert_stderr_contains, describe, final_section};
use crate::support::sandbox::{Sandbox, text};

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
