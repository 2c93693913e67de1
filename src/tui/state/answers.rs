//! Answers and votes as they arrive: on the author's or voter's card, in the tally, and in
//! the phase the status bar shows.

use super::{CardItem, Phase, UiState};
use crate::protocol::{AgentId, AnswerLabel, VoteCount};

impl UiState {
    pub(super) fn answer_submitted(
        &mut self,
        agent: Option<&AgentId>,
        label: &AnswerLabel,
        content: &str,
        votes_reset: Option<&[AgentId]>,
    ) {
        let roster: Vec<AgentId> = self
            .agents
            .iter()
            .map(|card| card.info.id.clone())
            .collect();
        if let Some(author) = agent {
            self.votes.answer(author, &roster, votes_reset);
        }
        if let Some(card) = self.agent_mut(agent) {
            card.answers += 1;
            card.items.push(CardItem::Answer {
                label: label.clone(),
                content: content.to_string(),
            });
        }
        // A stray event after the turn ended must not make the app think one runs.
        if self.phase != Phase::Idle {
            self.phase = Phase::Coordinating;
        }
    }

    pub(super) fn vote_cast(
        &mut self,
        agent: Option<&AgentId>,
        target: &AgentId,
        target_label: &AnswerLabel,
        reason: &str,
        standing: Option<&[VoteCount]>,
    ) {
        if let Some(voter) = agent {
            self.votes.vote(voter, target, reason, standing);
            if self.phase != Phase::Idle {
                self.phase = Phase::Voting;
            }
        }
        if let Some(card) = self.agent_mut(agent) {
            card.items.push(CardItem::Vote {
                target_label: target_label.clone(),
                target: target.to_string(),
                reason: reason.to_string(),
            });
        }
    }
}
