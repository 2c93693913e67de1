//! Everything the orchestrator reports, in the order it happened.

use std::path::PathBuf;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::approach::DraftedApproach;
use super::approval::ApprovalEvent;
use super::attachment::Attachment;
use super::checklist::ChecklistResult;
use super::criteria::{CriteriaSource, EvalCriterion};
pub use super::event_parts::{
    AgentInfo, AgentStatus, CompressionReason, EnforcementReason, FAIRNESS_RELEASED_LINE,
    FinalAnswerStrategy, McpServerState, PostEvaluationOutcome, RoundTimeLimit, RoundTimeStage,
    SubtaskSource, TimeoutScope, TurnOutcome, VoteCount, WinnerBasis, compression_line,
    fairness_hold_line,
};
use super::ids::{AgentId, AnonId, AnswerLabel};
use super::op::Mode;
use super::plan::{BroadcastTarget, PlanInfo, Question, TaskView, TurnOptions};
use super::provider_tool::ProviderToolCall;
use super::skill::SkillInfo;
use super::strategy::StrategyEvent;
use super::usage::{CallTiming, Usage};

/// One thing that happened. `seq` is gap-free and increasing within a run; `turn` is 0
/// for events outside any turn; `agent` names the agent the event is about, if any.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub seq: u64,
    pub at: Timestamp,
    pub turn: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentId>,
    pub msg: EventMsg,
}

