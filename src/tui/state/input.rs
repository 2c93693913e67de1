//! Text the user typed during a turn: queued for the agents, delivered to each with its
//! next tool result, dropped once every agent still working has it. Its timeline row says
//! where it stands: queued, delivered (to whom), or not delivered when the turn ended first.

use super::{AgentCard, Delivery, EntryKind, Timeline, TimelineEntry};
use crate::protocol::{AgentId, AgentStatus, Event};

/// Text the user typed during a turn, waiting for each agent's next tool result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedInput {
    pub text: String,
    pub delivered_to: Vec<AgentId>,
}

/// The human input not yet delivered to every agent, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputQueue {
    queued: Vec<QueuedInput>,
}

impl InputQueue {
    pub fn is_empty(&self) -> bool {
        self.queued.is_empty()
    }

    pub fn len(&self) -> usize {
        self.queued.len()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, QueuedInput> {
        self.queued.iter()
    }

    pub(super) fn queue(&mut self, text: &str) {
        self.queued.push(QueuedInput {
            text: text.to_string(),
            delivered_to: Vec::new(),
        });
    }

    /// `agent` received `text` with a tool result during turn `turn`.
    pub(super) fn delivered(
        &mut self,
        agent: &AgentId,
        text: &str,
        timeline: &mut Timeline,
        turn: u32,
    ) {
        if let Some(queued) = self.queued.iter_mut().find(|queued| queued.text == text)
            && !queued.delivered_to.contains(agent)
        {
            queued.delivered_to.push(agent.clone());
        }
        let row = input_row(timeline, turn, text, |delivery| {
            delivery != &Delivery::NotDelivered
        });
        if let Some(delivery) = row {
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

    /// Drops queued input every agent still working has received.
    pub(super) fn settle(&mut self, cards: &[AgentCard]) {
        let active: Vec<&AgentId> = cards
            .iter()
            .filter(|card| !matches!(card.status, AgentStatus::Error | AgentStatus::Done))
            .map(|card| &card.info.id)
            .collect();
        self.queued.retain(|queued| {
            !active
                .iter()
                .all(|agent| queued.delivered_to.contains(agent))
        });
    }

    /// Turn `turn` ended (with `event`): input no agent received (none made another tool
    /// call) has its timeline row say so, once per text, and the queue empties.
    pub(super) fn turn_ended(&mut self, turn: u32, event: &Event, timeline: &mut Timeline) {
        let undelivered = self
            .queued
            .drain(..)
            .filter(|queued| queued.delivered_to.is_empty());
        for QueuedInput { text, .. } in undelivered {
            let row = input_row(timeline, turn, &text, |delivery| {
                delivery == &Delivery::Queued
            });
            if let Some(delivery) = row {
                *delivery = Delivery::NotDelivered;
                continue;
            }
            timeline.push(TimelineEntry {
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

    pub(super) fn clear(&mut self) {
        self.queued.clear();
    }
}

impl<'a> IntoIterator for &'a InputQueue {
    type Item = &'a QueuedInput;
    type IntoIter = std::slice::Iter<'a, QueuedInput>;

    fn into_iter(self) -> Self::IntoIter {
        self.queued.iter()
    }
}

/// The newest timeline row of turn `turn` for input `text` whose delivery `wanted`.
fn input_row<'a>(
    timeline: &'a mut Timeline,
    turn: u32,
    text: &str,
    wanted: impl Fn(&Delivery) -> bool,
) -> Option<&'a mut Delivery> {
    timeline.turn_mut(turn).find_map(|entry| {
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
