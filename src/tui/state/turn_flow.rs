//! How the session's turns go across the state's parts: the roster, a turn starting and
//! ending (its record kept for `/inspect` and `/cost`), `/clear`, and the turns of an
//! earlier session resumed.

use std::path::PathBuf;

use super::{AgentCard, ResumedSession, TurnRecord, UiState, VoteTally};
use crate::protocol::{AgentId, AgentInfo, Event, Mode, ResumedTurn, TurnOptions, TurnOutcome};
use crate::session::VoteLedger;

impl UiState {
    pub(super) fn run_started(&mut self, version: &str, agents: &[AgentInfo]) {
        version.clone_into(&mut self.version);
        self.set_roster(agents);
    }

    /// New cards when the roster is not the one shown.
    pub(super) fn set_roster(&mut self, agents: &[AgentInfo]) {
        let same = agents.len() == self.agents.len()
            && agents
                .iter()
                .zip(&self.agents)
                .all(|(info, card)| info == &card.info);
        if !same {
            self.agents = agents.iter().cloned().map(AgentCard::new).collect();
        }
    }

    pub(super) fn start_turn(
        &mut self,
        event: &Event,
        question: &str,
        mode: Mode,
        agents: &[AgentInfo],
        log_dir: Option<&PathBuf>,
        options: &TurnOptions,
    ) {
        self.set_roster(agents);
        self.empty_panels();
        self.strategy = super::StrategyState::default();
        self.turn
            .start(event.turn, event.at, question, mode, options, log_dir);
        if mode == Mode::Planning {
            // A new plan is being made; the last one stays listed.
            self.planning.plan = None;
        }
    }

    pub(super) fn finish_turn(
        &mut self,
        event: &Event,
        outcome: TurnOutcome,
        winner: Option<&AgentId>,
        duration_ms: u64,
    ) {
        self.queued_input
            .turn_ended(self.turn.number, event, &mut self.timeline);
        let record = self.record(event.turn, outcome, winner, duration_ms);
        self.turns.push(record);
        self.turn.finish(outcome);
        // Nobody waits for an answer once the turn is over.
        self.planning.questions.clear();
        self.approvals.turn_ended();
    }

    /// Back to the welcome view after `/clear`: the panels empty, finished turns kept for
    /// `/inspect` and the session totals.
    pub(super) fn start_afresh(&mut self) {
        self.empty_panels();
        self.turn.start_afresh();
    }

    /// Fresh cards for the same agents; no votes or queued input.
    fn empty_panels(&mut self) {
        for card in &mut self.agents {
            card.reset_for_turn();
        }
        self.votes = VoteTally::default();
        self.vote_ledger = VoteLedger::default();
        self.queued_input.clear();
    }

    /// The record the running (or last) turn leaves, ended as given.
    fn record(
        &self,
        turn: u32,
        outcome: TurnOutcome,
        winner: Option<&AgentId>,
        duration_ms: u64,
    ) -> TurnRecord {
        TurnRecord::ended(
            turn,
            &self.turn.question,
            outcome,
            winner,
            duration_ms,
            &self.agents,
            &self.vote_ledger,
        )
    }

    /// Turns of an earlier session, each folded from its recorded events on a scratch
    /// state, so it looks in the timeline, `/inspect` and `/cost` as it did live. The
    /// cards stay as they are. A turn without its log keeps what the session recorded.
    pub(super) fn resume(
        &mut self,
        session_id: &str,
        turns: &[ResumedTurn],
        history_from: Option<u32>,
        notice: Option<&str>,
    ) {
        self.resumed = Some(ResumedSession {
            id: session_id.to_string(),
            history_from,
            notice: notice.map(str::to_string),
        });
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
            self.turns.push(record);
        }
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
