//! MassGen's own readers of its log and session files, from the wheel pinned in
//! tests/peers/massgen-wheel.pin, on what massgen wrote:
//! - `massgen logs summary|tools|list` (its `logs_analyzer.py`, run by
//!   tests/peers/massgen_logs.py) finds what massgen's own files say: the winner, the run's
//!   duration from every agent's `round_history`, the rounds by outcome, the model calls,
//!   the tools;
//! - its coordination-table builder (run by tests/peers/massgen_coordination_table.py)
//!   reads `coordination_events.json` into the agents, answers, votes, restarts and winner
//!   the run had;
//! - its session code (`massgen/session/`, run by tests/peers/massgen_session.py) offers
//!   massgen's session to `--continue` and restores its conversation turn by turn, so a
//!   user can go on with MassGen where massgen stopped.
//!
//! Without the peers this skips, except with CI=true, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::sandbox::{Sandbox, text};
use serde_json::{Value, json};

const QUESTION: &str = "Outline a talk on the history of the printing press";

/// Runs `massgen --automation ARGS` and returns its standard output.
fn automation(sandbox: &Sandbox, args: &[&str]) -> String {
    let output = sandbox
        .massgen()
        .arg("--automation")
        .args(args)
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    stdout
}

/// Runs a scripted turn with tool calls and returns its attempt directory.
fn run_turn(sandbox: &Sandbox) -> PathBuf {
    let stdout = automation(
        sandbox,
        &["--config", "@examples/scripted/workspaces", QUESTION],
    );
    let dir = stdout
        .lines()
        .find_map(|line| line.strip_prefix("LOG_DIR: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    PathBuf::from(dir)
}

/// What MassGen's code at `reader` (under the unpacked wheel) made of `args`, as printed
/// by the peer `script`.
fn read_with_massgen(script: &str, reader: &str, args: &[&Path], home: &Path) -> Option<Value> {
    let python = crate::harness::venv_program("python")?;
    let reader = crate::harness::peer(&format!("massgen-wheel/massgen/{reader}"))?;
    let output = Command::new(python)
        .env("HOME", home)
        .arg(crate::harness::peers().join(script))
        .arg(reader)
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

fn file_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// MassGen prints durations as `123ms`, `4.5s` or `1.2m`.
fn massgen_duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0}ms")
    } else if ms < 60_000.0 {
        format!("{:.1}s", ms / 1000.0)
    } else {
        format!("{:.1}m", ms / 60_000.0)
    }
}

#[test]
fn massgens_own_log_reader_finds_the_run_as_massgen_wrote_it() {
    let sandbox = Sandbox::new();
    let attempt = run_turn(&sandbox);
    let Some(read) = read_with_massgen(
        "massgen_logs.py",
        "logs_analyzer.py",
        &[&attempt, &sandbox.root],
        &sandbox.root.join("home"),
    ) else {
        return;
    };
    let metrics = file_json(&attempt.join("metrics_summary.json"));

    // It finds our newest attempt directory as the latest run (relative to the project).
    let latest = sandbox.root.join(read["latest"].as_str().unwrap());
    assert_eq!(
        latest.canonicalize().unwrap(),
        attempt.canonicalize().unwrap()
    );

    // The run's duration is the sum of every agent's rounds.
    let rounds: Vec<&Value> = metrics["agents"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|agent| agent["round_history"].as_array().unwrap())
        .collect();
    assert_eq!(read["round_history"], rounds.len());
    assert_eq!(metrics["rounds"]["total_rounds"], rounds.len());
    let duration_ms: f64 = rounds
        .iter()
        .map(|round| round["duration_ms"].as_f64().unwrap())
        .sum();
    assert!(duration_ms > 0.0, "{rounds:?}");
    assert!((read["duration_ms"].as_f64().unwrap() - duration_ms).abs() < 0.01);

    let summary = read["summary"].as_str().unwrap();
    let winner = metrics["meta"]["winner"].as_str().unwrap();
    for expected in [
        "MassGen Run Summary".to_string(),
        format!("Winner: {winner}"),
        format!("Agents: {}", metrics["meta"]["num_agents"]),
        format!("Duration: {}", massgen_duration(duration_ms)),
        format!("Rounds ({}):", rounds.len()),
        format!(
            "API Calls: Count: {}",
            metrics["api_timing"]["total_calls"].as_u64().unwrap()
        ),
        "Top Tools by Time".to_string(),
    ] {
        assert!(
            summary.contains(&expected),
            "no {expected:?} in:\n{summary}"
        );
    }
    assert!(summary.contains(&QUESTION[..40]), "{summary}");

    // Its tool table is ours, call for call.
    let by_tool = metrics["tools"]["by_tool"].as_object().unwrap();
    let breakdown = read["tools_breakdown"].as_array().unwrap();
    assert!(!breakdown.is_empty());
    assert_eq!(breakdown.len(), by_tool.len());
    for row in breakdown {
        let name = row["name"].as_str().unwrap();
        assert_eq!(row["calls"], by_tool[name]["call_count"], "{name}");
        assert_eq!(row["failures"], by_tool[name]["failure_count"], "{name}");
    }
    let tools = read["tools"].as_str().unwrap();
    assert!(tools.contains("mcp__filesystem__write_file"), "{tools}");

    // Its list of runs shows ours with a duration and a cost.
    let list = read["list"].as_str().unwrap();
    let row = list
        .lines()
        .find(|line| line.contains(&QUESTION[..20]))
        .unwrap_or_else(|| panic!("our run is not listed:\n{list}"));
    assert!(row.contains(&massgen_duration(duration_ms)), "{row}");
    assert!(row.contains("$0.00"), "{row}");
}

