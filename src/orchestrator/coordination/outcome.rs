//! How coordination ends: the winner and the vote tally, and what the presenter is told
//! (the votes it received and every agent's latest answer).

use super::Coordination;
use crate::protocol::{AgentId, AnswerLabel, VoteCount, WinnerBasis};

#[derive(Clone, Debug, PartialEq)]
pub struct WinnerDecision {
    pub winner: AgentId,
    pub tally: Vec<VoteCount>,
    pub is_tie: bool,
    pub basis: WinnerBasis,
}

/// Whose answers may win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidates {
    /// Every agent with an answer, killed or not: votes count as cast (as MassGen does when
    /// coordination ends normally). A killed winner presents its stored answer.
    AllAnswers,
    /// Live agents with answers, or every agent with an answer if none is live (after a
    /// timeout, MassGen picks among the agents still running).
    PreferLive,
}

/// `(voter, reason)` pairs for the votes an agent received.
pub type Feedback = Vec<(AgentId, String)>;

impl Coordination {
    /// Most votes wins; ties go to config order; with no votes, the first agent (config
    /// order) with an answer.
    pub fn decide_winner(&self, candidates: Candidates) -> Option<WinnerDecision> {
        if let Some(decision) = self.presenter_decision() {
            return Some(decision);
        }
        let with_answers: Vec<usize> = (0..self.order.len())
            .filter(|&index| !self.states[index].answers.is_empty())
            .collect();
        let live: Vec<usize> = with_answers
            .iter()
            .copied()
            .filter(|&index| !self.states[index].killed)
            .collect();
        let candidates = match candidates {
            Candidates::AllAnswers => with_answers.clone(),
            Candidates::PreferLive if live.is_empty() => with_answers.clone(),
            Candidates::PreferLive => live,
        };
        let tally = self.standing_tally();
        let votes_for = |index: usize| -> u32 {
            tally
                .iter()
                .find(|count| count.agent == self.order[index])
                .map_or(0, |count| count.votes)
        };
        let best = candidates.iter().map(|&index| votes_for(index)).max()?;
        let leaders: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&index| votes_for(index) == best)
            .collect();
        let winner = *leaders.first()?;
        let (is_tie, basis) = if best == 0 {
            (false, WinnerBasis::FirstAnswer)
        } else if leaders.len() > 1 {
            (true, WinnerBasis::TieBrokenByConfigOrder)
        } else {
            (false, WinnerBasis::Votes)
        };
        Some(WinnerDecision {
            winner: self.order[winner].clone(),
            tally,
            is_tie,
            basis,
        })
    }

    /// The votes that count now: every agent with an answer (config order), with who
    /// votes for it. The final tally when coordination ends; sent with every vote before.
    pub fn standing_tally(&self) -> Vec<VoteCount> {
        self.order
            .iter()
            .zip(&self.states)
            .filter(|(_, state)| !state.answers.is_empty())
            .map(|(candidate, state)| {
                let voters: Vec<AgentId> = self
                    .order
                    .iter()
                    .zip(&self.states)
                    .filter(|(_, voter)| {
                        voter
                            .vote
                            .as_ref()
                            .is_some_and(|vote| !vote.stop && &vote.target == candidate)
                    })
                    .map(|(voter, _)| voter.clone())
                    .collect();
                VoteCount {
                    agent: candidate.clone(),
                    anon_id: state.anon.clone(),
                    votes: u32::try_from(voters.len()).unwrap_or(u32::MAX),
                    voters,
                }
            })
            .collect()
    }

    /// Every answer of the turn (superseded ones too): label, author and text, config order.
    pub fn all_answers(&self) -> Vec<(AnswerLabel, AgentId, String)> {
        self.order
            .iter()
            .zip(&self.states)
            .flat_map(|(id, state)| {
                state.answers.iter().enumerate().map(|(index, content)| {
                    (
                        AnswerLabel::answer(&state.anon, index + 1),
                        id.clone(),
                        content.clone(),
                    )
                })
            })
            .collect()
    }

    /// The answer labelled `label` (`agent2.1`) and its author.
    pub fn answer_by_label(&self, label: &AnswerLabel) -> Option<(AgentId, &str)> {
        self.order.iter().zip(&self.states).find_map(|(id, state)| {
            let (anon, ordinal) = label.as_str().rsplit_once('.')?;
            let ordinal: usize = ordinal.parse().ok()?;
            if anon != state.anon.as_str() || ordinal == 0 {
                return None;
            }
            Some((id.clone(), state.answers.get(ordinal - 1)?.as_str()))
        })
    }

    /// The agent's latest answer and its label.
    pub fn latest_answer(&self, agent: &AgentId) -> Option<(AnswerLabel, &str)> {
        let state = self.state(agent)?;
        let content = state.answers.last()?;
        Some((
            AnswerLabel::answer(&state.anon, state.answers.len()),
            content,
        ))
    }

    /// Every agent's latest answer with its real id, config order.
    pub fn latest_answers(&self) -> Vec<(AgentId, &str)> {
        self.order
            .iter()
            .zip(&self.states)
            .filter_map(|(id, state)| Some((id.clone(), state.answers.last()?.as_str())))
            .collect()
    }

    /// Who voted for `agent`, and why.
    pub fn feedback_for(&self, agent: &AgentId) -> Feedback {
        self.order
            .iter()
            .zip(&self.states)
            .filter_map(|(voter, state)| {
                let vote = state.vote.as_ref()?;
                (!vote.stop && &vote.target == agent).then(|| (voter.clone(), vote.reason.clone()))
            })
            .collect()
    }
}
