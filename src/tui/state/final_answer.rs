//! The turn's final answer as the final view shows it: the winner's presentation, started,
//! streamed or settled on its card.

use super::{AgentCard, CardItem, TextBlock};
use crate::protocol::AnswerLabel;

/// The turn's final answer as the final view shows it.
pub struct PresentedAnswer<'a> {
    /// The presenting agent's place in config order.
    pub agent: usize,
    pub label: &'a AnswerLabel,
    pub body: &'a TextBlock,
    /// Settled (the presentation ended), not still streaming.
    pub done: bool,
}

impl<'a> PresentedAnswer<'a> {
    /// The final answer on `cards`: the winner's presentation, else the newest one any card
    /// holds (it is being presented).
    pub(super) fn of(cards: &'a [AgentCard]) -> Option<Self> {
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
        cards
            .iter()
            .enumerate()
            .filter(|(_, card)| card.is_winner)
            .find_map(latest)
            .or_else(|| cards.iter().enumerate().find_map(latest))
    }
}
