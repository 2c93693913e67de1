//! What events carry besides their kind: the agents as front ends show them, what an agent
//! is doing, why a response was refused, how winners, rounds, checks and turns end.

use serde::{Deserialize, Serialize};

use super::ids::{AgentId, AnonId, AnonymousMapping};

/// An agent as the front ends present it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentInfo {
    pub id: AgentId,
    pub anon_id: AnonId,
    pub backend: String,
    pub model: String,
}

impl AgentInfo {
    /// The roster of `agents` — (id, backend, model) in config order — each with its
    /// anonymous id from the one mapping (real ids in config order → `agentN`).
    pub fn roster(agents: impl IntoIterator<Item = (AgentId, String, String)>) -> Vec<Self> {
        let agents: Vec<(AgentId, String, String)> = agents.into_iter().collect();
        let mapping = AnonymousMapping::new(agents.iter().map(|(id, _, _)| id));
        agents
            .into_iter()
            .filter_map(|(id, backend, model)| {
                Some(Self {
                    anon_id: mapping.anon(&id)?.clone(),
                    id,
                    backend,
                    model,
                })
            })
            .collect()
    }
}

/// Where one of an agent's MCP servers stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum McpServerState {
    Starting,
    /// Connected; its tools (full `mcp__server__tool` names, after filters) are offered.
    Ready {
        tools: Vec<String>,
    },
    /// Could not start or list its tools; the run goes on without it.
    Failed {
        error: String,
    },
    /// Too many calls failed in a row: calls are refused until the pause ends.
    Paused {
        retry_in_secs: u64,
    },
}

/// What an agent is doing right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentStatus {
    Waiting,
    Thinking,
    Streaming,
    Tool,
    Answered,
    Voted,
    Restarting,
    Presenting,
    Done,
    Error,
    Cancelled,
    TimedOut,
}

/// Why a round's response was sent back to the model for another attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnforcementReason {
    /// The response ended without calling `vote` or `new_answer`.
    NoWorkflowTool,
    /// More than one workflow call in one response.
    MultipleWorkflowCalls,
    /// A workflow call with arguments that are not valid JSON or miss a field.
    InvalidArguments,
    /// A vote for an agent that does not exist or has no answer.
    InvalidVote,
    /// `new_answer` after the agent used up `max_new_answers_per_agent`.
    AnswerLimit,
    /// `new_answer` too similar to an existing answer.
    AnswerNotNovel,
    /// `new_answer` identical to an existing answer.
    AnswerDuplicate,
    /// `new_answer` that would put the agent more than `fairness_lead_cap_answers` ahead.
    FairnessLeadCap,
    /// The tool-call budget of one attempt ran out.
    ToolLoop,
    /// A `vote` under checklist-gated voting without a passing `submit_checklist` this
    /// round.
    ChecklistGate,
}

/// Where decomposition mode's subtasks came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubtaskSource {
    /// `agents[i].subtask` in the config.
    Config,
    /// The decomposer call wrote them.
    Decomposer,
    /// The decomposer's reply could not be read (or the call failed): MassGen's generic
    /// subtasks.
    Fallback,
}

impl SubtaskSource {
    pub fn name(self) -> &'static str {
        match self {
            Self::Config => "config",
            Self::Decomposer => "decomposer",
            Self::Fallback => "fallback",
        }
    }
}

/// How a winner was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinnerBasis {
    /// Strictly the most votes.
    Votes,
    /// Several agents shared the most votes; the first in config order won.
    TieBrokenByConfigOrder,
    /// Nobody voted; the first agent with an answer won.
    FirstAnswer,
    /// Decomposition mode: the configured presenter integrates every agent's work.
    Presenter,
    /// Council: the chairman synthesizes from every answer and the aggregate ranking
    /// (`ChairmanChosen` says why this one chairs).
    Chairman,
}

/// How the final answer is made from the winner (`orchestrator.final_answer_strategy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalAnswerStrategy {
    /// The winner's latest answer is the final answer; no presentation call.
    WinnerReuse,
    /// The winner presents a final answer built on its own.
    #[default]
    WinnerPresent,
    /// The presenter merges the strongest parts of every agent's answer.
    Synthesize,
}

