//! Which events become timeline entries, and the timeline that holds them. What
//! each entry records is written in the part of its kind of event: the turn, answers,
//! cut short, planning.

mod answers;
mod cut_short;
mod planning;
mod turn;

use std::ops::Deref;

use super::strategy::StrategyEntry;
use super::timeline::{EntryKind, TimelineEntry};
use super::{display_tool_name, provider_tool_name};
use crate::protocol::{
    Event, EventMsg, McpServerState, PlanStatus, run_events, stream_deltas, tool_calls,
    usage_events, workspace_events,
};

/// The timeline's record of `event`, if it is a coordination event.
fn entry_for(event: &Event) -> Option<TimelineEntry> {
    let kind = match &event.msg {
        EventMsg::TurnStarted { question, .. } => turn::started(event.turn, question),
        EventMsg::TurnFinished {
            outcome,
            duration_ms,
            ..
        } => turn::finished(*outcome, *duration_ms),
        EventMsg::AgentRestarted { round, reason } => turn::restarted(*round, reason),
        EventMsg::UpdateInjected { labels } => turn::injected(labels),
        EventMsg::FairnessHold { lead, cap } => EntryKind::FairnessHold {
            lead: *lead,
            cap: *cap,
        },
        EventMsg::FairnessReleased => EntryKind::FairnessReleased,
        EventMsg::OrchestrationRestarted {
            attempt,
            max_attempts,
            reason,
            instructions,
            ..
        } => turn::orchestration_restarted(*attempt, *max_attempts, reason, instructions),
        EventMsg::HumanInputQueued { text, .. } => turn::human_input_queued(text),
        EventMsg::Strategy(news) => EntryKind::Strategy(StrategyEntry::of(news)?),
        EventMsg::Approval(_) => return None,
        EventMsg::AnswerSubmitted { label, content, .. } => answers::answer(label, content),
        EventMsg::VoteCast {
            target,
            target_label,
            reason,
            ..
        } => answers::vote(target, target_label, reason),
        EventMsg::VoteIgnored { target, why, .. } => answers::vote_ignored(target, why),
        EventMsg::WinnerSelected {
            tally,
            is_tie,
            basis,
            ..
        } => answers::winner(tally, *is_tie, *basis),
        EventMsg::ChecklistSubmitted { result } => EntryKind::Checklist {
            result: result.clone(),
        },
        EventMsg::ApproachDrafted { approach } => EntryKind::Approach {
            summary: approach.summary(),
        },
        EventMsg::PostEvaluationStarted { .. } => EntryKind::PostEvaluation { outcome: None },
        EventMsg::PostEvaluationFinished { outcome } => answers::checked(outcome),
        EventMsg::FinalPresentationStarted { label, strategy } => {
            answers::presenting(label, *strategy)
        }
        EventMsg::FinalOverridden { label, agent, .. } => answers::overridden(label, agent),
        EventMsg::FinalPresentationDone { fallback, .. } => answers::final_done(*fallback),
        EventMsg::RoundTimeLimitReached { stage, .. } => cut_short::round_time_limit(*stage),
        EventMsg::ContextCompressed {
            reason,
            tokens_before,
            tokens_after,
            window,
            summarized,
            ..
        } => EntryKind::Compressed {
            reason: *reason,
            tokens_before: *tokens_before,
            tokens_after: *tokens_after,
            window: *window,
            summarized: *summarized,
        },
        EventMsg::EnforcementRetry {
            attempt,
            max_attempts,
            detail,
            ..
        } => cut_short::enforcement(*attempt, *max_attempts, detail),
        EventMsg::Retrying {
            attempt,
            max_retries,
            delay_ms,
            reason,
        } => cut_short::retrying(*attempt, *max_retries, *delay_ms, reason),
        EventMsg::AgentError { message } => cut_short::error(message),
        EventMsg::AgentKilled { reason } => cut_short::killed(reason),
        EventMsg::Timeout { scope, seconds } => cut_short::timeout(*scope, *seconds),
        EventMsg::BudgetReached {
            budget_usd,
            spent_usd,
        } => cut_short::budget_reached(*budget_usd, *spent_usd),
        EventMsg::Cancelled => EntryKind::Cancelled,
        EventMsg::AnswerNow { stopped } => EntryKind::AnswerNow {
            stopped: stopped.clone(),
        },
        EventMsg::Warning { message } => cut_short::warning(message),
        EventMsg::ToolRefused { tool, path, reason } => cut_short::refused(tool, path, reason),
        EventMsg::McpServerStatus {
            server,
            state: McpServerState::Failed { error },
        } => cut_short::server_unavailable(server, error),
        EventMsg::McpServerStatus {
            server,
            state: McpServerState::Paused { retry_in_secs },
        } => cut_short::server_paused(server, *retry_in_secs),
        EventMsg::PlanningModeDecided {
            irreversible,
            blocked_tools,
        } => planning::planning_mode(*irreversible, blocked_tools),
        EventMsg::ToolBlocked { tool, .. } => planning::blocked(tool),
        EventMsg::PersonaAssigned { text, summary, .. } => EntryKind::Persona {
            summary: summary.clone().unwrap_or_else(|| text.clone()),
        },
        EventMsg::SubtasksAssigned { subtasks, source } => EntryKind::Subtasks {
            subtasks: subtasks.clone(),
            source: *source,
        },
        EventMsg::AgentStopped { summary, status } => EntryKind::Stopped {
            status: status.clone(),
            summary: summary.clone(),
        },
        EventMsg::CriteriaSet { source, criteria } => EntryKind::Criteria {
            source: *source,
            ids: criteria
                .iter()
                .map(|criterion| criterion.id.clone())
                .collect(),
        },
        EventMsg::BroadcastAsked {
            target, questions, ..
        } => planning::asked(*target, questions),
        EventMsg::BroadcastAnswered { from, answer, .. } => {
            planning::answered(from.as_ref(), answer)
        }
        EventMsg::BroadcastClosed {
            timed_out,
            responses,
            ..
        } => planning::closed(*timed_out, *responses),
        EventMsg::PlanUpdated { plan } if plan.status != PlanStatus::Planning => {
            planning::plan(plan)
        }
        run_events!()
        | usage_events!()
        | workspace_events!()
        | stream_deltas!()
        | tool_calls!()
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::PlanUpdated { .. }
        | EventMsg::SessionResumed { .. }
        | EventMsg::McpServerStatus {
            state: McpServerState::Starting | McpServerState::Ready { .. },
            ..
        }
        | EventMsg::AgentStatus { .. }
        | EventMsg::ContextUsage { .. }
        | EventMsg::AttachmentsSent { .. }
        | EventMsg::RoundStarted { .. }
        | EventMsg::HumanInputDelivered { .. } => return None,
    };
    Some(entry(event, kind))
}

