//! Human input typed during a turn, delivered once to each agent with its next tool result.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::protocol::AgentId;

#[derive(Clone, Default)]
pub struct HumanInbox {
    state: Arc<Mutex<InboxState>>,
}

#[derive(Default)]
struct InboxState {
    messages: Vec<String>,
    delivered: HashMap<AgentId, usize>,
}

impl HumanInbox {
    pub fn push(&self, text: String) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .messages
            .push(text);
    }

    /// Messages this agent has not received yet; they count as delivered now.
    pub fn take_for(&self, agent: &AgentId) -> Vec<String> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let total = state.messages.len();
        let seen = state.delivered.insert(agent.clone(), total).unwrap_or(0);
        state.messages[seen.min(total)..].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_gets_each_message_once() {
        let inbox = HumanInbox::default();
        let (a, b) = (AgentId::new("a"), AgentId::new("b"));
        inbox.push("focus on cost".into());
        assert_eq!(inbox.take_for(&a), vec!["focus on cost"]);
        assert!(inbox.take_for(&a).is_empty());
        inbox.push("and speed".into());
        assert_eq!(inbox.take_for(&b), vec!["focus on cost", "and speed"]);
        assert_eq!(inbox.take_for(&a), vec!["and speed"]);
    }
}
