//! The winner's final answer on its card: started, streamed, settled.

use super::{AgentCard, CardItem, Phase, TextBlock, UiState};
use crate::protocol::{AgentId, AnswerLabel};

impl UiState {
    pub(super) fn final_started(&mut self, agent: Option<&AgentId>, label: &AnswerLabel) {
        self.phase = Phase::Presenting;
        if let Some(card) = self.agent_mut(agent) {
            card.items.push(CardItem::Final {
                label: label.clone(),
                body: TextBlock::default(),
                done: false,
            });
        }
    }

    pub(super) fn final_delta(&mut self, agent: Option<&AgentId>, text: &str) {
        if let Some((existing, _)) = self.agent_mut(agent).and_then(AgentCard::final_mut) {
            existing.push(text);
        }
    }

    /// The answer as settled; it replaces what streamed when the two differ (a fallback).
    pub(super) fn final_done(
        &mut self,
        agent: Option<&AgentId>,
        label: &AnswerLabel,
        content: &str,
    ) {
        let Some(card) = self.agent_mut(agent) else {
            return;
        };
        if let Some((body, done)) = card.final_mut() {
            if body.text != content {
                body.set(content);
            }
            *done = true;
        } else {
            card.items.push(CardItem::Final {
                label: label.clone(),
                body: TextBlock::from(content),
                done: true,
            });
        }
    }
}

/// The turn's final answer as the final view shows it.
pub struct PresentedAnswer<'a> {
    /// The presenting agent's place in config order.
    pub agent: usize,
    pub label: &'a AnswerLabel,
    pub body: &'a TextBlock,
    /// Settled (the presentation ended), not still streaming.
    pub done: bool,
}

impl UiState {
    /// The final answer of this turn: the winner's presentation, else the newest one any
    /// card holds (it is being presented).
    pub fn final_answer(&self) -> Option<PresentedAnswer<'_>> {
        fn latest((agent, card): (usize, &AgentCard)) -> Option<PresentedAnswer<'_>> {
            card.items.iter().rev().find_map(|item| {
                if let CardItem::Final { label, body, done } = item {
                    Some(PresentedAnswer {
                        agent,
                        label,
                        body,
                        done: *done,
                    })
                } else {
                    None
                }
            })
        }
        self.agents
            .iter()
            .enumerate()
            .filter(|(_, card)| card.is_winner)
            .find_map(latest)
            .or_else(|| self.agents.iter().enumerate().find_map(latest))
    }
}
