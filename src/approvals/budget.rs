//! `max_consecutive_auto`: how many automatic approvals in a row an agent may get before
//! the next one needs a person (MassGen's `ApprovalBudget`).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use crate::protocol::AgentId;

/// Per-agent streaks of automatic approvals; a person's answer resets the agent's streak.
#[derive(Debug, Default)]
pub struct AutoBudget {
    /// `None`: unlimited.
    max: Option<u32>,
    streaks: Mutex<HashMap<AgentId, u32>>,
}

impl AutoBudget {
    pub fn new(max: Option<u32>) -> Self {
        Self {
            max: max.map(|max| max.max(1)),
            streaks: Mutex::default(),
        }
    }

    pub fn max(&self) -> Option<u32> {
        self.max
    }

    /// Counts one automatic approval for `agent`; `false` once the streak passes the cap.
    pub fn tick_auto(&self, agent: &AgentId) -> bool {
        let Some(max) = self.max else {
            return true;
        };
        let mut streaks = self.streaks.lock().unwrap_or_else(PoisonError::into_inner);
        let streak = streaks.entry(agent.clone()).or_default();
        *streak = streak.saturating_add(1);
        *streak <= max
    }

    /// A person answered for `agent`: its streak starts over.
    pub fn reset(&self, agent: &AgentId) {
        self.streaks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(agent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streak_past_the_cap_is_refused_until_a_person_answers() {
        let budget = AutoBudget::new(Some(2));
        let agent = AgentId::new("a");
        assert!(budget.tick_auto(&agent));
        assert!(budget.tick_auto(&agent));
        assert!(!budget.tick_auto(&agent));
        budget.reset(&agent);
        assert!(budget.tick_auto(&agent));
        assert!(AutoBudget::new(None).tick_auto(&agent));
    }
}