#[test]
fn massgens_own_coordination_table_reads_the_runs_coordination_events() {
    let sandbox = Sandbox::new();
    let attempt = run_turn(&sandbox);
    let Some(read) = read_with_massgen(
        "massgen_coordination_table.py",
        "frontend/displays/create_coordination_table.py",
        &[&attempt.join("coordination_events.json")],
        &sandbox.root.join("home"),
    ) else {
        return;
    };
    let events: Vec<Value> = std::fs::read_to_string(attempt.join("events.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let of_type = |kind: &str| -> Vec<&Value> {
        events
            .iter()
            .filter(|event| event["msg"]["type"] == kind)
            .collect()
    };
    let winner = of_type("winner_selected")[0]["msg"]["winner"].clone();
    assert_eq!(read["final_winner"], winner);
    assert_eq!(read["agents"], json!(["drafter", "reviewer"]));
    assert_eq!(read["user_question"], QUESTION);
    assert_eq!(read["rich_table"], true);

    // Every answer and vote is in MassGen's table, in the columns of those who gave them.
    let table = read["event_table"].as_str().unwrap();
    for answer in of_type("answer_submitted") {
        let label = answer["msg"]["label"].as_str().unwrap();
        assert!(
            table.contains(&format!("NEW ANSWER: {label}")),
            "{label}:\n{table}"
        );
        let content = answer["msg"]["content"].as_str().unwrap();
        assert_eq!(read["answers"][answer["agent"].as_str().unwrap()], content);
    }
    let votes = of_type("vote_cast");
    assert!(!votes.is_empty());
    for vote in votes {
        let label = vote["msg"]["target_label"].as_str().unwrap();
        assert!(
            table.contains(&format!("VOTE: {label}")),
            "{label}:\n{table}"
        );
    }
    let restarts = of_type("agent_restarted").len();
    assert!(restarts > 0);
    let totals = table
        .lines()
        .find(|line| line.contains("TOTALS"))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(
        totals.contains(&format!(" {restarts} restart")),
        "MassGen counts the restarts the run had ({restarts}): {totals}"
    );
    let final_label = of_type("final_presentation_done")[0]["msg"]["label"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        table.contains(&format!("FINAL ANSWER: {final_label}")),
        "{table}"
    );
    assert!(table.contains("selected as winner"), "{table}");

    // Its round table has the rounds the agents went through and the final one.
    let rounds = read["rounds"].as_array().unwrap();
    assert_eq!(rounds.first(), Some(&json!("R0")), "{rounds:?}");
    assert_eq!(rounds.last(), Some(&json!("FINAL")), "{rounds:?}");
    let round_table = read["round_table"].as_str().unwrap();
    assert!(round_table.contains("selected as winner"), "{round_table}");
}

#[test]
fn massgens_own_session_code_continues_a_massgen_session() {
    let sandbox = Sandbox::new();
    automation(&sandbox, &["What is the capital of France?"]);
    automation(&sandbox, &["--continue", "And of Italy?"]);
    let home = sandbox.root.join("home");
    let Some(read) = read_with_massgen("massgen_session.py", "session", &[&sandbox.root], &home)
    else {
        return;
    };
    let sessions: Vec<PathBuf> = std::fs::read_dir(sandbox.massgen_dir().join("sessions"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let session = &sessions[0];
    let id = session.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(read["recent"]["session_id"], id.as_str(), "{read:#}");

    let state = &read["state"];
    assert_eq!(state["current_turn"], 2, "{state:#}");
    assert_eq!(state["incomplete_turn"], Value::Null);
    let answer = |turn: u32| {
        std::fs::read_to_string(session.join(format!("turn_{turn}/answer.txt"))).unwrap()
    };
    assert_eq!(
        state["conversation_history"],
        json!([
            {"role": "user", "content": "What is the capital of France?"},
            {"role": "assistant", "content": answer(1)},
            {"role": "user", "content": "And of Italy?"},
            {"role": "assistant", "content": answer(2)},
        ])
    );
    let winners: Vec<Value> = state["previous_turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|turn| json!({"agent_id": turn["winning_agent"], "turn": turn["turn"]}))
        .collect();
    assert_eq!(state["winning_agents_history"], json!(winners));
    for turn in state["previous_turns"].as_array().unwrap() {
        assert!(
            !turn["winning_agent"]
                .as_str()
                .unwrap_or_default()
                .is_empty(),
            "{turn}"
        );
    }
}