impl FinalAnswerStrategy {
    pub const ALL: [Self; 3] = [Self::WinnerReuse, Self::WinnerPresent, Self::Synthesize];

    /// The name config files use.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::WinnerReuse => "winner_reuse",
            Self::WinnerPresent => "winner_present",
            Self::Synthesize => "synthesize",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|strategy| strategy.as_str() == name)
    }
}

/// One candidate's votes in a tally: the final one, or the one standing after a vote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoteCount {
    pub agent: AgentId,
    pub anon_id: AnonId,
    pub votes: u32,
    /// Who cast the `votes` that counted, in config order. Empty in logs written before
    /// massgen recorded it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub voters: Vec<AgentId>,
}

impl VoteCount {
    /// Takes back the votes of the `voters` that coordination said no longer count (a
    /// newer answer reset them, or the voter was dropped).
    pub fn withdraw(&mut self, voters: &[AgentId]) {
        let before = self.voters.len();
        self.voters.retain(|voter| !voters.contains(voter));
        let withdrawn = u32::try_from(before - self.voters.len()).unwrap_or(u32::MAX);
        self.votes = self.votes.saturating_sub(withdrawn);
    }
}

/// Which clock ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutScope {
    /// `timeout_settings.orchestrator_timeout_seconds` over the whole coordination.
    Orchestrator,
    /// The winner's final presentation took too long.
    Presentation,
}

/// A round's time limit: the wrap-up notice after `soft_ms`, tools refused `grace_ms` later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundTimeLimit {
    pub soft_ms: u64,
    pub grace_ms: u64,
}

/// How far past its time limit a round is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundTimeStage {
    /// The soft limit passed: the agent was told to submit `new_answer` or `vote`.
    WrapUp,
    /// The grace period passed too: every other tool is refused.
    Blocked,
}

/// Why an agent's conversation was compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompressionReason {
    /// It filled its model's context window past the threshold (MassGen's 75 %).
    Threshold,
    /// The provider refused it as longer than the model's context window.
    ProviderError,
}

impl CompressionReason {
    /// "past 75 % of the window", "refused as too long".
    pub fn describe(self) -> &'static str {
        match self {
            Self::Threshold => "past 75% of the window",
            Self::ProviderError => "the provider refused it as too long",
        }
    }
}

/// One line for a compression, as every display shows it: "context compressed (past 75%
/// of the window): 9.8k → 2.1k tokens of 8.2k", and ", model-summarized" when the
/// model's summary replaced the older messages.
pub fn compression_line(
    reason: CompressionReason,
    before: u64,
    after: u64,
    window: u64,
    summarized: bool,
) -> String {
    let short = |count: u64| {
        #[allow(clippy::cast_precision_loss)]
        let value = count as f64;
        match count {
            0..1_000 => count.to_string(),
            1_000..1_000_000 => format!("{:.1}k", value / 1e3),
            _ => format!("{:.1}M", value / 1e6),
        }
    };
    format!(
        "context compressed ({}): {} → {} tokens of {}{}",
        reason.describe(),
        short(before),
        short(after),
        short(window),
        if summarized { ", model-summarized" } else { "" }
    )
}

/// How the winner's check of its final answer ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PostEvaluationOutcome {
    /// `submit`: the answer goes to the user.
    Submitted,
    /// `restart_orchestration`: another attempt follows.
    RestartRequested {
        reason: String,
        instructions: String,
    },
    /// The check could not be made; the answer goes to the user as it is.
    Failed { message: String },
}

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnOutcome {
    /// Agents converged and the winner presented.
    Completed,
    /// The orchestrator timeout fired; the best existing answer, if any, was presented.
    TimedOut,
    /// The user cancelled.
    Cancelled,
    /// No agent produced an answer.
    Failed,
}

/// A fairness hold as every display words it: "held: waiting for peers (lead 2/2)".
pub fn fairness_hold_line(lead: u32, cap: u32) -> String {
    format!("held: waiting for peers (lead {lead}/{cap})")
}

/// A fairness hold lifted, as every display words it.
pub const FAIRNESS_RELEASED_LINE: &str = "released: peers caught up or voted";
