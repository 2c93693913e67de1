//! The coordination state machine: answers, votes, restarts, kills and the winner.
//!
//! Pure: no IO, no clock, no tasks. The runtime feeds it what agents did and turns its
//! answers into events. It is the single source of truth for votes, so an ignored or reset
//! vote can never leak into the tally. The winner decision is in `outcome`.

use crate::protocol::{AgentId, AnonymousMapping, AnswerLabel, EnforcementReason};

use super::novelty;
use agent_state::{AgentState, Vote};

mod agent_state;
pub mod answer_order;
pub mod bootstrap;
pub mod checklist;
mod checklist_calls;
mod checklist_gate;
pub mod council;
pub mod criteria;
pub mod debate;
mod debate_thread;
mod decomposition;
pub mod deliberation;
mod draft_approach;
mod fairness;
mod gap_report;
mod outcome;
pub mod ranking;
mod terms;
mod updates;

pub use checklist_gate::{ChecklistReply, ChecklistRules};
pub use decomposition::StopOutcome;
pub use draft_approach::ApproachReply;
pub use gap_report::Report;
pub use outcome::{Candidates, Feedback, WinnerDecision};
pub use terms::{AcceptedAnswer, Rejection, RoundView, Rules, VisibleAnswer, VoteOutcome};
pub use updates::{FreshAnswer, Update};

#[derive(Clone, Debug)]
pub struct Coordination {
    order: Vec<AgentId>,
    states: Vec<AgentState>,
    mapping: AnonymousMapping,
    rules: Rules,
}

impl Coordination {
    /// Agents in config order; that order breaks ties.
    pub fn new(agents: Vec<AgentId>, rules: Rules) -> Self {
        let mapping = AnonymousMapping::new(&agents);
        Self::among(mapping, agents, rules)
    }

    /// `participants` (config order) take part, under the anonymous ids of the run's
    /// whole roster (`mapping`), so one agent working alone keeps the id its workspace
    /// copies and the front ends know it by.
    pub fn among(mapping: AnonymousMapping, participants: Vec<AgentId>, rules: Rules) -> Self {
        let mut unique: Vec<AgentId> = Vec::with_capacity(participants.len());
        for id in participants {
            if !unique.contains(&id) {
                unique.push(id);
            }
        }
        let (order, states) = unique
            .into_iter()
            .filter_map(|id| {
                let gated = rules
                    .checklist
                    .as_ref()
                    .is_some_and(|checklist| checklist.gated.contains(&id));
                let state = AgentState::new(mapping.anon(&id)?.clone(), gated);
                Some((id, state))
            })
            .unzip();
        Self {
            order,
            states,
            mapping,
            rules,
        }
    }

    pub fn mapping(&self) -> &AnonymousMapping {
        &self.mapping
    }

    pub fn agents(&self) -> &[AgentId] {
        &self.order
    }

    fn index(&self, agent: &AgentId) -> Option<usize> {
        self.order.iter().position(|candidate| candidate == agent)
    }

    fn state(&self, agent: &AgentId) -> Option<&AgentState> {
        self.index(agent).map(|index| &self.states[index])
    }

    /// An agent that is alive, not in a round, and has no valid vote needs a round — unless
    /// it is done answering where nobody votes, or must wait for the others' answers
    /// before it votes.
    pub fn needs_round(&self, agent: &AgentId) -> bool {
        let Some(index) = self.index(agent) else {
            return false;
        };
        let state = &self.states[index];
        if state.killed || state.in_round || state.vote.is_some() {
            return false;
        }
        if self.rules.skip_voting && !state.answers.is_empty() || self.paused_for_fairness(index) {
            return false;
        }
        // Once the team's answer budget is spent, nobody waits for answers that cannot come.
        let waits_for_answers = self.rules.defer_voting
            && self.is_vote_only(index)
            && !self.global_limit_reached()
            && !self.all_live_answered();
        !waits_for_answers
    }

    fn all_live_answered(&self) -> bool {
        self.states
            .iter()
            .all(|state| state.killed || !state.answers.is_empty())
    }

    pub fn is_killed(&self, agent: &AgentId) -> bool {
        self.state(agent).is_some_and(|state| state.killed)
    }

