//! The coordination timeline: every answer, vote, restart, error, retry and ending of the
//! turn, in order, as the timeline pane and its full-screen view list them.

use jiff::Timestamp;

use super::{UiState, display_tool_name, provider_tool_name};

use crate::protocol::{
    AgentId, AnswerLabel, BroadcastTarget, Event, EventMsg, McpServerState, PlanStatus,
    PostEvaluationOutcome, RoundTimeStage, TimeoutScope, TurnOutcome, VoteCount, WinnerBasis,
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

#[derive(Clone, Debug, PartialEq)]
pub enum EntryKind {
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
    RoundTimeLimit {
        stage: RoundTimeStage,
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
    },
    FinalDone {
        fallback: bool,
    },
    Timeout {
        scope: TimeoutScope,
        seconds: u64,
    },
    Cancelled,
    HumanInput {
        text: String,
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

impl UiState {
    /// Adds `event`'s timeline entry, if it makes one, noting when it is planning's (the
    /// coordination table's legend lists planning's symbols only then).
    pub(super) fn push_entry(&mut self, event: &Event) {
        let Some(entry) = entry_for(event) else {
            return;
        };
        self.planning_in_timeline |= matches!(
            entry.kind,
            EntryKind::PlanningMode { .. }
                | EntryKind::ToolBlocked { .. }
                | EntryKind::QuestionAsked { .. }
                | EntryKind::QuestionAnswered { .. }
        );
        self.timeline.push(entry);
    }
}

/// The timeline's record of `event`, if it is a coordination event.
fn entry_for(event: &Event) -> Option<TimelineEntry> {
    let kind = match &event.msg {
        EventMsg::TurnStarted { question, .. } => EntryKind::TurnStarted {
            turn: event.turn,
            question: question.clone(),
        },
        EventMsg::AgentRestarted { round, reason } => EntryKind::Restarted {
            round: *round,
            reason: reason.clone(),
        },
        EventMsg::UpdateInjected { labels } => EntryKind::Injected {
            labels: labels.clone(),
        },
        EventMsg::RoundTimeLimitReached { stage, .. } => {
            EntryKind::RoundTimeLimit { stage: *stage }
        }
        EventMsg::PostEvaluationStarted { .. } => EntryKind::PostEvaluation { outcome: None },
        EventMsg::PostEvaluationFinished { outcome } => EntryKind::PostEvaluation {
            outcome: Some(outcome.clone()),
        },
        EventMsg::OrchestrationRestarted {
            attempt,
            max_attempts,
            reason,
            instructions,
        } => EntryKind::OrchestrationRestart {
            attempt: *attempt,
            max_attempts: *max_attempts,
            reason: reason.clone(),
            instructions: instructions.clone(),
        },
        EventMsg::AnswerSubmitted { label, content, .. } => EntryKind::Answer {
            label: label.clone(),
            preview: preview(content, 120),
        },
        EventMsg::VoteCast {
            target,
            target_label,
            reason,
            ..
        } => EntryKind::Vote {
            target: target.clone(),
            target_label: target_label.clone(),
            reason: reason.clone(),
        },
        EventMsg::VoteIgnored { target, why, .. } => EntryKind::VoteIgnored {
            target: target.clone(),
            why: why.clone(),
        },
        EventMsg::EnforcementRetry {
            attempt,
            max_attempts,
            detail,
            ..
        } => EntryKind::Enforcement {
            attempt: *attempt,
            max_attempts: *max_attempts,
            detail: detail.clone(),
        },
        EventMsg::Retrying {
            attempt,
            max_retries,
            delay_ms,
            reason,
        } => EntryKind::Retrying {
            reason: reason.clone(),
            delay_ms: *delay_ms,
            attempt: *attempt,
            max_retries: *max_retries,
        },
        EventMsg::AgentError { message } => EntryKind::Error {
            message: message.clone(),
        },
        EventMsg::AgentKilled { reason } => EntryKind::Killed {
            reason: reason.clone(),
        },
        EventMsg::WinnerSelected {
            tally,
            is_tie,
            basis,
            ..
        } => EntryKind::Winner {
            tally: tally.clone(),
            is_tie: *is_tie,
            basis: *basis,
        },
        EventMsg::FinalPresentationStarted { label } => EntryKind::Presenting {
            label: label.clone(),
        },
        EventMsg::FinalPresentationDone { fallback, .. } => EntryKind::FinalDone {
            fallback: *fallback,
        },
        EventMsg::Timeout { scope, seconds } => EntryKind::Timeout {
            scope: *scope,
            seconds: *seconds,
        },
        EventMsg::BudgetReached {
            budget_usd,
            spent_usd,
        } => EntryKind::Warning {
            message: format!(
                "💰 cost budget of {} reached ({} spent): the best answer so far is presented",
                crate::session::format_usd(*budget_usd),
                crate::session::format_usd(*spent_usd)
            ),
        },
        EventMsg::Cancelled => EntryKind::Cancelled,
        EventMsg::HumanInputQueued { text } => EntryKind::HumanInput { text: text.clone() },
        EventMsg::Warning { message } => EntryKind::Warning {
            message: message.clone(),
        },
        EventMsg::ToolRefused { tool, path, reason } => EntryKind::ToolRefused {
            tool: tool.clone(),
            path: path.clone(),
            reason: reason.clone(),
        },
        EventMsg::McpServerStatus {
            server,
            state: McpServerState::Failed { error },
        } => EntryKind::Warning {
            message: format!("MCP server {server} is unavailable: {error}"),
        },
        EventMsg::McpServerStatus {
            server,
            state: McpServerState::Paused { retry_in_secs },
        } => EntryKind::Warning {
            message: format!("MCP server {server} keeps failing; paused for {retry_in_secs} s"),
        },
        EventMsg::TurnFinished {
            outcome,
            duration_ms,
            ..
        } => EntryKind::TurnFinished {
            outcome: *outcome,
            duration_ms: *duration_ms,
        },
        EventMsg::PlanningModeDecided {
            irreversible,
            blocked_tools,
        } => EntryKind::PlanningMode {
            irreversible: *irreversible,
            blocked: blocked_tools.len(),
        },
        EventMsg::ToolBlocked { tool, .. } => EntryKind::ToolBlocked {
            tool: display_tool_name(tool),
        },
        EventMsg::BroadcastAsked {
            target, questions, ..
        } => EntryKind::QuestionAsked {
            target: *target,
            text: super::plan::first_question(questions),
            count: questions.len(),
        },
        EventMsg::BroadcastAnswered { from, answer, .. } => EntryKind::QuestionAnswered {
            from: from.clone(),
            answer: preview(answer, 120),
        },
        EventMsg::BroadcastClosed {
            timed_out,
            responses,
            ..
        } => EntryKind::QuestionClosed {
            timed_out: *timed_out,
            responses: *responses,
        },
        EventMsg::PlanUpdated { plan } if plan.status != PlanStatus::Planning => EntryKind::Plan {
            id: plan.id.clone(),
            status: plan.status,
            tasks: plan.tasks.len(),
            detail: plan.detail.clone(),
            divergence: plan.divergence,
        },
        EventMsg::RunStarted { .. }
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::PlanUpdated { .. }
        | EventMsg::PlansListed { .. }
        | EventMsg::RunFinished
        | EventMsg::HistoryCleared
        | EventMsg::SessionResumed { .. }
        | EventMsg::WorkspaceSnapshot { .. }
        | EventMsg::WorkspaceAssigned { .. }
        | EventMsg::McpServerStatus {
            state: McpServerState::Starting | McpServerState::Ready { .. },
            ..
        }
        | EventMsg::AgentStatus { .. }
        | EventMsg::RoundStarted { .. }
        | EventMsg::TextDelta { .. }
        | EventMsg::ReasoningDelta { .. }
        | EventMsg::ToolCallBegin { .. }
        | EventMsg::ToolCallEnd { .. }
        | EventMsg::ProviderTool(_)
        | EventMsg::Usage { .. }
        | EventMsg::RoundUsage { .. }
        | EventMsg::FinalPresentationDelta { .. }
        | EventMsg::HumanInputDelivered { .. }
        | EventMsg::ReplayStarted { .. }
        | EventMsg::ReplayFinished { .. } => return None,
    };
    Some(entry(event, kind))
}

/// The record of `event` if it is a finished tool call.
pub(super) fn tool_call_entry(event: &Event) -> Option<TimelineEntry> {
    let kind = if let EventMsg::ToolCallEnd {
        tool,
        ok,
        duration_ms,
        ..
    } = &event.msg
    {
        EntryKind::ToolCall {
            tool: display_tool_name(tool),
            ok: *ok,
            duration_ms: *duration_ms,
        }
    } else if let EventMsg::ProviderTool(call) = &event.msg {
        EntryKind::ToolCall {
            tool: provider_tool_name(&call.tool),
            ok: call.ok,
            duration_ms: 0,
        }
    } else {
        return None;
    };
    Some(entry(event, kind))
}

fn entry(event: &Event, kind: EntryKind) -> TimelineEntry {
    TimelineEntry {
        seq: event.seq,
        at: event.at,
        turn: event.turn,
        agent: event.agent.clone(),
        kind,
    }
}
