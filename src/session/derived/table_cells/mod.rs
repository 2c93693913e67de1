//! What each coordination event shows in its cell of `coordination_table.txt`. The cells
//! of each kind of event are written in its part: the turn, answers, cut short, planning.

mod answers;
mod cut_short;
mod planning;
mod turn;

use crate::protocol::{
    AgentId, EventMsg, TimeoutScope, VoteCount, run_events, stream_deltas, tool_calls,
    usage_events, workspace_events,
};

/// How much of an answer or reason a cell previews.
const PREVIEW: usize = 60;

/// What a coordination event shows in its cell, one entry per line before wrapping; `None`
/// for streaming, usage and other detail.
pub(super) fn cell(msg: &EventMsg, timed_out: Option<TimeoutScope>) -> Option<Vec<String>> {
    Some(match msg {
        EventMsg::RoundStarted {
            round,
            answers_seen,
            vote_only,
            ..
        } => turn::round_started(*round, answers_seen, *vote_only),
        EventMsg::AgentRestarted { reason, .. } => turn::restart_triggered(reason),
        EventMsg::UpdateInjected { labels } => turn::update_injected(labels),
        EventMsg::FairnessHold { lead, cap } => turn::fairness_hold(*lead, *cap),
        EventMsg::FairnessReleased => turn::fairness_released(),
        EventMsg::HumanInputDelivered { text } => turn::human_input(text),
        EventMsg::OrchestrationRestarted {
            attempt,
            max_attempts,
            ..
        } => turn::orchestration_restarted(*attempt, *max_attempts),
        EventMsg::AnswerSubmitted { label, content, .. } => answers::new_answer(label, content),
        EventMsg::VoteCast {
            target,
            target_label,
            reason,
            ..
        } => answers::vote(target, target_label, reason),
        EventMsg::VoteIgnored { target, why, .. } => answers::vote_ignored(target, why),
        EventMsg::ChecklistSubmitted { result } => answers::checklist(result),
        EventMsg::ApproachDrafted { approach } => answers::approach(approach),
        EventMsg::CriteriaSet { source, criteria } => {
            std::iter::once(format!("CRITERIA ({})", source.name()))
                .chain(criteria.iter().map(|criterion| {
                    format!(
                        "{} ({}) {}",
                        criterion.id, criterion.category, criterion.text
                    )
                }))
                .collect()
        }
        EventMsg::WinnerSelected { winner, tally, .. } => answers::winner(winner, tally),
        EventMsg::PostEvaluationStarted { .. } => answers::checking(),
        EventMsg::PostEvaluationFinished { outcome } => answers::checked(outcome),
        EventMsg::FinalPresentationDone {
            label, fallback, ..
        } => answers::final_answer(label, *fallback, timed_out),
        EventMsg::FinalOverridden { label, .. } => answers::overridden(label),
        EventMsg::EnforcementRetry {
            attempt,
            max_attempts,
            detail,
            ..
        } => cut_short::enforcement_retry(*attempt, *max_attempts, detail),
        EventMsg::Retrying {
            attempt,
            max_retries,
            reason,
            ..
        } => cut_short::model_call_retry(*attempt, *max_retries, reason),
        EventMsg::ToolRefused { tool, reason, .. } => cut_short::refused(tool, reason),
        EventMsg::RoundTimeLimitReached {
            stage,
            elapsed_secs,
        } => cut_short::round_time_limit(*stage, *elapsed_secs),
        EventMsg::AgentError { message } => cut_short::error(message),
        EventMsg::AgentKilled { reason } => cut_short::dropped(reason),
        EventMsg::Timeout { scope, seconds } => cut_short::timeout(*scope, *seconds),
        EventMsg::BudgetReached {
            budget_usd,
            spent_usd,
        } => cut_short::budget(*budget_usd, *spent_usd),
        EventMsg::Cancelled => cut_short::cancelled(),
        EventMsg::AnswerNow { stopped } => cut_short::answer_now(stopped),
        EventMsg::PlanningModeDecided {
            irreversible,
            blocked_tools,
        } => planning::planning_mode(*irreversible, blocked_tools),
        EventMsg::ToolBlocked { tool, .. } => planning::blocked(tool),
        EventMsg::PersonaAssigned { text, summary, .. } => {
            planning::persona(summary.as_deref(), text)
        }
        EventMsg::BroadcastAsked {
            target, questions, ..
        } => planning::asked(*target, questions),
        EventMsg::BroadcastAnswered { from, answer, .. } => planning::reply(from.as_ref(), answer),
        EventMsg::BroadcastClosed {
            timed_out: true, ..
        } => planning::question_timed_out(),
        run_events!()
        | usage_events!()
        | workspace_events!()
        | stream_deltas!()
        | tool_calls!()
        | EventMsg::BroadcastClosed {
            timed_out: false, ..
        }
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::ContextUsage { .. }
        | EventMsg::ContextCompressed { .. }
        | EventMsg::SubtasksAssigned { .. }
        | EventMsg::Strategy(_)
        | EventMsg::AgentStopped { .. }
        | EventMsg::PlanUpdated { .. }
        | EventMsg::SessionResumed { .. }
        | EventMsg::TurnStarted { .. }
        | EventMsg::TurnFinished { .. }
        | EventMsg::AgentStatus { .. }
        | EventMsg::McpServerStatus { .. }
        | EventMsg::AttachmentsSent { .. }
        | EventMsg::FinalPresentationStarted { .. }
        | EventMsg::HumanInputQueued { .. }
        | EventMsg::Approval(_)
        | EventMsg::Warning { .. } => return None,
    })
}

pub(super) fn votes_of(tally: &[VoteCount], agent: &AgentId) -> u32 {
    tally
        .iter()
        .find(|count| &count.agent == agent)
        .map_or(0, |count| count.votes)
}

/// `text` on one line: its lines joined by spaces.
fn flatten(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
