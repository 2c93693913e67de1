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
