//! The coordination timeline: every answer, vote, restart, error, retry and ending of the
//! turn, in order, as the timeline pane and its full-screen view list them.

use jiff::Timestamp;

use super::strategy::StrategyEntry;

use crate::protocol::{
    AgentId, AnswerLabel, BroadcastTarget, ChecklistResult, CompressionReason, CriteriaSource,
    FinalAnswerStrategy, PlanStatus, PostEvaluationOutcome, RoundTimeStage, SubtaskSource,
    TimeoutScope, TurnOutcome, VoteCount, WinnerBasis,
};

#[derive(Clone, Debug, PartialEq)]
pub struct TimelineEntry {
    pub seq: u64,
    pub at: Timestamp,
    pub turn: u32,
    /// The agent it is about, if any.
    pub agent: Option<AgentId>,
    pub kind: EntryKind,
}

/// Where text the user typed during a turn stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Waiting for the agents' next tool results.
    Queued,
    /// These agents received it with a tool result, first first.
    Delivered(Vec<AgentId>),
    /// The turn ended before any agent received it.
    NotDelivered,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EntryKind {
    /// A council turn's ballot, missing ranking, final aggregate or chairman.
    Strategy(StrategyEntry),
    TurnStarted {
        turn: u32,
        question: String,
    },
    Restarted {
        round: u32,
        reason: String,
    },
    /// Peers' new answers reached the agent mid-round (no restart).
    Injected {
        labels: Vec<AnswerLabel>,
    },
    /// The fairness lead cap holds the agent back until its peers catch up.
    FairnessHold {
        lead: u32,
        cap: u32,
    },
    /// The agent's fairness hold is lifted.
    FairnessReleased,
    RoundTimeLimit {
        stage: RoundTimeStage,
    },
    /// The agent's context was compressed to fit its model's window.
    Compressed {
        reason: CompressionReason,
        tokens_before: u64,
        tokens_after: u64,
        window: u64,
        /// The model's summary replaced the older messages.
        summarized: bool,
    },
    /// Checklist-gated voting: the agent's scores and the gate's verdict.
    Checklist {
        result: ChecklistResult,
    },
    /// Checklist-gated voting: the agent's plan for its next answer, in one line.
    Approach {
        summary: String,
    },
    /// The winner checks its final answer (`outcome` once it is known).
    PostEvaluation {
        outcome: Option<PostEvaluationOutcome>,
    },
    /// MassGen's restart banner: coordination starts again.
    OrchestrationRestart {
        attempt: u32,
        max_attempts: u32,
        reason: String,
        instructions: String,
    },
    Answer {
        label: AnswerLabel,
        preview: String,
    },
    Vote {
        target: AgentId,
        target_label: AnswerLabel,
        reason: String,
    },
    VoteIgnored {
        target: AgentId,
        why: String,
    },
    Enforcement {
        attempt: u32,
        max_attempts: u32,
        detail: String,
    },
    Retrying {
        reason: String,
        delay_ms: u64,
        attempt: u32,
        max_retries: u32,
    },
    Error {
        message: String,
    },
    Killed {
        reason: String,
    },
    Winner {
        tally: Vec<VoteCount>,
        is_tie: bool,
        basis: WinnerBasis,
    },
    Presenting {
        label: AnswerLabel,
        strategy: FinalAnswerStrategy,
    },
    /// The user chose `label` (by `agent`) as the final answer (`Ctrl+O`).
    Overridden {
        label: AnswerLabel,
        agent: AgentId,
    },
    /// `fallback`: the winner's stored answer stands in for a presentation, because the
    /// presentation failed, or because of the timeout in `after_timeout`.
    FinalDone {
        fallback: bool,
        after_timeout: Option<TimeoutScope>,
    },
    Timeout {
        scope: TimeoutScope,
        seconds: u64,
    },
    Cancelled,
    /// The user asked for the answer now: refinement ended, `stopped`'s rounds were cut.
    AnswerNow {
        stopped: Vec<AgentId>,
    },
    /// Text the user typed during the turn, and how far it got.
    HumanInput {
        text: String,
        delivery: Delivery,
    },
    ToolRefused {
        tool: String,
        path: String,
        reason: String,
    },
    Warning {
        message: String,
    },
    TurnFinished {
        outcome: TurnOutcome,
        duration_ms: u64,
    },
    /// Planning mode judged the request; while irreversible, `blocked` tools (0: every
    /// MCP tool) wait for the presentation.
    PlanningMode {
        irreversible: bool,
        blocked: usize,
    },
    /// The persona the agent works under this turn (its summary, else its text).
    Persona {
        summary: String,
    },
    /// Decomposition mode: each agent's subtask this turn, and where they came from.
    Subtasks {
        subtasks: Vec<(AgentId, String)>,
        source: SubtaskSource,
    },
    /// Decomposition mode: the agent is done with its subtask (`status`: complete or
    /// blocked) until a peer's new answer wakes it.
    Stopped {
        status: String,
        summary: String,
    },
    /// The criteria this turn's checklists score (their ids), and their source.
    Criteria {
        source: CriteriaSource,
        ids: Vec<String>,
    },
    /// Planning mode kept a call from running.
    ToolBlocked {
        tool: String,
    },
    /// An agent asked (the first question's text; `count` questions in all).
    QuestionAsked {
        target: BroadcastTarget,
        text: String,
        count: usize,
    },
    /// A reply; `from` is `None` for the user.
    QuestionAnswered {
        from: Option<AgentId>,
        answer: String,
    },
    QuestionClosed {
        timed_out: bool,
        responses: u32,
    },
    /// A saved plan changed status (not shown while it is being made).
    Plan {
        id: String,
        status: PlanStatus,
        tasks: usize,
        detail: Option<String>,
        divergence: Option<f64>,
        /// How far execution got, once executed.
        outcome: Option<crate::protocol::PlanOutcome>,
    },
    /// A finished tool call (kept apart from the timeline, for `/events`).
    ToolCall {
        tool: String,
        ok: bool,
        duration_ms: u64,
    },
}

/// `text` on one line, markdown heading and emphasis marks dropped, cut to `max` characters
/// with `…` when anything was cut.
pub fn preview(text: &str, max: usize) -> String {
    let mut flat = String::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches('#').trim();
        if line.is_empty() {
            continue;
        }
        if !flat.is_empty() {
            flat.push(' ');
        }
        flat.push_str(line);
        if flat.chars().count() > max {
            break;
        }
    }
    let flat = flat.replace("**", "");
    if flat.chars().count() > max {
        let cut: String = flat.chars().take(max).collect();
        format!("{}…", cut.trim_end())
    } else {
        flat
    }
}
