//! Killed mid-run, then run again: no finished item is redone, and the summary is an
//! uninterrupted run's.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::provider::{self, QuizProvider};
use crate::support::sandbox::{Sandbox, text};

fn massgen(sandbox: &Sandbox, args: &[&str]) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("massgen"));
    command
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("XDG_CONFIG_HOME", sandbox.root.join("home").join(".config"))
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        .args(args)
        .stdin(Stdio::null());
    command
}

fn result_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// summary.json without what the clock decides (latencies).
fn timeless(summary: &Value) -> Value {
    let mut summary = summary.clone();
    if let Some(rows) = summary["rows"].as_array_mut() {
        for row in rows {
            if let Some(row) = row.as_object_mut() {
                row.retain(|key, _| !key.contains("latency"));
            }
        }
    }
    summary
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rerun_after_a_kill_redoes_no_finished_item_and_summarises_the_same() {
    let questions = provider::questions(24);
    let accuracy = HashMap::from([("solo-model".to_string(), 0.7)]);
    let quiz = QuizProvider::start(questions.clone(), accuracy, 3, Duration::from_millis(40)).await;
    let sandbox = Sandbox::new();
    sandbox.write("quiz.jsonl", &provider::dataset(&questions));
    sandbox.write("solo.yaml", &quiz.config(&["solo-model"]));
    let args = |out: &'static str| {
        vec![
            "eval",
            "quiz.jsonl",
            "--config",
            "solo.yaml",
            "--samples",
            "3",
            "--concurrency",
            "2",
            "--out",
            out,
            "--json",
        ]
    };

    // The uninterrupted run, and the provider calls it takes.
    let whole = massgen(&sandbox, &args("whole")).output().unwrap();
    assert_eq!(whole.status.code(), Some(0), "{}", text(&whole.stderr));
    let whole_calls = quiz.total_calls();
    let whole_summary: Value = serde_json::from_slice(&whole.stdout).unwrap();

    let results = sandbox.root.join("killed").join("results.jsonl");
    let mut child = massgen(&sandbox, &args("killed"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while result_lines(&results).len() < 10 {
        assert!(started.elapsed() < Duration::from_secs(60), "no results");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before: Vec<String> = result_lines(&results)
        .into_iter()
        .filter(|line| serde_json::from_str::<Value>(line).is_ok())
        .collect();
    assert!(before.len() < 72, "killed before the end: {}", before.len());
    let calls_before = quiz.total_calls() - whole_calls;

    let rerun = massgen(&sandbox, &args("killed")).output().unwrap();
    assert_eq!(rerun.status.code(), Some(0), "{}", text(&rerun.stderr));
    let after = result_lines(&results);
    assert_eq!(after.len(), 72, "3 contenders × 24 items");
    let pairs: HashSet<(String, String)> = after
        .iter()
        .map(|line| {
            let row: Value = serde_json::from_str(line).unwrap();
            (row["contender"].to_string(), row["item"].to_string())
        })
        .collect();
    assert_eq!(pairs.len(), 72, "no item answered twice");
    assert_eq!(
        &after[..before.len()],
        &before[..],
        "finished lines are kept as they were"
    );
    // The rerun asked only for what was missing: at most the two items in flight at the
    // kill (3 samples × 3 calls each) were asked again.
    let calls_after = quiz.total_calls() - whole_calls - calls_before;
    assert!(
        calls_before + calls_after <= whole_calls + 2 * 9,
        "whole run {whole_calls} calls; killed {calls_before} + rerun {calls_after}"
    );
    let resumed_summary: Value = serde_json::from_slice(&rerun.stdout).unwrap();
    assert_eq!(timeless(&resumed_summary), timeless(&whole_summary));
    for file in ["summary.md", "summary.json", "chart.svg", "run.json"] {
        assert!(sandbox.root.join("killed").join(file).is_file(), "{file}");
    }
}
