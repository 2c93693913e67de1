//! One agent's coordination state within a turn: its answers, its vote, what it has seen
//! and how far it is through its rounds.

use crate::protocol::{AgentId, AnonId};

use super::checklist_gate::ChecklistState;

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Vote {
    pub(super) target: AgentId,
    pub(super) reason: String,
    /// A `stop` (decomposition mode): the agent is done with its subtask; it counts for
    /// nobody in the tally.
    pub(super) stop: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct AgentState {
    pub(super) anon: AnonId,
    pub(super) answers: Vec<String>,
    pub(super) vote: Option<Vote>,
    /// Answers arrived that this agent has not seen in a round yet.
    pub(super) restart_pending: bool,
    pub(super) killed: bool,
    pub(super) rounds: u32,
    pub(super) in_round: bool,
    /// Times the agent was brought up to date with peers' answers this turn, by a restart
    /// or an injection (MassGen's `injection_count`).
    pub(super) updates: u32,
    /// How many answers of each agent (config order) this agent has seen.
    pub(super) seen: Vec<usize>,
    pub(super) checklist: ChecklistState,
    /// Peers' answers injected into its current round.
    pub(super) injected_this_round: u32,
    /// Where its latest answer comes in the turn's answers (1 = first); 0 = none yet.
    pub(super) answered_at: usize,
}

impl AgentState {
    /// An agent that has not started: it needs a first round.
    pub(super) fn new(anon: AnonId, checklist_gated: bool) -> Self {
        Self {
            anon,
            answers: Vec::new(),
            vote: None,
            restart_pending: true,
            killed: false,
            rounds: 0,
            in_round: false,
            updates: 0,
            seen: Vec::new(),
            checklist: ChecklistState::gated(checklist_gated),
            injected_this_round: 0,
            answered_at: 0,
        }
    }
}
