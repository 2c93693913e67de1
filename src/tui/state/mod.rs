//! What the TUI knows, folded from the orchestrator's events: `UiState::apply` is the only
//! way news changes it, so every screen is a pure function of this state.

mod agent;
mod approvals;
mod attempts;
#[cfg(test)]
mod checklist_tests;
mod code;
mod coordination;
mod final_answer;
mod fold;
mod input;
#[cfg(test)]
mod input_tests;
mod items;
mod metrics;
mod plan;
#[cfg(test)]
mod plan_tests;
mod record;
mod replay;
#[cfg(test)]
mod resume_tests;
mod strategy;
#[cfg(test)]
mod strategy_tests;
#[cfg(test)]
mod tests;
mod timeline;
mod timeline_entries;
mod tools;
mod turn_flow;
mod turns;
mod votes;

pub use agent::{AgentCard, CardPersona, OutputMark};
pub use approvals::{Approvals, DecidedApproval, PendingApproval};
pub use attempts::{RoundClock, RoundTimeLeft};
pub use code::{CodeLines, CodeSpan, highlight_tables_loaded};
pub use final_answer::PresentedAnswer;
pub use input::{InputQueue, QueuedInput};
pub use items::{
    CardItem, TextBlock, ToolCard, ToolState, display_tool_name, growing_text, provider_tool_name,
};
pub use metrics::{AgentMetrics, Metrics, ToolMetrics};
pub use plan::{PendingQuestion, Planning, SavedPlan, TaskTree, TreeRow, asked};
pub use record::{AgentTurn, CastVote, FinalAnswer, ResumedSession, TurnRecord, VoteGroup};
pub use replay::ReplayState;
pub use strategy::{Aggregate, Ballot, Critique, DebateRound, StrategyEntry, StrategyState};
pub use timeline::{Delivery, EntryKind, TimelineEntry, preview};
pub use timeline_entries::Timeline;
pub use tools::{AgentTools, ListedSkills, ServerRow, WorkspaceDirs, refusal};
pub use turns::{Phase, TurnState};
pub use votes::{Bar, Leader, VoteTally};

use crate::protocol::{AgentId, AgentInfo, Event, Spend};
use crate::session::VoteLedger;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiState {
    pub version: String,
    pub agents: Vec<AgentCard>,
    /// The running (or last) turn.
    pub turn: TurnState,
    pub timeline: Timeline,
    pub votes: VoteTally,
    /// Every vote of the running (or last) turn and what became of it, for its record.
    pub vote_ledger: VoteLedger,
    /// Human input typed during the turn and not yet delivered to every agent.
    pub queued_input: InputQueue,
    /// The finished turns of the session.
    pub turns: Vec<TurnRecord>,
    /// The earlier session this run goes on with.
    pub resumed: Option<ResumedSession>,
    /// What the run warned about before it started (config, `.env`, logging), escaped:
    /// the welcome view shows the first, `/status` all.
    pub startup_warnings: Vec<String>,
    pub tools: AgentTools,
    /// These events are a recording played back (`massgen replay`), not a live run.
    pub replay: Option<ReplayState>,
    pub planning: Planning,
    /// The session's model and tool call metrics (`/metrics`).
    pub metrics: Metrics,
    /// What a council or debate turn reported: stages, rankings, the debate thread.
    pub strategy: StrategyState,
    /// Tool calls waiting for the user's approval, and the session's decisions.
    pub approvals: Approvals,
}

impl UiState {
    /// The state before any event: the configured agents, waiting.
    pub fn new(agents: Vec<AgentInfo>) -> Self {
        Self {
            agents: agents.into_iter().map(AgentCard::new).collect(),
            ..Self::default()
        }
    }

    pub fn is_running(&self) -> bool {
        self.turn.is_running()
    }

    pub fn agent(&self, id: &AgentId) -> Option<&AgentCard> {
        self.agents.iter().find(|card| &card.info.id == id)
    }

    /// The agent's place in config order (its colour).
    pub fn agent_index(&self, id: &AgentId) -> Option<usize> {
        self.agents.iter().position(|card| &card.info.id == id)
    }

    fn agent_mut(&mut self, id: Option<&AgentId>) -> Option<&mut AgentCard> {
        let id = id?;
        self.agents.iter_mut().find(|card| &card.info.id == id)
    }

    /// Folds one event in. Queued human input is dropped once every agent still working
    /// has it (after a delivery, or when an agent stops).
    pub fn apply(&mut self, event: &Event) {
        if let Some(replay) = self.replay.as_mut() {
            // A replay's clock is the time of the newest event it played.
            replay.clock = event.at;
        }
        self.metrics.apply(event);
        self.fold(event);
        if !self.queued_input.is_empty() {
            self.queued_input.settle(&self.agents);
        }
    }

    /// The final answer of this turn: the winner's presentation, else the newest one any
    /// card holds (it is being presented).
    pub fn final_answer(&self) -> Option<PresentedAnswer<'_>> {
        PresentedAnswer::of(&self.agents)
    }

    /// Tokens and cost of the running (or last) turn over every agent.
    pub fn turn_usage(&self) -> Spend {
        record::cards_spend(&self.agents)
    }

    /// Tokens and cost of the whole session: finished turns plus the running one.
    pub fn session_usage(&self) -> Spend {
        let mut total = if self.turn.outcome.is_none() {
            self.turn_usage()
        } else {
            Spend::default()
        };
        for turn in &self.turns {
            total += turn.spend;
        }
        total
    }

    /// Tokens and cost per agent over the whole session (finished turns plus the running
    /// one), agents in the order they first appear.
    pub fn session_usage_by_agent(&self) -> Vec<(AgentId, Spend)> {
        let running = if self.turn.outcome.is_none() {
            &self.agents[..]
        } else {
            &[]
        };
        record::usage_by_agent(&self.turns, running)
    }
}