    /// Starts a round: the agent now sees every current answer.
    pub fn begin_round(&mut self, agent: &AgentId) -> Option<RoundView> {
        let index = self.index(agent)?;
        let vote_only = self.is_vote_only(index);
        let seen = self.answer_counts();
        let state = &mut self.states[index];
        if state.rounds > 0 && state.restart_pending {
            state.updates += 1;
        }
        state.rounds += 1;
        state.restart_pending = false;
        state.in_round = true;
        state.injected_this_round = 0;
        state.seen = seen;
        state.checklist.reset();
        let round = state.rounds;
        let converging_checklists = state.checklist.converging();
        let answers = self.peer_answers();
        Some(RoundView {
            round,
            converging_checklists,
            vote_options: answers.iter().map(|answer| answer.anon.clone()).collect(),
            answers,
            vote_only,
        })
    }

    /// The round ended (whatever the outcome).
    pub fn end_round(&mut self, agent: &AgentId) {
        if let Some(index) = self.index(agent) {
            self.states[index].in_round = false;
        }
    }

    /// The agent used up its own answers, or the team used up `max_new_answers_global`.
    fn is_vote_only(&self, index: usize) -> bool {
        self.rules
            .max_new_answers_per_agent
            .is_some_and(|max| self.states[index].answers.len() >= max as usize)
            || self.global_limit_reached()
    }

    /// Every agent's answers together reached `max_new_answers_global`.
    fn global_limit_reached(&self) -> bool {
        self.rules.max_new_answers_global.is_some_and(|max| {
            let total: usize = self.states.iter().map(|state| state.answers.len()).sum();
            total >= max as usize
        })
    }

    /// The answers a member sees of its peers: none when members answer independently.
    fn peer_answers(&self) -> Vec<VisibleAnswer> {
        if self.rules.independent {
            Vec::new()
        } else {
            self.visible_answers()
        }
    }

    fn visible_answers(&self) -> Vec<VisibleAnswer> {
        self.mapping
            .pairs()
            .filter_map(|(anon, real)| {
                let state = self.state(real)?;
                let content = state.answers.last()?;
                Some(VisibleAnswer {
                    anon: anon.clone(),
                    label: AnswerLabel::answer(anon, state.answers.len()),
                    content: content.clone(),
                })
            })
            .collect()
    }

    /// Checks and records a new answer. Accepting it clears every vote and marks every
    /// other live agent for a restart.
    pub fn submit_answer(
        &mut self,
        agent: &AgentId,
        content: &str,
    ) -> Result<AcceptedAnswer, Rejection> {
        let Some(index) = self.index(agent) else {
            return Err(Rejection {
                reason: EnforcementReason::InvalidArguments,
                message: format!("unknown agent {agent}"),
            });
        };
        if let Some(max) = self.rules.max_new_answers_global
            && self.global_limit_reached()
        {
            return Err(Rejection {
                reason: EnforcementReason::AnswerLimit,
                message: format!(
                    "The global maximum of {max} new answer(s) has been reached across all \
                     agents. {}",
                    self.when_out_of_answers()
                ),
            });
        }
        if let Some(max) = self.rules.max_new_answers_per_agent
            && self.is_vote_only(index)
        {
            return Err(Rejection {
                reason: EnforcementReason::AnswerLimit,
                message: format!(
                    "You've reached the maximum of {max} new answer(s). {}",
                    self.when_out_of_answers()
                ),
            });
        }
        if let Some(refusal) = self.lead_cap_refusal(index) {
            return Err(refusal);
        }
        let content = content.trim();
        for existing in self.peer_answers() {
            if existing.content.trim() == content {
                return Err(Rejection {
                    reason: EnforcementReason::AnswerDuplicate,
                    message: format!(
                        "Answer already provided by {0}. Provide a different answer, or vote for \
                         {0} with the `vote` tool.",
                        existing.anon
                    ),
                });
            }
            if let Some(limit) = novelty::max_similarity(self.rules.novelty) {
                let similarity = novelty::jaccard(&existing.content, content);
                if similarity > limit {
                    return Err(Rejection {
                        reason: EnforcementReason::AnswerNotNovel,
                        message: format!(
                            "Your answer is too similar to {}'s answer ({:.0}% of words shared; at \
                             most {:.0}% is allowed here). Contribute something substantially \
                             different, or vote for the existing answer.",
                            existing.anon,
                            similarity * 100.0,
                            limit * 100.0
                        ),
                    });
                }
            }
        }
        self.states[index].answers.push(content.to_string());
        self.states[index].checklist.reset();
        self.states[index].answered_at = self.answer_counts().iter().sum();
        let votes_reset = self
            .order
            .iter()
            .zip(&self.states)
            .filter(|(_, state)| state.vote.is_some())
            .map(|(id, _)| id.clone())
            .collect();
        let inform = !self.rules.disable_injection;
        for (other, state) in self.states.iter_mut().enumerate() {
            state.vote = None;
            if inform && other != index && !state.killed {
                state.restart_pending = true;
            }
        }
        let anon = self.states[index].anon.clone();
        Ok(AcceptedAnswer {
            label: AnswerLabel::answer(&anon, self.states[index].answers.len()),
            anon,
            votes_reset,
        })
    }

