//! Snapshots of the eval screen (ratatui `TestBackend`): the running view mid-run with a
//! failed item, the stopped view, and the end screen's table and chart.

use std::path::PathBuf;
use std::time::Duration;

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::eval::progress::{Finished, Tracker};
use crate::tui::eval::state::{EvalHeader, EvalState, Tab};
use crate::tui::eval::test_summary::four_contenders;
use crate::tui::eval::view::render;

fn draw(state: &EvalState, width: u16, height: u16) -> TestBackend {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| render(state, frame)).unwrap();
    terminal.backend().clone()
}

fn finished(contender: &str, item: &str, correct: bool, error: Option<&str>) -> Finished {
    Finished {
        contender: contender.into(),
        item: item.into(),
        correct,
        error: error.map(str::to_string),
    }
}

/// Two contenders of 10 items each, five items in, the last one failed.
fn mid_run() -> EvalState {
    let contenders = vec!["vote.yaml · vote".to_string(), "quiz-a alone".to_string()];
    let mut state = EvalState::new(EvalHeader {
        dataset: "@examples/eval-demo".into(),
        items: 10,
        contenders: contenders.clone(),
        concurrency: 4,
        max_cost: Some(0.5),
        out: PathBuf::from("/tmp/eval-out"),
    });
    let totals: Vec<(String, usize)> = contenders.iter().map(|name| (name.clone(), 10)).collect();
    let mut tracker = Tracker::new(&totals, 4);
    let items = [
        finished("vote.yaml · vote", "q1", true, None),
        finished("quiz-a alone", "q1", true, None),
        finished("vote.yaml · vote", "q2", true, None),
        finished("quiz-a alone", "q2", false, None),
        finished(
            "quiz-a alone",
            "q3",
            false,
            Some("the model failed:\n  HTTP 500\n  try again later"),
        ),
    ];
    for item in items {
        state.on_progress(tracker.record(item, 0.002, Some(Duration::from_secs(3))));
    }
    state.tick(Duration::from_secs(83));
    state
}

#[test]
fn the_running_view_shows_each_contender_the_totals_and_the_last_items() {
    let state = mid_run();
    let screen = draw(&state, 100, 24);
    assert_snapshot!("eval_running_100x24", screen);
}

#[test]
fn a_stopped_run_says_how_to_resume() {
    let mut state = mid_run();
    state.stop();
    let screen = format!("{:?}", draw(&state, 100, 24));
    assert!(
        screen.contains("stopped — rerun the same command to resume"),
        "{screen}"
    );
    assert!(screen.contains("ETA –"), "no ETA once stopped:\n{screen}");
}

fn finished_state(tab: Tab) -> EvalState {
    let mut state = mid_run();
    state.finish(four_contenders());
    state.tab = tab;
    state
}

#[test]
fn the_end_screen_shows_the_summary_table_and_the_files() {
    let state = finished_state(Tab::Table);
    assert_snapshot!("eval_table_150x30", draw(&state, 150, 30));
}

#[test]
fn the_chart_plots_accuracy_against_cost_with_the_best_single_model_starred() {
    let state = finished_state(Tab::Chart);
    assert_snapshot!("eval_chart_120x36", draw(&state, 120, 36));
}
