//! Human input typed during a turn (or dropped into `--inbox-dir`), delivered once to each
//! agent it is for with the agent's next tool result.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::protocol::AgentId;

#[derive(Clone, Default)]
pub struct HumanInbox {
    state: Arc<Mutex<InboxState>>,
}

#[derive(Default)]
struct InboxState {
    /// Each message with the agents it is for; none means every agent.
    messages: Vec<(String, Vec<AgentId>)>,
    delivered: HashMap<AgentId, usize>,
}

impl HumanInbox {
    /// Queues `text` for `targets`, or for every agent when `targets` is empty.
    pub fn push(&self, text: String, targets: Vec<AgentId>) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .messages
            .push((text, targets));
    }

    /// Messages for this agent it has not received yet; they count as delivered now.
    pub fn take_for(&self, agent: &AgentId) -> Vec<String> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let total = state.messages.len();
        let seen = state.delivered.insert(agent.clone(), total).unwrap_or(0);
        state.messages[seen.min(total)..]
            .iter()
            .filter(|(_, targets)| targets.is_empty() || targets.contains(agent))
            .map(|(text, _)| text.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_gets_each_message_once() {
        let inbox = HumanInbox::default();
        let (a, b) = (AgentId::new("a"), AgentId::new("b"));
        inbox.push("focus on cost".into(), Vec::new());
        assert_eq!(inbox.take_for(&a), vec!["focus on cost"]);
        assert!(inbox.take_for(&a).is_empty());
        inbox.push("and speed".into(), Vec::new());
        assert_eq!(inbox.take_for(&b), vec!["focus on cost", "and speed"]);
        assert_eq!(inbox.take_for(&a), vec!["and speed"]);
    }

    #[test]
    fn a_targeted_message_reaches_only_its_agents() {
        let inbox = HumanInbox::default();
        let (a, b, c) = (AgentId::new("a"), AgentId::new("b"), AgentId::new("c"));
        inbox.push("b and c: add tests".into(), vec![b.clone(), c.clone()]);
        assert!(inbox.take_for(&a).is_empty());
        assert_eq!(inbox.take_for(&b), vec!["b and c: add tests"]);
        assert_eq!(inbox.take_for(&c), vec!["b and c: add tests"]);
    }
}
