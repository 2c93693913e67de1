//! A readable line per coordination event, for assertions and failure messages.

use massgen::protocol::{Event, EventMsg};

/// A compact, readable line per coordination event (streaming and status left out).
pub fn transcript(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| {
            let who = event.agent.as_ref().map_or("-", |agent| agent.as_str());
            let line = match &event.msg {
                EventMsg::TurnStarted { .. } => "turn started".to_string(),
                EventMsg::RoundStarted {
                    round,
                    answers_seen,
                    vote_only,
                    ..
                } => {
                    let seen: Vec<&str> = answers_seen.iter().map(|l| l.as_str()).collect();
                    let only = if *vote_only { " vote-only" } else { "" };
                    format!("{who} round {round} sees [{}]{only}", seen.join(","))
                }
                EventMsg::AnswerSubmitted { label, .. } => format!("{who} answers {label}"),
                EventMsg::VoteCast {
                    target,
                    target_label,
                    ..
                } => format!("{who} votes {target} ({target_label})"),
                EventMsg::VoteIgnored { target, .. } => format!("{who} vote for {target} ignored"),
                EventMsg::ChecklistSubmitted { result } => {
                    format!("{who} checklist {}", result.verdict.action())
                }
                EventMsg::ApproachDrafted { approach } => {
                    format!("{who} approach {}", approach.summary())
                }
                EventMsg::EnforcementRetry {
                    attempt, reason, ..
                } => format!("{who} retry {attempt} {reason:?}"),
                EventMsg::AgentError { .. } => format!("{who} error"),
                EventMsg::AgentKilled { .. } => format!("{who} killed"),
                EventMsg::WinnerSelected { winner, basis, .. } => {
                    format!("winner {winner} by {basis:?}")
                }
                EventMsg::FinalPresentationDone {
                    label, fallback, ..
                } => {
                    format!(
                        "{who} presents {label}{}",
                        if *fallback { " (stored)" } else { "" }
                    )
                }
                EventMsg::Timeout { scope, .. } => format!("timeout {scope:?}"),
                EventMsg::Cancelled => "cancelled".to_string(),
                EventMsg::FinalOverridden { label, .. } => {
                    format!("{who} chosen by the user {label}")
                }
                EventMsg::UpdateInjected { labels } => {
                    let labels: Vec<&str> = labels.iter().map(|l| l.as_str()).collect();
                    format!("{who} update injected [{}]", labels.join(","))
                }
                EventMsg::RoundTimeLimitReached { stage, .. } => {
                    format!("{who} round time limit {stage:?}")
                }
                EventMsg::PostEvaluationStarted {
                    attempt,
                    max_attempts,
                } => format!("{who} checks the answer ({attempt}/{max_attempts})"),
                EventMsg::PostEvaluationFinished { outcome } => match outcome {
                    massgen::protocol::PostEvaluationOutcome::Submitted => {
                        format!("{who} submits")
                    }
                    massgen::protocol::PostEvaluationOutcome::RestartRequested { .. } => {
                        format!("{who} asks to restart")
                    }
                    massgen::protocol::PostEvaluationOutcome::Failed { .. } => {
                        format!("{who} check failed")
                    }
                },
                EventMsg::OrchestrationRestarted {
                    attempt,
                    max_attempts,
                    ..
                } => format!("restart attempt {attempt}/{max_attempts}"),
                EventMsg::TurnFinished { outcome, .. } => format!("turn {outcome:?}"),
                _ => return None,
            };
            Some(line)
        })
        .collect()
}

/// The transcript lines about one agent.
pub fn transcript_of(events: &[Event], agent: &str) -> Vec<String> {
    let prefix = format!("{agent} ");
    transcript(events)
        .into_iter()
        .filter(|line| line.starts_with(&prefix))
        .collect()
}

/// The first `AgentError` message and the first `AgentKilled` reason, if any.
pub fn error_and_kill(events: &[Event]) -> (Option<String>, Option<String>) {
    let error = events.iter().find_map(|event| match &event.msg {
        EventMsg::AgentError { message } => Some(message.clone()),
        _ => None,
    });
    let killed = events.iter().find_map(|event| match &event.msg {
        EventMsg::AgentKilled { reason } => Some(reason.clone()),
        _ => None,
    });
    (error, killed)
}
