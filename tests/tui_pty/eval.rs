//! `massgen eval` on a terminal: the full-screen progress view while the offline demo runs,
//! then the summary table and (Tab) the chart; q leaves it with the reports written, and q
//! while it runs stops it with the finished items kept for a rerun.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::pty::Pty;

const DEMO: [&str; 6] = [
    "eval",
    "@examples/eval-demo",
    "--out",
    "DIR",
    "--concurrency",
    "4",
];

/// Like `Pty::wait_for`, with room for the whole demo eval (a few hundred scripted turns)
/// on a busy machine.
fn wait_long(pty: &Pty, needles: &[&str], step: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let text = pty.text();
        if needles.iter().all(|needle| text.contains(needle)) {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{step}: {needles:?} never shown:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn result_lines(out: &Path) -> usize {
    std::fs::read_to_string(out.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn massgen_eval_shows_its_progress_then_the_table_and_the_chart() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &DEMO);
    let running = pty.wait_for(
        &[
            "massgen eval",
            "@examples/eval-demo",
            "last finished",
            "ETA",
        ],
        "the progress view",
    );
    assert!(running.contains("gpt-4o-mini alone"), "{running}");
    let table = wait_long(
        &pty,
        &["[Table]", "Accuracy [95 % CI]"],
        "the summary table",
    );
    assert!(
        table.contains("★"),
        "the best single model is marked:\n{table}"
    );
    let out = home.path().join("DIR");
    assert!(
        table.contains(&out.join("summary.md").display().to_string()),
        "{table}"
    );
    pty.press(b"\t");
    pty.wait_for(&["[Chart]", "cost per item", "whisker"], "the chart");
    pty.press(b"\t");
    pty.wait_for(&["[Table]", "Accuracy [95 % CI]"], "back to the table");
    pty.press(b"q");
    let printed = pty.finish();
    assert!(out.join("summary.md").is_file(), "{printed}");
    assert!(out.join("chart.svg").is_file());
    assert!(
        printed.contains("| Contender |"),
        "the summary is printed once the screen is left:\n{printed}"
    );
}

#[test]
fn q_while_it_runs_stops_the_eval_and_keeps_what_finished() {
    let home = tempfile::tempdir().unwrap();
    let out = home.path().join("DIR");
    let mut pty = Pty::start(home.path(), &DEMO);
    pty.wait_until(
        |text| text.contains("last finished") && (text.contains('✓') || text.contains('✗')),
        "an item finished",
    );
    pty.press(b"q");
    let printed = pty.finish_with(4);
    assert!(
        printed.contains("stopped — rerun the same command to resume"),
        "{printed}"
    );
    let kept = result_lines(&out);
    assert!(kept >= 1, "finished items are kept:\n{printed}");
    assert!(kept < 252, "stopped before the end");
    assert!(
        !out.join("summary.md").exists(),
        "no summary of a stopped run"
    );
}
