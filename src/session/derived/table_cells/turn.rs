//! The cells of the turn's flow: an agent's round starting, restarts of an agent and of
//! the whole coordination, and updates reaching an agent mid-round.

use super::flatten;
use crate::protocol::symbols::{CONTEXT, HELD, RELEASED, RESTART, RESTART_DONE, THINKING, UPDATE};
use crate::protocol::{AnswerLabel, FAIRNESS_RELEASED_LINE, fairness_hold_line};

/// The first round starts streaming; a later one completes a restart.
pub(super) fn round_started(
    round: u32,
    answers_seen: &[AnswerLabel],
    vote_only: bool,
) -> Vec<String> {
    let head = if round == 1 {
        format!("{THINKING} Started streaming")
    } else {
        format!("{RESTART_DONE} RESTART COMPLETED (round {round})")
    };
    let seen: Vec<String> = answers_seen.iter().map(ToString::to_string).collect();
    let only = if vote_only { " (vote only)" } else { "" };
    vec![
        head,
        format!("{CONTEXT} Context: [{}]{only}", seen.join(", ")),
    ]
}

pub(super) fn restart_triggered(reason: &str) -> Vec<String> {
    vec![format!("{RESTART} RESTART TRIGGERED"), reason.to_string()]
}

pub(super) fn update_injected(labels: &[AnswerLabel]) -> Vec<String> {
    let labels: Vec<String> = labels.iter().map(ToString::to_string).collect();
    vec![
        format!("{UPDATE} UPDATE RECEIVED"),
        format!("new answers: {}", labels.join(", ")),
    ]
}

pub(super) fn human_input(text: &str) -> Vec<String> {
    vec![format!("{UPDATE} UPDATE RECEIVED"), flatten(text)]
}

pub(super) fn orchestration_restarted(attempt: u32, max_attempts: u32) -> Vec<String> {
    vec![format!(
        "{RESTART} ORCHESTRATION RESTART (attempt {attempt}/{max_attempts})"
    )]
}

pub(super) fn fairness_hold(lead: u32, cap: u32) -> Vec<String> {
    vec![
        format!("{HELD} HELD (fairness)"),
        fairness_hold_line(lead, cap),
    ]
}

pub(super) fn fairness_released() -> Vec<String> {
    vec![format!("{RELEASED} {FAIRNESS_RELEASED_LINE}")]
}
