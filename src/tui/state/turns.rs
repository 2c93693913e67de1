//! The turns of the session: a turn starting and ending, the session's totals, turns
//! resumed from an earlier session, and `/clear`.

use std::path::PathBuf;

use jiff::Timestamp;

use super::{Phase, UiState, VoteTally};
use crate::protocol::{AgentId, AgentInfo, Event, Mode, ResumedTurn, Spend, TurnOutcome};
use crate::session::VoteLedger;

impl UiState {
    /// Tokens and cost of the running (or last) turn over every agent.
    pub fn turn_usage(&self) -> Spend {
        let mut total = Spend::default();
        for card in &self.agents {
            total += card.spend;
        }
        total
    }

    /// Tokens and cost of the whole session: finished turns plus the running one.
    pub fn session_usage(&self) -> Spend {
        let mut total = if self.outcome.is_none() {
            self.turn_usage()
        } else {
            Spend::default()
        };
        for turn in &self.turns {
            total += turn.spend;
        }
        total
    }

    /// Turns of an earlier session, each folded from its recorded events on a scratch
    /// state, so it looks in the timeline, `/inspect` and `/cost` as it did live. The
    /// cards stay as they are. A turn without its log keeps what the session recorded.
    pub(super) fn resume(&mut self, session_id: &str, turns: &[ResumedTurn]) {
        self.resumed = Some(session_id.to_string());
        let roster: Vec<AgentInfo> = self.agents.iter().map(|card| card.info.clone()).collect();
        for past in turns {
            let mut replay = UiState::new(roster.clone());
            for event in &past.events {
                replay.apply(event);
            }
            let mut record = replay.turns.pop().unwrap_or_else(|| {
                replay.record(
                    past.turn,
                    past.outcome,
                    past.winner.as_ref(),
                    span_ms(&past.events),
                )
            });
            record.turn = past.turn;
            record.question.clone_from(&past.question);
            self.timeline.append(&mut replay.timeline);
            self.planning_in_timeline |= replay.planning_in_timeline;
            self.tool_log.append(&mut replay.tool_log);
            self.turns.push(record);
        }
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
        if mode == Mode::Planning {
            // A new plan is being made; the last one stays listed.
            self.plan = None;
        }
        self.phase = Phase::Coordinating;
        self.turn_started_at = Some(at);
        self.attempt = None;
    }

    pub(super) fn finish_turn(
        &mut self,
        turn: u32,
        outcome: TurnOutcome,
        winner: Option<&AgentId>,
        duration_ms: u64,
    ) {
        let record = self.record(turn, outcome, winner, duration_ms);
        self.turns.push(record);
        self.outcome = Some(outcome);
        self.phase = Phase::Idle;
        self.queued_input.clear();
        // Nobody waits for an answer once the turn is over.
        self.questions.clear();
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
        self.vote_ledger = VoteLedger::default();
        self.queued_input.clear();
    }
}

/// Milliseconds from the first to the last of `events`: how long a turn without its
/// ending ran.
fn span_ms(events: &[Event]) -> u64 {
    let (Some(first), Some(last)) = (events.first(), events.last()) else {
        return 0;
    };
    let span = last.at.duration_since(first.at);
    u64::try_from(span.as_millis()).unwrap_or(0)
}