/// A turn of an earlier session, as front ends list it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResumedTurn {
    pub turn: u32,
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<AgentId>,
    pub outcome: TurnOutcome,
    /// The turn's recorded events without streamed text, so front ends can show it as
    /// they showed it live; empty when its log is gone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Event>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventMsg {
    /// The runtime is ready; agents in config order.
    RunStarted {
        version: String,
        agents: Vec<AgentInfo>,
    },
    /// The runtime stopped.
    RunFinished,
    /// The next turns run with these agents, in config order (`Op::ReplaceAgents`).
    AgentsReplaced { agents: Vec<AgentInfo> },
    /// The conversation history was forgotten (`/clear`); the next turn starts afresh.
    HistoryCleared,
    /// The run goes on with an earlier session (`--continue`); these are its turns.
    SessionResumed {
        session_id: String,
        turns: Vec<ResumedTurn>,
        /// The first turn the history holds when the session was cleared (`/clear`) after
        /// its first turn; the turns before it are shown but forgotten.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        history_from: Option<u32>,
        /// Why this session and not another: `--continue` found no earlier session run
        /// with this config and took the newest one (also sent as a `Warning`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notice: Option<String>,
    },
    /// A question was submitted. Carries the roster so a turn log stands on its own.
    TurnStarted {
        question: String,
        mode: Mode,
        agents: Vec<AgentInfo>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[serde(serialize_with = "super::lossy_path::option::serialize")]
        log_dir: Option<PathBuf>,
        /// Depth, broadcast, plan, single agent and refinement the turn runs with.
        #[serde(default)]
        options: TurnOptions,
    },
    /// The turn is over.
    TurnFinished {
        outcome: TurnOutcome,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winner: Option<AgentId>,
        duration_ms: u64,
    },
    /// The agent's activity changed.
    AgentStatus { status: AgentStatus },
    /// The agent began a round, seeing these answers.
    RoundStarted {
        round: u32,
        answers_seen: Vec<AnswerLabel>,
        vote_only: bool,
        /// The round's time limit (`timeout_settings.*_round_timeout_seconds`), if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_limit: Option<RoundTimeLimit>,
    },
    /// Peers' new answers were appended to the agent's latest tool result; it keeps working
    /// instead of restarting (MassGen's mid-stream injection).
    UpdateInjected { labels: Vec<AnswerLabel> },
    /// The fairness lead cap (`fairness_lead_cap_answers`) holds the agent back: it is
    /// `lead` answers ahead of the slowest active peer, as far as `cap` lets it, and starts
    /// no round until its peers catch up (or vote, or are dropped).
    FairnessHold { lead: u32, cap: u32 },
    /// The agent's fairness hold is lifted: its peers caught up, voted or were dropped.
    FairnessReleased,
    /// The agent's round ran past its time limit: first it is told to wrap up, then every
    /// tool but `vote` and `new_answer` is refused.
    RoundTimeLimitReached {
        stage: RoundTimeStage,
        elapsed_secs: u64,
    },
    /// How full the agent's context window is: the prompt tokens of its latest model call
    /// (the provider's count, else an estimate) against its model's window.
    ContextUsage { tokens: u64, window: u64 },
    /// Decomposition mode: each agent's subtask (config order; agents without one are not
    /// listed), before the first round.
    SubtasksAssigned {
        subtasks: Vec<(AgentId, String)>,
        source: SubtaskSource,
    },
    /// Decomposition mode: the agent called `stop`, done with its subtask (`status`:
    /// `complete` or `blocked`) until a peer's new answer wakes it.
    AgentStopped { summary: String, status: String },
    /// The agent's conversation was compressed to fit its model's context window: older
    /// turns and tool results were replaced by a record of them (`coordination.
    /// compression_target_ratio`); tokens are estimates of the whole prompt.
    ContextCompressed {
        reason: CompressionReason,
        tokens_before: u64,
        tokens_after: u64,
        window: u64,
        /// Messages replaced by the record.
        messages_removed: u32,
        /// The record is the model's own summary of them, not their transcript.
        #[serde(default)]
        summarized: bool,
    },
    /// The winner checks its final answer before it goes to the user
    /// (`coordination.max_orchestration_restarts`).
    PostEvaluationStarted { attempt: u32, max_attempts: u32 },
    /// The winner's check ended.
    PostEvaluationFinished { outcome: PostEvaluationOutcome },
    /// The winner sent the turn back: coordination starts again from nothing, with its
    /// feedback. `attempt` is the attempt now starting.
    OrchestrationRestarted {
        attempt: u32,
        max_attempts: u32,
        reason: String,
        instructions: String,
        /// The new attempt's log directory (`…/turn_N/attempt_M`), when logging is on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[serde(serialize_with = "super::lossy_path::option::serialize")]
        log_dir: Option<PathBuf>,
    },
    /// Streamed answer text.
    TextDelta { text: String },
    /// Streamed reasoning or thinking text.
    ReasoningDelta { text: String },
    /// A (non-workflow) tool call started.
    ToolCallBegin {
        call_id: String,
        tool: String,
        arguments: String,
        /// A custom tool's `category` from its config, shown where an MCP tool shows its
        /// server; `None` for other tools and the `default` category.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<String>,
    },
    /// Checklist-gated voting: the agent's `submit_checklist` was accepted, with these
    /// scores and this verdict.
    ChecklistSubmitted { result: ChecklistResult },
    /// Checklist-gated voting: after a `new_answer` verdict the agent's `draft_approach`
    /// was accepted — its plan for the next answer.
    ApproachDrafted { approach: DraftedApproach },
    /// Checklist-gated voting: the criteria this turn's checklists score, and their source.
    /// Sent once per turn, before the first round.
    CriteriaSet {
        source: CriteriaSource,
        criteria: Vec<EvalCriterion>,
    },
    /// `use_skills` is on: the skills agents are told about, found in `searched` (the
    /// directories looked in, as shown). Sent once at run start; never when skills are off.
    SkillsListed {
        skills: Vec<SkillInfo>,
        searched: Vec<String>,
    },
    /// The files attached to the agent's question this turn (the question's `@` images and
    /// PDFs, then its `upload_files`): names, kinds and sizes, never their bytes. Sent once
    /// per agent per turn, before its first round; never when it has none.
    AttachmentsSent { attachments: Vec<Attachment> },
    /// One of the agent's MCP servers changed state (starting, ready, failed, paused).
    McpServerStatus {
        server: String,
        state: McpServerState,
    },
    /// A tool call was refused because it reached outside what the agent may touch.
    ToolRefused {
        tool: String,
        path: String,
        reason: String,
    },
    /// The agent was given a workspace for the run: where it works, where its peers'
    /// snapshots are copied for it, and where its own latest snapshot is kept.
    WorkspaceAssigned {
        #[serde(serialize_with = "super::lossy_path::serialize")]
        workspace: PathBuf,
        #[serde(serialize_with = "super::lossy_path::serialize")]
        temp: PathBuf,
        #[serde(serialize_with = "super::lossy_path::serialize")]
        snapshot: PathBuf,
    },
    /// The agent's workspace was saved after an answer.
    WorkspaceSnapshot {
        files: u64,
        bytes: u64,
        /// Entries left out, with why (`node_modules/`, `big.bin (over 100 MB)`).
        skipped: Vec<String>,
    },
    /// The provider ran one of its own tools (web search, code execution) while
    /// answering; massgen did not run it and sends no result back.
    ProviderTool(ProviderToolCall),
    /// Council and debate turns only (`orchestrator.strategy`).
    Strategy(StrategyEvent),
    /// A tool call checked against the agent's `permissions:` (asked, allowed, denied).
    Approval(ApprovalEvent),
    /// A tool call finished.
    ToolCallEnd {
        call_id: String,
        tool: String,
        ok: bool,
        output: String,
        duration_ms: u64,
        /// As in `ToolCallBegin`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<String>,
    },
    /// An answer was accepted.
    AnswerSubmitted {
        label: AnswerLabel,
        anon_id: AnonId,
        content: String,
        /// The agents whose votes this answer reset: from then on they do not count. `None`
        /// in logs written before massgen recorded it, where an answer reset every vote.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        votes_reset: Option<Vec<AgentId>>,
    },
    /// A vote was accepted.
    VoteCast {
        target: AgentId,
        target_anon: AnonId,
        target_label: AnswerLabel,
        reason: String,
        /// The votes that stand once this one counts, every candidate with an answer in
        /// config order, as coordination counts them. `None` in logs written before
        /// massgen recorded it, where front ends count the votes themselves.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        standing: Option<Vec<VoteCount>>,
    },
    /// A vote arrived after newer answers the voter had not seen, so it does not count.
    VoteIgnored {
        target: AgentId,
        reason: String,
        why: String,
    },
    /// The agent starts over because new answers arrived.
    AgentRestarted { round: u32, reason: String },
    /// The response was rejected and the model gets another attempt.
    EnforcementRetry {
        attempt: u32,
        max_attempts: u32,
        reason: EnforcementReason,
        detail: String,
    },
    /// A model call failed in a way that may pass (rate limit, server error, cut stream);
    /// it is tried again after `delay_ms`. Text streamed by the failed attempt is void.
    Retrying {
        attempt: u32,
        max_retries: u32,
        delay_ms: u64,
        reason: String,
    },
    /// A model or stream failed.
    AgentError { message: String },
    /// The agent takes no further part in this turn.
    AgentKilled { reason: String },
    /// Tokens used by one model call, reported when the call ends (also when its stream
    /// was cut); `cost_usd` is `None` when the model's price is unknown.
    Usage {
        usage: Usage,
        #[serde(default)]
        cost_usd: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timing: Option<CallTiming>,
    },
    /// What one agent round (or the final presentation) used over all its model calls;
    /// `cost_usd` is `None` when a model's price is unknown.
    RoundUsage {
        usage: Usage,
        cost_usd: Option<f64>,
        calls: u32,
    },
    /// Coordination ended and a winner was chosen.
    WinnerSelected {
        winner: AgentId,
        winner_anon: AnonId,
        tally: Vec<VoteCount>,
        is_tie: bool,
        basis: WinnerBasis,
    },
    /// The winner starts presenting the final answer; `strategy` says how it is made
    /// (logs written before massgen recorded it were all `winner_present`).
    FinalPresentationStarted {
        label: AnswerLabel,
        #[serde(default)]
        strategy: FinalAnswerStrategy,
    },
    /// Streamed final-answer text.
    FinalPresentationDelta { text: String },
    /// The final answer is complete. `fallback` means it is the winner's stored answer
    /// because the presentation call could not be made or failed.
    FinalPresentationDone {
        label: AnswerLabel,
        content: String,
        fallback: bool,
    },
    /// The user chose the answer `label` by `agent` as the final answer (`Op::OverrideFinal`):
    /// during the presentation it replaces what was being presented; after the turn it
    /// replaces the turn's final answer in the history the next turn sees.
    FinalOverridden {
        label: AnswerLabel,
        agent: AgentId,
        content: String,
    },
    /// A time limit was reached.
    Timeout { scope: TimeoutScope, seconds: u64 },
    /// The turn's cost budget (`--max-cost`, `orchestrator.max_cost_usd`) was reached: no
    /// new model call starts, and the best answer so far is presented as it is.
    BudgetReached { budget_usd: f64, spent_usd: f64 },
    /// The turn was cancelled by the user.
    Cancelled,
    /// The user asked for the answer now (`Op::AnswerNow`): coordination ended, the rounds
    /// of `stopped` were cut short, and the vote leader presents the best answer so far.
    AnswerNow { stopped: Vec<AgentId> },
    /// Config planning mode (`enable_planning_mode`): the agent asked whether the request
    /// involves irreversible MCP operations answered. While `irreversible`, the listed
    /// tools (every MCP tool when the list is empty) are blocked until the presentation.
    PlanningModeDecided {
        irreversible: bool,
        blocked_tools: Vec<String>,
    },
    /// `persona_generator`: the persona the agent works under this turn. `text` goes into
    /// its system message until it has seen a peer's answer (then as `after_first_answer`
    /// says); `summary` is the generator's short name for it; `reused`: kept from an
    /// earlier turn of the session (`persist_across_turns`).
    PersonaAssigned {
        text: String,
        summary: Option<String>,
        reused: bool,
    },
    /// A tool call was not run: planning mode blocks it during coordination.
    ToolBlocked {
        call_id: String,
        tool: String,
        arguments: String,
        message: String,
    },
    /// The agent's task plan changed (its `mcp__planning_…` tools); the whole list.
    TaskPlanChanged { tasks: Vec<TaskView> },
    /// The agent asked a question with `ask_others`.
    BroadcastAsked {
        request_id: String,
        target: BroadcastTarget,
        questions: Vec<Question>,
        /// The agent waits for the replies (else it goes on and checks later).
        wait: bool,
        timeout_secs: u64,
    },
    /// A reply to a question; `from` is the agent that answered, `None` for the user.
    BroadcastAnswered {
        request_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<AgentId>,
        answer: String,
    },
    /// No more replies will come: everyone answered, or the time ran out.
    BroadcastClosed {
        request_id: String,
        timed_out: bool,
        responses: u32,
    },
    /// A saved plan changed status (planning, ready, executing, completed, failed).
    PlanUpdated { plan: PlanInfo },
    /// The saved plans, newest first (answers `Op::ListPlans`).
    PlansListed { plans: Vec<PlanInfo> },
    /// The user typed text during the turn; it waits for the next tool result of each
    /// agent in `targets` (of every agent when empty).
    HumanInputQueued {
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<AgentId>,
    },
    /// The queued text reached this agent.
    HumanInputDelivered { text: String },
    /// Something the user should know that did not stop the run.
    Warning { message: String },
    /// Not from an orchestrator: `massgen replay` plays the events recorded under
    /// `source`, at `speed` times their recorded pace, or one step per `Op::Step`. Never
    /// written to an event log.
    ReplayStarted {
        #[serde(serialize_with = "super::lossy_path::serialize")]
        source: PathBuf,
        speed: f64,
        step: bool,
    },
    /// The replay has played all `events` it recorded; nothing more will come.
    ReplayFinished { events: u64 },
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
