//! Text the user typed during a turn: queued for the agents, delivered to each with its
//! next tool result, dropped once every agent still working has it.

use super::{CardItem, EntryKind, TimelineEntry, UiState};
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
        if let (Some(agent), Some(queued)) = (
            agent,
            self.queued_input
                .iter_mut()
                .find(|queued| queued.text == text),
        ) && !queued.delivered_to.contains(agent)
        {
            queued.delivered_to.push(agent.clone());
        }
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

    /// The turn ended with input no agent received (none made another tool call): the
    /// timeline says so, once per text, before the queue is emptied.
    pub(super) fn note_undelivered_input(&mut self, event: &Event) {
        let undelivered: Vec<String> = self
            .queued_input
            .iter()
            .filter(|queued| queued.delivered_to.is_empty())
            .map(|queued| queued.text.clone())
            .collect();
        for text in undelivered {
            self.timeline.push(TimelineEntry {
                seq: event.seq,
                at: event.at,
                turn: event.turn,
                agent: None,
                kind: EntryKind::Warning {
                    message: format!(
                        "not delivered, the agents finished first: {text} (Up brings it back)"
                    ),
                },
            });
        }
    }
}