    /// Checks and records a vote given as an anonymous id.
    pub fn submit_vote(
        &mut self,
        voter: &AgentId,
        target_anon: &str,
        reason: &str,
    ) -> Result<VoteOutcome, Rejection> {
        let Some(index) = self.index(voter) else {
            return Err(Rejection {
                reason: EnforcementReason::InvalidArguments,
                message: format!("unknown agent {voter}"),
            });
        };
        if self.rules.presenter.is_some() {
            return Err(Rejection {
                reason: EnforcementReason::InvalidVote,
                message: "Nobody votes in decomposition mode: call `stop` when your subtask is \
                          done."
                    .into(),
            });
        }
        let candidates = self.visible_answers();
        if candidates.is_empty() {
            return Err(Rejection {
                reason: EnforcementReason::InvalidVote,
                message: "Cannot vote yet: no answers exist. Submit your answer with `new_answer` \
                          first."
                    .into(),
            });
        }
        let Some(chosen) = candidates
            .iter()
            .find(|answer| answer.anon.as_str() == target_anon)
        else {
            let valid: Vec<&str> = candidates
                .iter()
                .map(|answer| answer.anon.as_str())
                .collect();
            return Err(Rejection {
                reason: EnforcementReason::InvalidVote,
                message: format!(
                    "Invalid agent_id '{target_anon}'. Valid agents: {}",
                    valid.join(", ")
                ),
            });
        };
        let target = self
            .mapping
            .real(chosen.anon.as_str())
            .cloned()
            .unwrap_or_else(|| voter.clone());
        let state = &self.states[index];
        if let Some(message) = checklist_gate::vote_refusal(
            self.rules.checklist.as_ref(),
            &state.checklist,
            state.answers.len(),
            self.is_vote_only(index),
        ) {
            return Err(Rejection {
                reason: EnforcementReason::ChecklistGate,
                message,
            });
        }
        if self.states[index].restart_pending {
            self.states[index].vote = None;
            return Ok(VoteOutcome::Ignored { target });
        }
        self.states[index].vote = Some(Vote {
            target: target.clone(),
            reason: reason.to_string(),
            stop: false,
        });
        Ok(VoteOutcome::Accepted {
            target,
            target_anon: chosen.anon.clone(),
            target_label: chosen.label.clone(),
            standing: self.standing_tally(),
        })
    }

    /// The agent takes no further part in this turn. Its answers stay visible.
    pub fn kill(&mut self, agent: &AgentId) {
        if let Some(index) = self.index(agent) {
            let state = &mut self.states[index];
            state.killed = true;
            state.in_round = false;
            state.vote = None;
        }
    }

    /// Coordination is over when every live agent holds a valid vote (where nobody votes:
    /// an answer) and no round runs.
    pub fn is_settled(&self) -> bool {
        let skip_voting = self.rules.skip_voting;
        self.states.iter().all(|state| {
            // Where nobody votes, an agent the global answer limit kept from answering
            // is done once it votes.
            let done = if skip_voting {
                !state.answers.is_empty() || state.vote.is_some()
            } else {
                state.vote.is_some()
            };
            state.killed || (done && !state.in_round)
        })
    }

    /// Agents that hold no valid vote and are not killed (used when time runs out).
    pub fn unfinished_agents(&self) -> Vec<AgentId> {
        self.order
            .iter()
            .zip(&self.states)
            .filter(|(_, state)| !state.killed && state.vote.is_none())
            .map(|(id, _)| id.clone())
            .collect()
    }
}

#[cfg(test)]
mod global_limit_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod updates_tests;
