//! What one agent round is given: its link to the world, its messages and tools, the
//! answers version it watches, its workspace and its clock; and the round's limits.

use std::sync::Arc;

use tokio::sync::watch;

use super::agent_link::AgentLink;
use super::context_budget::ContextTracker;
use super::round_clock::RoundClock;
use super::task_tools::TaskPlanTools;
use crate::backend::{Message, ToolSpec};
use crate::workspace::Workspaces;

/// Attempts per round before the agent is dropped for the turn (MassGen: 3).
pub const MAX_ATTEMPTS: u32 = 3;

/// Tool round-trips allowed within one attempt before it counts as a failed attempt.
pub const MAX_TOOL_ROUNDS: u32 = 25;

/// How a debate round reads a reply in text that calls no tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DebateReply {
    /// A critique of every peer shown (their anonymous ids).
    Critique { peers: Vec<String> },
    /// The revised answer.
    Revision,
}

pub struct RoundTask {
    pub link: AgentLink,
    /// Lent to each model call, not copied; changed between calls, when the call is over
    /// and the round holds them alone (`Arc::make_mut` then copies nothing).
    pub messages: Arc<Vec<Message>>,
    pub tools: Vec<ToolSpec>,
    pub vote_only: bool,
    /// A council ranking round over these labels: a reply in text with no tool call is
    /// read for a "FINAL RANKING:" list before it counts as a miss.
    pub ranking: Option<Vec<String>>,
    /// A debate round: how a reply in text with no tool call counts.
    pub debate: Option<DebateReply>,
    /// The agent restarted: its task plan starts afresh before the first model call.
    pub reset_plan: Option<Arc<TaskPlanTools>>,
    /// Bumped by the driver on every accepted answer.
    pub answers_version: watch::Receiver<u64>,
    /// The run's workspaces and this agent's place in them: peers' snapshots are copied
    /// in before the first model call, and again when their answers are injected.
    pub workspace: Option<(Arc<Workspaces>, usize)>,
    /// Filesystem memory mode: the memory section is added to the system prompt once the
    /// peers' work is copied in.
    pub memory: bool,
    pub round: u32,
    pub clock: RoundClock,
    /// The agent's context window: compressed past the threshold or after a
    /// context-length error.
    pub context: ContextTracker,
}
