//! The cells of answers and votes, the winner, the winner's check of its answer and the
//! final answer.

use super::{PREVIEW, flatten, votes_of};
use crate::protocol::symbols::{
    APPROACH, CHECKLIST, ERROR, EVALUATE, FINAL_ANSWER, NEW_ANSWER, RESTART, THINKING, VOTE,
    VOTE_IGNORED, WINNER,
};
use crate::protocol::{AgentId, AnswerLabel, PostEvaluationOutcome, TimeoutScope, VoteCount};
use crate::protocol::{ChecklistResult, DraftedApproach};
use crate::text::truncate;

pub(super) fn new_answer(label: &AnswerLabel, content: &str) -> Vec<String> {
    vec![
        format!("{NEW_ANSWER} NEW ANSWER ({label})"),
        format!("\"{}\"", truncate(&flatten(content), PREVIEW)),
    ]
}

pub(super) fn vote(target: &AgentId, target_label: &AnswerLabel, reason: &str) -> Vec<String> {
    vec![
        format!("{VOTE} VOTE → {target} ({target_label})"),
        format!("{THINKING} {reason}"),
    ]
}

pub(super) fn checklist(result: &ChecklistResult) -> Vec<String> {
    vec![
        format!("{CHECKLIST} CHECKLIST → {}", result.verdict.action()),
        result.summary(),
    ]
}

pub(super) fn approach(approach: &DraftedApproach) -> Vec<String> {
    vec![format!("{APPROACH} APPROACH"), approach.summary()]
}

pub(super) fn vote_ignored(target: &AgentId, why: &str) -> Vec<String> {
    vec![
        format!("{VOTE_IGNORED} VOTE IGNORED → {target}"),
        why.to_string(),
    ]
}

pub(super) fn winner(winner: &AgentId, tally: &[VoteCount]) -> Vec<String> {
    vec![
        format!("{WINNER} Winner selected"),
        crate::text::plural(votes_of(tally, winner) as usize, "vote"),
    ]
}

pub(super) fn checking() -> Vec<String> {
    vec![format!("{EVALUATE} CHECKING THE FINAL ANSWER")]
}

pub(super) fn checked(outcome: &PostEvaluationOutcome) -> Vec<String> {
    match outcome {
        PostEvaluationOutcome::Submitted => vec![format!("{EVALUATE} SUBMITTED")],
        PostEvaluationOutcome::RestartRequested { reason, .. } => vec![
            format!("{RESTART} RESTART REQUESTED"),
            truncate(&flatten(reason), PREVIEW),
        ],
        PostEvaluationOutcome::Failed { message } => vec![
            format!("{ERROR} CHECK FAILED (answer kept)"),
            truncate(&flatten(message), PREVIEW),
        ],
    }
}

/// A stored answer standing as the final answer says why: the last timeout of the turn,
/// else a failed presentation.
pub(super) fn final_answer(
    label: &AnswerLabel,
    fallback: bool,
    timed_out: Option<TimeoutScope>,
) -> Vec<String> {
    let mut lines = vec![format!("{FINAL_ANSWER} FINAL ANSWER ({label})")];
    if fallback {
        lines.push(
            match timed_out {
                Some(TimeoutScope::Orchestrator) => "its stored answer: time ran out",
                Some(TimeoutScope::Presentation) => "its stored answer: presenting took too long",
                None => "its stored answer: the presentation failed",
            }
            .into(),
        );
    }
    lines
}

pub(super) fn overridden(label: &AnswerLabel) -> Vec<String> {
    vec![format!("👤 OVERRIDE: final answer is {label}")]
}
