//! The live vote tally: who currently votes for whom, and the standing tally coordination
//! sends with every vote. A new answer voids the votes it names as reset, a dropped agent's
//! vote goes with it; the winner's final tally replaces the live one.

use crate::protocol::{AgentId, VoteCount, WinnerBasis};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct VoteTally {
    /// Agents with an answer, in config order: the candidates.
    pub candidates: Vec<AgentId>,
    /// Standing votes: (voter, target, reason).
    pub votes: Vec<(AgentId, AgentId, String)>,
    /// Coordination's count of the standing votes, from the latest vote, less the votes
    /// reset or dropped since. `None` in logs from before votes carried it: the bars then
    /// count `votes`.
    pub standing: Option<Vec<VoteCount>>,
    /// Set once the winner is chosen.
    pub final_tally: Option<Vec<VoteCount>>,
    /// How the winner was chosen, once it is.
    pub final_basis: Option<WinnerBasis>,
}

/// The candidate ahead: the most votes, a tie going to config order as coordination
/// breaks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leader {
    pub agent: AgentId,
    pub votes: u32,
    /// Others have as many votes: config order puts this one first.
    pub tied: bool,
}

/// One bar of the tally pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    pub candidate: AgentId,
    pub votes: u32,
    /// The single candidate with the most votes (none on a tie or with no votes).
    pub leader: bool,
}

impl VoteTally {
    /// A new answer: its author becomes a candidate, and the votes it reset (every vote,
    /// in a log that does not name them) are void.
    pub fn answer(
        &mut self,
        author: &AgentId,
        roster: &[AgentId],
        votes_reset: Option<&[AgentId]>,
    ) {
        if !self.candidates.contains(author) {
            self.candidates.push(author.clone());
            self.candidates.sort_by_key(|candidate| {
                roster
                    .iter()
                    .position(|agent| agent == candidate)
                    .unwrap_or(usize::MAX)
            });
        }
        match votes_reset {
            Some(voters) => self.withdraw(voters),
            None => {
                self.votes.clear();
                self.standing = None;
            }
        }
    }

    /// A vote, with the tally coordination counted with it (`None` in an older log).
    pub fn vote(
        &mut self,
        voter: &AgentId,
        target: &AgentId,
        reason: &str,
        standing: Option<&[VoteCount]>,
    ) {
        self.votes.retain(|(existing, _, _)| existing != voter);
        self.votes
            .push((voter.clone(), target.clone(), reason.to_string()));
        self.standing = standing.map(<[VoteCount]>::to_vec);
    }

    /// The `voters`' votes no longer count: coordination reset them or dropped the voter.
    pub fn withdraw(&mut self, voters: &[AgentId]) {
        self.votes.retain(|(voter, _, _)| !voters.contains(voter));
        for count in self.standing.iter_mut().flatten() {
            count.withdraw(voters);
        }
    }

    /// Bars in candidate order, from the final tally once there is one.
    pub fn bars(&self) -> Vec<Bar> {
        let counts: Vec<(AgentId, u32)> = match &self.final_tally {
            Some(tally) => tally
                .iter()
                .map(|count| (count.agent.clone(), count.votes))
                .collect(),
            None => self
                .candidates
                .iter()
                .map(|candidate| (candidate.clone(), self.votes_for(candidate)))
                .collect(),
        };
        let most = counts.iter().map(|(_, votes)| *votes).max().unwrap_or(0);
        let at_most = counts.iter().filter(|(_, votes)| *votes == most).count();
        counts
            .into_iter()
            .map(|(candidate, votes)| Bar {
                leader: most > 0 && at_most == 1 && votes == most,
                candidate,
                votes,
            })
            .collect()
    }

    /// Who leads, by the bars' count (none before the first vote).
    pub fn leader(&self) -> Option<Leader> {
        let bars = self.bars();
        let most = bars
            .iter()
            .map(|bar| bar.votes)
            .max()
            .filter(|most| *most > 0)?;
        let first = bars.iter().find(|bar| bar.votes == most)?;
        Some(Leader {
            agent: first.candidate.clone(),
            votes: most,
            tied: !first.leader,
        })
    }

    /// Several candidates share the most votes (at least one).
    pub fn is_tie(&self) -> bool {
        let bars = self.bars();
        let most = bars.iter().map(|bar| bar.votes).max().unwrap_or(0);
        most > 0 && bars.iter().filter(|bar| bar.votes == most).count() > 1
    }

    /// How many votes stand: coordination's count, or the votes seen in an older log.
    pub fn standing_votes(&self) -> usize {
        match &self.standing {
            Some(tally) => tally
                .iter()
                .map(|count| usize::try_from(count.votes).unwrap_or(usize::MAX))
                .sum(),
            None => self.votes.len(),
        }
    }

    /// `candidate`'s standing votes: from coordination's tally, else counted from `votes`.
    fn votes_for(&self, candidate: &AgentId) -> u32 {
        match &self.standing {
            Some(tally) => tally
                .iter()
                .find(|count| &count.agent == candidate)
                .map_or(0, |count| count.votes),
            None => u32::try_from(
                self.votes
                    .iter()
                    .filter(|(_, target, _)| target == candidate)
                    .count(),
            )
            .unwrap_or(u32::MAX),
        }
    }
}

#[cfg(test)]
#[path = "votes_tests.rs"]
mod tests;