/// The record of `event` if it is a finished tool call.
fn tool_call_entry(event: &Event) -> Option<TimelineEntry> {
    let kind = if let EventMsg::ToolCallEnd {
        tool,
        ok,
        duration_ms,
        category,
        ..
    } = &event.msg
    {
        EntryKind::ToolCall {
            tool: display_tool_name(tool, category.as_deref()),
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

/// The coordination timeline of the session, and its finished tool calls apart. It reads
/// as the slice of its entries; only the fold adds to it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    entries: Vec<TimelineEntry>,
    /// The timeline holds a planning entry (blocked call, question, …).
    pub planning: bool,
    /// Every finished tool call of the session, as `/events` lists them.
    pub tool_log: Vec<TimelineEntry>,
}

impl Deref for Timeline {
    type Target = [TimelineEntry];

    fn deref(&self) -> &[TimelineEntry] {
        &self.entries
    }
}

impl<'a> IntoIterator for &'a Timeline {
    type Item = &'a TimelineEntry;
    type IntoIter = std::slice::Iter<'a, TimelineEntry>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

impl Timeline {
    /// Adds `event`'s timeline entry, if it makes one, and its tool call record, if it
    /// finished one.
    pub(super) fn fold(&mut self, event: &Event) {
        self.push_entry(event);
        if let Some(entry) = tool_call_entry(event) {
            self.tool_log.push(entry);
        }
    }

    /// Adds `event`'s timeline entry, if it makes one, noting when it is planning's (the
    /// coordination table's legend lists planning's symbols only then).
    fn push_entry(&mut self, event: &Event) {
        let Some(mut entry) = entry_for(event) else {
            return;
        };
        if let EntryKind::FinalDone {
            fallback: true,
            after_timeout,
        } = &mut entry.kind
        {
            *after_timeout = self
                .entries
                .iter()
                .rev()
                .take_while(|earlier| earlier.turn == entry.turn)
                .find_map(|earlier| match earlier.kind {
                    EntryKind::Timeout { scope, .. } => Some(scope),
                    _ => None,
                });
        }
        self.planning |= matches!(
            entry.kind,
            EntryKind::PlanningMode { .. }
                | EntryKind::ToolBlocked { .. }
                | EntryKind::QuestionAsked { .. }
                | EntryKind::QuestionAnswered { .. }
        );
        self.entries.push(entry);
    }

    /// An entry made apart from an event's own (the fate of queued input).
    pub(super) fn push(&mut self, entry: TimelineEntry) {
        self.entries.push(entry);
    }

    /// The entries of turn `turn` at the end of the timeline, newest first.
    pub(super) fn turn_mut(&mut self, turn: u32) -> impl Iterator<Item = &mut TimelineEntry> {
        self.entries
            .iter_mut()
            .rev()
            .take_while(move |entry| entry.turn == turn)
    }

    /// Takes in the timeline of turns folded apart (a resumed session's).
    pub(super) fn append(&mut self, other: &mut Self) {
        self.entries.append(&mut other.entries);
        self.planning |= other.planning;
        self.tool_log.append(&mut other.tool_log);
    }
}
