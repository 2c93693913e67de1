//! The debate's thread as it is recorded and logged: critiques, revisions, rounds, final
//! votes and the vote's outcome.

use serde::Serialize;

use crate::protocol::AgentId;

/// One member's critique of one peer's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Critique {
    pub critic: AgentId,
    pub target: AgentId,
    pub content: String,
    /// The critic replied in text, which counts as one critique of every peer shown.
    pub from_text: bool,
}

/// A member's answer after a revision stage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Revision {
    pub agent: AgentId,
    pub content: String,
    /// The same text as before: it defended its answer.
    pub kept: bool,
}

/// One round of critique and revision.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DebateRound {
    pub round: u32,
    pub critiques: Vec<Critique>,
    pub revisions: Vec<Revision>,
}

/// A member's vote among the final answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FinalVote {
    pub voter: AgentId,
    pub target: AgentId,
    pub reason: String,
}

/// The final vote's outcome: the winner, every live member's votes (config order), and
/// whether several shared the most votes (the first in config order won).
#[derive(Clone, Debug, PartialEq)]
pub struct VoteResult {
    pub winner: AgentId,
    pub tally: Vec<(AgentId, u32)>,
    pub is_tie: bool,
}
