//! Text the user typed during a turn: queued for the agents, delivered to each with its
//! next tool result, dropped once every agent still working has it. Its timeline row says
//! where it stands: queued, delivered (to whom), or not delivered when the turn ended first.

use super::{CardItem, Delivery, EntryKind, TimelineEntry, UiState};
use crate::protocol::{AgentId, AgentStatus, Event};

/// Text the user typed during a turn, waiting for each agent's next tool result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedInput {
    pub text: String,
    pub delivered_to: Vec<AgentId>,
}

impl UiState {
    pub(super) fn queue_input(&mut self, text: &str) {
        self.queued_input.push(QueuedInput {
            text: text.to_string(),
            delivered_to: Vec::new(),
        });
    }

    pub(super) fn input_delivered(&mut self, agent: Option<&AgentId>, text: &str) {
        if let Some(card) = self.agent_mut(agent) {
            card.items
                .push(CardItem::Notice(format!("human input: {text}")));
        }
        let Some(agent) = agent else {
            return;
        };
        if let Some(queued) = self
            .queued_input
            .iter_mut()
            .find(|queued| queued.text == text)
            && !queued.delivered_to.contains(agent)
        {
            queued.delivered_to.push(agent.clone());
        }
        if let Some(delivery) = self.input_row(text, |delivery| delivery != &Delivery::NotDelivered)
        {
            match delivery {
                Delivery::Queued => *delivery = Delivery::Delivered(vec![agent.clone()]),
                Delivery::Delivered(to) => {
                    if !to.contains(agent) {
                        to.push(agent.clone());
                    }
                }
                Delivery::NotDelivered => {}
            }
        }
    }

    /// The newest timeline row of this turn for input `text` whose delivery `wanted`.
    fn input_row(
        &mut self,
        text: &str,
        wanted: impl Fn(&Delivery) -> bool,
    ) -> Option<&mut Delivery> {
        let turn = self.turn;
        self.timeline
            .iter_mut()
            .rev()
            .take_while(|entry| entry.turn == turn)
            .find_map(|entry| {
                if let EntryKind::HumanInput {
                    text: queued,
                    delivery,
                } = &mut entry.kind
                    && queued == text
                    && wanted(delivery)
                {
                    Some(delivery)
                } else {
                    None
                }
            })
    }

    /// Drops queued input every agent still working has received.
    pub(super) fn settle_queued_input(&mut self) {
        let active: Vec<&AgentId> = self
            .agents
            .iter()
            .filter(|card| !matches!(card.status, AgentStatus::Error | AgentStatus::Done))
            .map(|card| &card.info.id)
            .collect();
        self.queued_input.retain(|queued| {
            !active
                .iter()
                .all(|agent| queued.delivered_to.contains(agent))
        });
    }

    /// The turn ended with input no agent received (none made another tool call): its
    /// timeline row says so, once per text, before the queue is emptied.
    pub(super) fn note_undelivered_input(&mut self, event: &Event) {
        let undelivered: Vec<String> = self
            .queued_input
            .iter()
            .filter(|queued| queued.delivered_to.is_empty())
            .map(|queued| queued.text.clone())
            .collect();
        for text in undelivered {
            if let Some(delivery) = self.input_row(&text, |delivery| delivery == &Delivery::Queued)
            {
                *delivery = Delivery::NotDelivered;
                continue;
            }
            self.timeline.push(TimelineEntry {
                seq: event.seq,
                at: event.at,
                turn: event.turn,
                agent: None,
                kind: EntryKind::HumanInput {
                    text,
                    delivery: Delivery::NotDelivered,
                },
            });
        }
    }
}
