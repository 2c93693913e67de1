//! Every vote of a turn and what became of it — counted in the tally that chose the
//! winner, reset by a newer answer, or neither — as the coordination recorded it in the
//! events: an answer names the votes it reset, the tally names the voters that counted.
//! `/inspect`, `/export` and `massgen logs summary` all read votes from here.

use crate::protocol::{AgentId, AnswerLabel, EventMsg, VoteCount};

/// What became of a vote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VoteFate {
    /// No tally yet, and no newer answer: it counts if coordination ends now. A turn that
    /// ended without choosing a winner leaves its votes standing.
    Standing,
    /// In the tally that chose the winner.
    Counted,
    /// `by`'s answer `label` reset it, so it does not count.
    Reset { by: AgentId, label: AnswerLabel },
    /// It does not count, for the reason given.
    Void { why: &'static str },
}

impl VoteFate {
    /// `reset by scout's answer agent2.2`, `its voter was dropped`; empty for a vote that
    /// counts or stands.
    pub fn note(&self) -> String {
        match self {
            Self::Standing | Self::Counted => String::new(),
            Self::Reset { by, label } => format!("reset by {by}'s answer {label}"),
            Self::Void { why } => (*why).to_string(),
        }
    }
}

/// One vote as it was cast, and its fate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerVote {
    pub voter: AgentId,
    pub target: AgentId,
    pub target_label: AnswerLabel,
    pub reason: String,
    pub fate: VoteFate,
}

/// Votes per agent: cast (with how many of those a newer answer reset) and received in
/// the winner's tally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VoteCounts {
    pub cast: u32,
    pub reset: u32,
    /// `None` when no winner was chosen, so no vote was received.
    pub received: Option<u32>,
}

/// The turn's votes in the order they were cast, folded from its events.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VoteLedger {
    votes: Vec<LedgerVote>,
    /// The tally that chose the winner, once there is one.
    tally: Option<Vec<VoteCount>>,
}

impl VoteLedger {
    /// Folds in one event about `agent` (its author, voter or subject).
    pub fn fold(&mut self, agent: Option<&AgentId>, msg: &EventMsg) {
        match msg {
            EventMsg::VoteCast {
                target,
                target_label,
                reason,
                ..
            } => {
                let Some(voter) = agent else { return };
                self.void_standing(|vote| &vote.voter == voter, "replaced by a later vote");
                self.votes.push(LedgerVote {
                    voter: voter.clone(),
                    target: target.clone(),
                    target_label: target_label.clone(),
                    reason: reason.clone(),
                    fate: VoteFate::Standing,
                });
            }
            EventMsg::AnswerSubmitted {
                label, votes_reset, ..
            } => {
                let Some(author) = agent else { return };
                for vote in self.votes.iter_mut().filter(|vote| {
                    vote.fate == VoteFate::Standing
                        && votes_reset
                            .as_ref()
                            .is_none_or(|voters| voters.contains(&vote.voter))
                }) {
                    vote.fate = VoteFate::Reset {
                        by: author.clone(),
                        label: label.clone(),
                    };
                }
            }
            EventMsg::AgentKilled { .. } => {
                if let Some(voter) = agent {
                    self.void_standing(|vote| &vote.voter == voter, "its voter was dropped");
                }
            }
            EventMsg::OrchestrationRestarted { .. } => {
                self.tally = None;
                self.void_standing(|_| true, "coordination restarted");
            }
            EventMsg::WinnerSelected { tally, .. } => self.settle(tally),
            _ => {}
        }
    }

    /// The tally chose the winner: a standing vote counted if the tally names its voter
    /// (in a log from before tallies named voters, every standing vote counted).
    fn settle(&mut self, tally: &[VoteCount]) {
        let names_voters = tally.iter().any(|count| !count.voters.is_empty());
        for vote in &mut self.votes {
            if vote.fate != VoteFate::Standing {
                continue;
            }
            let counted = !names_voters
                || tally
                    .iter()
                    .any(|count| count.agent == vote.target && count.voters.contains(&vote.voter));
            vote.fate = if counted {
                VoteFate::Counted
            } else {
                VoteFate::Void {
                    why: "not in the final tally",
                }
            };
        }
        self.tally = Some(tally.to_vec());
    }

    fn void_standing(&mut self, whose: impl Fn(&LedgerVote) -> bool, why: &'static str) {
        for vote in &mut self.votes {
            if vote.fate == VoteFate::Standing && whose(vote) {
                vote.fate = VoteFate::Void { why };
            }
        }
    }

    /// Every vote, in the order cast.
    pub fn votes(&self) -> &[LedgerVote] {
        &self.votes
    }

    /// The tally that chose the winner, if one was chosen.
    pub fn tally(&self) -> Option<&[VoteCount]> {
        self.tally.as_deref()
    }

    /// `agent`'s votes cast and reset, and received in the tally.
    pub fn counts(&self, agent: &AgentId) -> VoteCounts {
        let cast = self.votes.iter().filter(|vote| &vote.voter == agent);
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        VoteCounts {
            cast: count(cast.clone().count()),
            reset: count(
                cast.filter(|vote| matches!(vote.fate, VoteFate::Reset { .. }))
                    .count(),
            ),
            received: self.tally.as_ref().map(|tally| {
                tally
                    .iter()
                    .find(|count| &count.agent == agent)
                    .map_or(0, |count| count.votes)
            }),
        }
    }
}

#[cfg(test)]
mod tests;
