//! The timeline entries of the turn's flow: its start and end, restarts of an agent and of
//! the whole coordination, updates reaching an agent mid-round, and the user's queued text.

use crate::protocol::{AnswerLabel, TurnOutcome};
use crate::tui::state::timeline::{Delivery, EntryKind};

pub(super) fn started(turn: u32, question: &str) -> EntryKind {
    EntryKind::TurnStarted {
        turn,
        question: question.to_string(),
    }
}

pub(super) fn finished(outcome: TurnOutcome, duration_ms: u64) -> EntryKind {
    EntryKind::TurnFinished {
        outcome,
        duration_ms,
    }
}

pub(super) fn restarted(round: u32, reason: &str) -> EntryKind {
    EntryKind::Restarted {
        round,
        reason: reason.to_string(),
    }
}

pub(super) fn injected(labels: &[AnswerLabel]) -> EntryKind {
    EntryKind::Injected {
        labels: labels.to_vec(),
    }
}

pub(super) fn orchestration_restarted(
    attempt: u32,
    max_attempts: u32,
    reason: &str,
    instructions: &str,
) -> EntryKind {
    EntryKind::OrchestrationRestart {
        attempt,
        max_attempts,
        reason: reason.to_string(),
        instructions: instructions.to_string(),
    }
}

pub(super) fn human_input_queued(text: &str) -> EntryKind {
    EntryKind::HumanInput {
        text: text.to_string(),
        delivery: Delivery::Queued,
    }
}
