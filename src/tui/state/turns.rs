//! The running (or last) turn as the header and status bar show it: its number, question
//! and mode, where it is, its attempt, winner and outcome, and where its log goes.

use std::path::PathBuf;

use jiff::Timestamp;

use crate::protocol::{AgentId, Mode, TurnOptions, TurnOutcome};

/// Where the turn is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// No turn running: the welcome view, or a finished turn awaiting the next question.
    #[default]
    Idle,
    /// Agents are answering.
    Coordinating,
    /// At least one vote stands for the current answers.
    Voting,
    /// The winner is presenting the final answer.
    Presenting,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnState {
    /// 0 before the first turn and after `/clear`.
    pub number: u32,
    pub question: String,
    pub mode: Mode,
    /// How the turn was asked to run.
    pub options: TurnOptions,
    pub phase: Phase,
    pub started_at: Option<Timestamp>,
    pub winner: Option<AgentId>,
    pub outcome: Option<TurnOutcome>,
    /// The attempt and how many it may have, once the winner checked its answer or sent
    /// it back (`coordination.max_orchestration_restarts`).
    pub attempt: Option<(u32, u32)>,
    /// The turn's log directory.
    pub log_dir: Option<PathBuf>,
    /// `/clear` emptied the panels (the welcome view says so).
    pub cleared: bool,
    /// Checklist-gated voting: the criteria the checklists score, and their source.
    pub criteria: Option<String>,
}

impl TurnState {
    pub fn is_running(&self) -> bool {
        self.phase != Phase::Idle
    }

    /// A new turn begins: nothing of the last one stays.
    pub(super) fn start(
        &mut self,
        number: u32,
        at: Timestamp,
        question: &str,
        mode: Mode,
        options: &TurnOptions,
        log_dir: Option<&PathBuf>,
    ) {
        *self = Self {
            number,
            question: question.to_string(),
            mode,
            options: options.clone(),
            phase: Phase::Coordinating,
            started_at: Some(at),
            winner: None,
            outcome: None,
            attempt: None,
            log_dir: log_dir.cloned(),
            criteria: None,
            cleared: false,
        };
    }

    pub(super) fn finish(&mut self, outcome: TurnOutcome) {
        self.outcome = Some(outcome);
        self.phase = Phase::Idle;
    }

    /// Back to the welcome view after `/clear`.
    pub(super) fn start_afresh(&mut self) {
        self.number = 0;
        self.question.clear();
        self.phase = Phase::Idle;
        self.started_at = None;
        self.winner = None;
        self.outcome = None;
        self.cleared = true;
    }

    /// Moves to `phase`, unless no turn runs: a stray event after the turn ended must not
    /// make the app think one runs.
    pub(super) fn move_to(&mut self, phase: Phase) {
        if self.is_running() {
            self.phase = phase;
        }
    }

    /// A new attempt: no winner; its log goes to `log_dir` when it names one.
    pub(super) fn restart(&mut self, attempt: u32, max_attempts: u32, log_dir: Option<&PathBuf>) {
        if log_dir.is_some() {
            self.log_dir = log_dir.cloned();
        }
        self.attempt = Some((attempt, max_attempts));
        self.winner = None;
        self.move_to(Phase::Coordinating);
    }
}
