//! What each coordination event shows in its cell of `coordination_table.txt`.

use crate::protocol::symbols::{
    BLOCKED, CONTEXT, ERROR, EVALUATE, FINAL_ANSWER, NEW_ANSWER, PLANNING_MODE, QUESTION, REFUSED,
    REPLY, RESTART, RESTART_DONE, RETRY, THINKING, TIMER, UPDATE, VOTE, VOTE_IGNORED, WINNER,
};
use crate::protocol::{
    AgentId, EventMsg, PostEvaluationOutcome, RoundTimeStage, TimeoutScope, VoteCount,
};
use crate::text::truncate;

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
        } => {
            let head = if *round == 1 {
                format!("{THINKING} Started streaming")
            } else {
                format!("{RESTART_DONE} RESTART COMPLETED (round {round})")
            };
            let seen: Vec<String> = answers_seen.iter().map(ToString::to_string).collect();
            let only = if *vote_only { " (vote only)" } else { "" };
            vec![
                head,
                format!("{CONTEXT} Context: [{}]{only}", seen.join(", ")),
            ]
        }
        EventMsg::AgentRestarted { reason, .. } => {
            vec![format!("{RESTART} RESTART TRIGGERED"), reason.clone()]
        }
        EventMsg::AnswerSubmitted { label, content, .. } => vec![
            format!("{NEW_ANSWER} NEW ANSWER ({label})"),
            format!("\"{}\"", truncate(&flatten(content), PREVIEW)),
        ],
        EventMsg::VoteCast {
            target,
            target_label,
            reason,
            ..
        } => vec![
            format!("{VOTE} VOTE → {target} ({target_label})"),
            format!("{THINKING} {reason}"),
        ],
        EventMsg::VoteIgnored { target, why, .. } => vec![
            format!("{VOTE_IGNORED} VOTE IGNORED → {target}"),
            why.clone(),
        ],
        EventMsg::EnforcementRetry {
            attempt,
            max_attempts,
            detail,
            ..
        } => vec![
            format!("{RETRY} RETRY {attempt}/{max_attempts}"),
            detail.clone(),
        ],
        EventMsg::Retrying {
            attempt,
            max_retries,
            reason,
            ..
        } => vec![
            format!("{RETRY} MODEL CALL RETRY {attempt}/{max_retries}"),
            reason.clone(),
        ],
        EventMsg::ToolRefused { tool, reason, .. } => {
            vec![format!("{REFUSED} REFUSED {tool}"), reason.clone()]
        }
        EventMsg::HumanInputDelivered { text } => {
            vec![format!("{UPDATE} UPDATE RECEIVED"), flatten(text)]
        }
        EventMsg::FinalOverridden { label, .. } => {
            vec![format!("👤 OVERRIDE: final answer is {label}")]
        }
        EventMsg::UpdateInjected { labels } => {
            let labels: Vec<String> = labels.iter().map(ToString::to_string).collect();
            vec![
                format!("{UPDATE} UPDATE RECEIVED"),
                format!("new answers: {}", labels.join(", ")),
            ]
        }
        EventMsg::RoundTimeLimitReached {
            stage,
            elapsed_secs,
        } => vec![
            match stage {
                RoundTimeStage::WrapUp => format!("{TIMER} ROUND TIME LIMIT: wrap up"),
                RoundTimeStage::Blocked => format!("{TIMER} ROUND TIME LIMIT: tools blocked"),
            },
            format!("after {elapsed_secs} s"),
        ],
        EventMsg::PostEvaluationStarted { .. } => {
            vec![format!("{EVALUATE} CHECKING THE FINAL ANSWER")]
        }
        EventMsg::PostEvaluationFinished { outcome } => match outcome {
            PostEvaluationOutcome::Submitted => vec![format!("{EVALUATE} SUBMITTED")],
            PostEvaluationOutcome::RestartRequested { reason, .. } => vec![
                format!("{RESTART} RESTART REQUESTED"),
                truncate(&flatten(reason), PREVIEW),
            ],
            PostEvaluationOutcome::Failed { message } => vec![
                format!("{ERROR} CHECK FAILED (answer kept)"),
                truncate(&flatten(message), PREVIEW),
            ],
        },
        EventMsg::OrchestrationRestarted {
            attempt,
            max_attempts,
            ..
        } => vec![format!(
            "{RESTART} ORCHESTRATION RESTART (attempt {attempt}/{max_attempts})"
        )],
        EventMsg::AgentError { message } => vec![format!("{ERROR} ERROR"), message.clone()],
        EventMsg::PlanningModeDecided {
            irreversible: false,
            ..
        } => vec![format!(
            "{PLANNING_MODE} PLANNING MODE: nothing irreversible"
        )],
        EventMsg::PlanningModeDecided {
            irreversible: true,
            blocked_tools,
        } => vec![
            format!("{PLANNING_MODE} PLANNING MODE: irreversible"),
            if blocked_tools.is_empty() {
                "every MCP tool blocked".to_string()
            } else {
                format!("blocked: {}", blocked_tools.join(", "))
            },
        ],
        EventMsg::ToolBlocked { tool, .. } => vec![format!("{BLOCKED} BLOCKED {tool}")],
        EventMsg::BroadcastAsked {
            target, questions, ..
        } => vec![
            format!("{QUESTION} ASKED {}", target.name()),
            questions
                .first()
                .map(|question| truncate(&flatten(&question.text), PREVIEW))
                .unwrap_or_default(),
        ],
        EventMsg::BroadcastAnswered { from, answer, .. } => vec![
            format!(
                "{REPLY} REPLY from {}",
                from.as_ref().map_or("the user", |agent| agent.as_str())
            ),
            format!("\"{}\"", truncate(&flatten(answer), PREVIEW)),
        ],
        EventMsg::BroadcastClosed {
            timed_out: true, ..
        } => vec![format!("{ERROR} QUESTION TIMED OUT")],
        EventMsg::AgentKilled { reason } => vec![format!("{ERROR} DROPPED"), reason.clone()],
        EventMsg::Timeout { scope, seconds } => {
            let clock = match scope {
                TimeoutScope::Orchestrator => "coordination",
                TimeoutScope::Presentation => "final presentation",
            };
            vec![format!("{ERROR} TIMEOUT: {clock} after {seconds} s")]
        }
        EventMsg::BudgetReached {
            budget_usd,
            spent_usd,
        } => vec![format!(
            "{ERROR} BUDGET: {} reached ({} spent)",
            crate::session::format_usd(*budget_usd),
            crate::session::format_usd(*spent_usd)
        )],
        EventMsg::Cancelled => vec![format!("{ERROR} CANCELLED by the user")],
        EventMsg::WinnerSelected { winner, tally, .. } => vec![
            format!("{WINNER} Winner selected"),
            crate::text::plural(votes_of(tally, winner) as usize, "vote"),
        ],
        EventMsg::FinalPresentationDone {
            label, fallback, ..
        } => {
            let mut lines = vec![format!("{FINAL_ANSWER} FINAL ANSWER ({label})")];
            if *fallback {
                lines.push(
                    match timed_out {
                        Some(TimeoutScope::Orchestrator) => "its stored answer: time ran out",
                        Some(TimeoutScope::Presentation) => {
                            "its stored answer: presenting took too long"
                        }
                        None => "its stored answer: the presentation failed",
                    }
                    .into(),
                );
            }
            lines
        }
        EventMsg::RunStarted { .. }
        | EventMsg::RunFinished
        | EventMsg::AgentsReplaced { .. }
        | EventMsg::HistoryCleared
        | EventMsg::ReplayStarted { .. }
        | EventMsg::ReplayFinished { .. }
        | EventMsg::BroadcastClosed {
            timed_out: false, ..
        }
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::PlanUpdated { .. }
        | EventMsg::PlansListed { .. }
        | EventMsg::SessionResumed { .. }
        | EventMsg::TurnStarted { .. }
        | EventMsg::TurnFinished { .. }
        | EventMsg::AgentStatus { .. }
        | EventMsg::TextDelta { .. }
        | EventMsg::ReasoningDelta { .. }
        | EventMsg::ToolCallBegin { .. }
        | EventMsg::McpServerStatus { .. }
        | EventMsg::WorkspaceAssigned { .. }
        | EventMsg::WorkspaceSnapshot { .. }
        | EventMsg::ToolCallEnd { .. }
        | EventMsg::ProviderTool(_)
        | EventMsg::Usage { .. }
        | EventMsg::RoundUsage { .. }
        | EventMsg::FinalPresentationStarted { .. }
        | EventMsg::FinalPresentationDelta { .. }
        | EventMsg::HumanInputQueued { .. }
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
