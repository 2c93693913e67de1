//! Which events become timeline entries, what each entry records, and adding them to the
//! state's timeline.

use super::timeline::{Delivery, EntryKind, TimelineEntry, preview};
use super::{UiState, display_tool_name, provider_tool_name};
use crate::protocol::{Event, EventMsg, McpServerState, PlanStatus};

/// The timeline's record of `event`, if it is a coordination event.
pub(super) fn entry_for(event: &Event) -> Option<TimelineEntry> {
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
            ..
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
        EventMsg::FinalOverridden { label, agent, .. } => EntryKind::Overridden {
            label: label.clone(),
            agent: agent.clone(),
        },
        EventMsg::FinalPresentationDone { fallback, .. } => EntryKind::FinalDone {
            fallback: *fallback,
            after_timeout: None,
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
        EventMsg::HumanInputQueued { text } => EntryKind::HumanInput {
            text: text.clone(),
            delivery: Delivery::Queued,
        },
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
            outcome: plan.outcome.clone(),
        },
        EventMsg::RunStarted { .. }
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::PlanUpdated { .. }
        | EventMsg::PlansListed { .. }
        | EventMsg::RunFinished
        | EventMsg::AgentsReplaced { .. }
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

impl UiState {
    /// Adds `event`'s timeline entry, if it makes one, noting when it is planning's (the
    /// coordination table's legend lists planning's symbols only then).
    pub(super) fn push_entry(&mut self, event: &Event) {
        let Some(mut entry) = entry_for(event) else {
            return;
        };
        if let EntryKind::FinalDone {
            fallback: true,
            after_timeout,
        } = &mut entry.kind
        {
            *after_timeout = self
                .timeline
                .iter()
                .rev()
                .take_while(|earlier| earlier.turn == entry.turn)
                .find_map(|earlier| match earlier.kind {
                    EntryKind::Timeout { scope, .. } => Some(scope),
                    _ => None,
                });
        }
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
