//! The turns of the session: a turn starting and ending, the record each finished one
//! leaves for the header totals and `/inspect`, turns resumed from an earlier session, and
//! `/clear`.

use std::path::PathBuf;

use jiff::Timestamp;

use super::{Phase, UiState, VoteTally};
use crate::protocol::{AgentId, AgentInfo, Mode, ResumedTurn, TurnOutcome, Usage};

/// A finished turn, for the header totals and `/inspect`.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnRecord {
    pub turn: u32,
    pub question: String,
    pub outcome: TurnOutcome,
    pub winner: Option<AgentId>,
    pub duration_ms: u64,
    pub usage: Usage,
    pub cost_usd: f64,
    pub cost_unknown: bool,
}

impl UiState {
    /// Tokens and cost of the running (or last) turn over every agent.
    pub fn turn_usage(&self) -> (Usage, f64, bool) {
        self.agents.iter().fold(
            (Usage::default(), 0.0, false),
            |(mut usage, cost, unknown), card| {
                usage += card.usage;
                (usage, cost + card.cost_usd, unknown || card.cost_unknown)
            },
        )
    }

    /// Tokens and cost of the whole session: finished turns plus the running one.
    pub fn session_usage(&self) -> (Usage, f64, bool) {
        let running = if self.outcome.is_none() {
            self.turn_usage()
        } else {
            (Usage::default(), 0.0, false)
        };
        self.turns
            .iter()
            .fold(running, |(mut usage, cost, unknown), turn| {
                usage += turn.usage;
                (usage, cost + turn.cost_usd, unknown || turn.cost_unknown)
            })
    }

    pub(super) fn resume(&mut self, session_id: &str, turns: &[ResumedTurn]) {
        self.resumed = Some(session_id.to_string());
        self.turns.extend(turns.iter().map(|past| TurnRecord {
            turn: past.turn,
            question: past.question.clone(),
            outcome: past.outcome,
            winner: past.winner.clone(),
            duration_ms: 0,
            usage: Usage::default(),
            cost_usd: 0.0,
            cost_unknown: false,
        }));
    }

    pub(super) fn start_turn(
        &mut self,
        turn: u32,
        at: Timestamp,
        question: &str,
        mode: Mode,
        agents: &[AgentInfo],
        log_dir: Option<&PathBuf>,
    ) {
        self.log_dir = log_dir.cloned();
        self.cleared = false;
        self.set_roster(agents);
        self.empty_panels();
        self.turn = turn;
        question.clone_into(&mut self.question);
        self.mode = mode;
        self.phase = Phase::Coordinating;
        self.turn_started_at = Some(at);
    }

    pub(super) fn finish_turn(
        &mut self,
        turn: u32,
        outcome: TurnOutcome,
        winner: Option<&AgentId>,
        duration_ms: u64,
    ) {
        let (usage, cost_usd, cost_unknown) = self.turn_usage();
        self.turns.push(TurnRecord {
            turn,
            question: self.question.clone(),
            outcome,
            winner: winner.cloned(),
            duration_ms,
            usage,
            cost_usd,
            cost_unknown,
        });
        self.outcome = Some(outcome);
        self.phase = Phase::Idle;
        self.queued_input.clear();
    }

    /// Back to the welcome view after `/clear`: the panels empty, finished turns kept for
    /// `/inspect` and the session totals.
    pub(super) fn start_afresh(&mut self) {
        self.empty_panels();
        self.turn = 0;
        self.question.clear();
        self.phase = Phase::Idle;
        self.turn_started_at = None;
        self.cleared = true;
    }

    /// Fresh cards for the same agents; no winner, outcome, votes or queued input.
    fn empty_panels(&mut self) {
        for card in &mut self.agents {
            card.reset_for_turn();
        }
        self.winner = None;
        self.outcome = None;
        self.votes = VoteTally::default();
        self.queued_input.clear();
    }
}
