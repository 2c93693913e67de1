//! The timeline entries of answers and votes, the winner, the winner's check of its answer
//! and the final answer.

use crate::protocol::{
    AgentId, AnswerLabel, FinalAnswerStrategy, PostEvaluationOutcome, VoteCount, WinnerBasis,
};
use crate::tui::state::timeline::{EntryKind, preview};

pub(super) fn answer(label: &AnswerLabel, content: &str) -> EntryKind {
    EntryKind::Answer {
        label: label.clone(),
        preview: preview(content, 120),
    }
}

pub(super) fn vote(target: &AgentId, target_label: &AnswerLabel, reason: &str) -> EntryKind {
    EntryKind::Vote {
        target: target.clone(),
        target_label: target_label.clone(),
        reason: reason.to_string(),
    }
}

pub(super) fn vote_ignored(target: &AgentId, why: &str) -> EntryKind {
    EntryKind::VoteIgnored {
        target: target.clone(),
        why: why.to_string(),
    }
}

pub(super) fn winner(tally: &[VoteCount], is_tie: bool, basis: WinnerBasis) -> EntryKind {
    EntryKind::Winner {
        tally: tally.to_vec(),
        is_tie,
        basis,
    }
}

pub(super) fn checked(outcome: &PostEvaluationOutcome) -> EntryKind {
    EntryKind::PostEvaluation {
        outcome: Some(outcome.clone()),
    }
}

pub(super) fn presenting(label: &AnswerLabel, strategy: FinalAnswerStrategy) -> EntryKind {
    EntryKind::Presenting {
        label: label.clone(),
        strategy,
    }
}

pub(super) fn overridden(label: &AnswerLabel, agent: &AgentId) -> EntryKind {
    EntryKind::Overridden {
        label: label.clone(),
        agent: agent.clone(),
    }
}

/// Which timeout a stored answer stands after is filled in when the entry is added.
pub(super) fn final_done(fallback: bool) -> EntryKind {
    EntryKind::FinalDone {
        fallback,
        after_timeout: None,
    }
}
