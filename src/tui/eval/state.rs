//! What the eval screen shows and how it changes: progress snapshots folded in (the newest
//! counts, the last few finished items kept), the run's end, and the keys.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::eval::progress::{Finished, Progress};
use crate::eval::summary::Summary;

/// How many finished items the running view lists.
pub const RECENT: usize = 6;

/// What the run is, as the header shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalHeader {
    pub dataset: String,
    pub items: usize,
    pub contenders: Vec<String>,
    pub concurrency: usize,
    /// `--max-cost`, in USD.
    pub max_cost: Option<f64>,
    /// Where results.jsonl and the summaries go.
    pub out: PathBuf,
}

/// Where the run is.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Running,
    /// Stopped by the user before every item was answered.
    Stopped,
    Done(Summary),
}

/// The end screen's two views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    #[default]
    Table,
    Chart,
}

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Nothing,
    /// Redraw: the screen changed.
    Redraw,
    /// Stop the running eval.
    Stop,
    /// Leave the finished eval's screen.
    Quit,
}

#[derive(Clone, Debug)]
pub struct EvalState {
    pub header: EvalHeader,
    pub progress: Progress,
    /// The newest finished items, newest first.
    pub recent: VecDeque<Finished>,
    pub phase: Phase,
    pub tab: Tab,
    /// Time since the run started, frozen at its end.
    pub elapsed: Duration,
}

impl EvalState {
    pub fn new(header: EvalHeader) -> Self {
        let progress = Progress {
            total: header.items * header.contenders.len(),
            contenders: header
                .contenders
                .iter()
                .map(|name| crate::eval::progress::ContenderProgress {
                    name: name.clone(),
                    total: header.items,
                    ..Default::default()
                })
                .collect(),
            ..Progress::default()
        };
        Self {
            header,
            progress,
            recent: VecDeque::with_capacity(RECENT),
            phase: Phase::Running,
            tab: Tab::default(),
            elapsed: Duration::ZERO,
        }
    }

    /// Takes a snapshot: its counts replace the shown ones, its finished item joins the list.
    pub fn on_progress(&mut self, mut progress: Progress) {
        if let Some(finished) = progress.last.take() {
            if self.recent.len() == RECENT {
                self.recent.pop_back();
            }
            self.recent.push_front(finished);
        }
        self.progress = progress;
    }

    /// The clock while the run goes on; it stops at the end.
    pub fn tick(&mut self, elapsed: Duration) {
        if self.phase == Phase::Running {
            self.elapsed = elapsed;
        }
    }

    pub fn finish(&mut self, summary: Summary) {
        self.phase = Phase::Done(summary);
    }

    pub fn stop(&mut self) {
        self.phase = Phase::Stopped;
    }

    pub fn is_running(&self) -> bool {
        self.phase == Phase::Running
    }

    pub fn on_key(&mut self, key: KeyEvent) -> Action {
        if key.kind == KeyEventKind::Release {
            return Action::Nothing;
        }
        let quits = matches!(key.code, KeyCode::Char('q') | KeyCode::Esc)
            || (key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL));
        match &self.phase {
            Phase::Running if quits => Action::Stop,
            Phase::Done(_) if quits => Action::Quit,
            Phase::Done(_) if matches!(key.code, KeyCode::Tab | KeyCode::BackTab) => {
                self.tab = match self.tab {
                    Tab::Table => Tab::Chart,
                    Tab::Chart => Tab::Table,
                };
                Action::Redraw
            }
            Phase::Stopped if quits => Action::Quit,
            _ => Action::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::progress::ContenderProgress;

    fn header() -> EvalHeader {
        EvalHeader {
            dataset: "quiz.jsonl".into(),
            items: 3,
            contenders: vec!["a".into(), "b".into()],
            concurrency: 2,
            max_cost: None,
            out: PathBuf::from("out"),
        }
    }

    fn snapshot(done: usize, item: &str) -> Progress {
        Progress {
            contenders: vec![ContenderProgress {
                name: "a".into(),
                done,
                total: 3,
                correct: done,
            }],
            done,
            total: 6,
            correct: done,
            spent_usd: 0.01 * done as f64,
            eta_seconds: Some(1.0),
            last: Some(Finished {
                contender: "a".into(),
                item: item.into(),
                correct: true,
                error: None,
            }),
        }
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn starts_with_every_contender_at_zero() {
        let state = EvalState::new(header());
        assert_eq!(state.progress.total, 6);
        assert_eq!(state.progress.contenders.len(), 2);
        assert_eq!(state.progress.contenders[1].total, 3);
    }

    #[test]
    fn snapshots_replace_the_counts_and_keep_the_newest_items_first() {
        let mut state = EvalState::new(header());
        for done in 1..=RECENT + 2 {
            state.on_progress(snapshot(done, &format!("q{done}")));
        }
        assert_eq!(state.progress.done, RECENT + 2);
        assert_eq!(state.progress.last, None, "kept in the list, not twice");
        assert_eq!(state.recent.len(), RECENT);
        assert_eq!(state.recent[0].item, format!("q{}", RECENT + 2));
        assert_eq!(state.recent[RECENT - 1].item, "q3");
        let mut without = snapshot(9, "q9");
        without.last = None;
        state.on_progress(without);
        assert_eq!(state.recent.len(), RECENT);
        assert_eq!(state.progress.done, 9);
    }

    #[test]
    fn the_clock_stops_at_the_end() {
        let mut state = EvalState::new(header());
        state.tick(Duration::from_secs(5));
        state.finish(crate::tui::eval::test_summary::four_contenders());
        state.tick(Duration::from_secs(9));
        assert_eq!(state.elapsed, Duration::from_secs(5));
    }

    #[test]
    fn q_esc_and_ctrl_c_stop_a_running_eval_and_leave_a_finished_one() {
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        for quit in [key(KeyCode::Char('q')), key(KeyCode::Esc), ctrl_c] {
            let mut state = EvalState::new(header());
            assert_eq!(state.on_key(quit), Action::Stop);
            state.finish(crate::tui::eval::test_summary::four_contenders());
            assert_eq!(state.on_key(quit), Action::Quit);
        }
        let mut state = EvalState::new(header());
        assert_eq!(state.on_key(key(KeyCode::Char('x'))), Action::Nothing);
        assert_eq!(state.on_key(key(KeyCode::Char('c'))), Action::Nothing);
        state.stop();
        assert_eq!(state.on_key(key(KeyCode::Char('q'))), Action::Quit);
    }

    #[test]
    fn tab_switches_table_and_chart_only_at_the_end() {
        let mut state = EvalState::new(header());
        assert_eq!(state.on_key(key(KeyCode::Tab)), Action::Nothing);
        assert_eq!(state.tab, Tab::Table);
        state.finish(crate::tui::eval::test_summary::four_contenders());
        assert_eq!(state.on_key(key(KeyCode::Tab)), Action::Redraw);
        assert_eq!(state.tab, Tab::Chart);
        assert_eq!(state.on_key(key(KeyCode::BackTab)), Action::Redraw);
        assert_eq!(state.tab, Tab::Table);
        let mut release = key(KeyCode::Tab);
        release.kind = KeyEventKind::Release;
        assert_eq!(state.on_key(release), Action::Nothing);
    }
}
