//! MassGen's own `massgen logs summary|tools|list` (its `logs_analyzer.py`, from the wheel
//! pinned in tests/peers/massgen-wheel.pin, run by tests/peers/massgen_logs.py) reads a log
//! directory massgen wrote and finds there what massgen's own files say: the winner, the
//! run's duration from every agent's `round_history`, the rounds by outcome, the model
//! calls, the tools. Without the peers this skips, except with CI=true, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "peers/harness.rs"]
#[allow(dead_code)]
mod harness;
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use support::sandbox::{Sandbox, text};

const QUESTION: &str = "Outline a talk on the history of the printing press";

/// Runs a scripted turn with tool calls and returns its attempt directory.
fn run_turn(sandbox: &Sandbox) -> PathBuf {
    let output = sandbox
        .massgen()
        .args([
            "--automation",
            "--config",
            "@examples/scripted/workspaces",
            QUESTION,
        ])
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    let dir = stdout
        .lines()
        .find_map(|line| line.strip_prefix("LOG_DIR: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    PathBuf::from(dir)
}

/// What MassGen's reader made of the run (see tests/peers/massgen_logs.py).
fn read_with_massgen(attempt: &Path, project: &Path) -> Option<Value> {
    let python = harness::venv_program("python")?;
    let analyzer = harness::peer("massgen-wheel/massgen/logs_analyzer.py")?;
    let output = Command::new(python)
        .arg(harness::peers().join("massgen_logs.py"))
        .arg(analyzer)
        .arg(attempt)
        .arg(project)
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
    let Some(read) = read_with_massgen(&attempt, &sandbox.root) else {
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
