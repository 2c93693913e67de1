//! The winner's final answer on its card: started, streamed, settled.

use super::{AgentCard, CardItem, FinalAnswer, Phase, TextBlock, UiState};
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

impl UiState {
    /// The user chose the answer `label` by `author` as the final answer. During the turn
    /// the interrupted presentation goes and `author` becomes the winner (its card gets the
    /// final answer when `FinalPresentationDone` follows); after the turn, the turn's record
    /// holds the chosen answer.
    pub(super) fn final_overridden(
        &mut self,
        turn: u32,
        label: &AnswerLabel,
        author: &AgentId,
        content: &str,
    ) {
        let chosen = FinalAnswer {
            agent: author.clone(),
            label: label.clone(),
            content: content.to_string(),
        };
        let ended = self
            .turns
            .iter_mut()
            .rev()
            .find(|record| record.turn == turn && turn != 0);
        let after_turn = ended.is_some();
        if let Some(record) = ended {
            record.winner = Some(author.clone());
            record.final_answer = Some(chosen);
        }
        if turn != self.turn {
            return;
        }
        for card in &mut self.agents {
            // During the turn only the interrupted presentation goes; the chosen answer
            // arrives with `FinalPresentationDone`.
            card.items.retain(
                |item| !matches!(item, CardItem::Final { done, .. } if after_turn || !done),
            );
            card.is_winner = &card.info.id == author;
            if after_turn && card.is_winner {
                card.items.push(CardItem::Final {
                    label: label.clone(),
                    body: TextBlock::from(content),
                    done: true,
                });
            }
        }
        self.winner = Some(author.clone());
    }
}
