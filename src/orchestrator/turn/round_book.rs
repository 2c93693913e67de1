//! The driver's bookkeeping of agent rounds: the rounds running, how each agent's last one
//! ended, the answers' version running rounds watch, and each agent's task progress when
//! its latest answer was accepted. `rounds` starts, judges and ends the rounds.

use std::collections::HashMap;

use tokio::sync::watch;

use super::running::Running;
use crate::orchestrator::channel::RoundEnd;
use crate::protocol::{AgentId, TaskProgress};

pub(super) struct RoundBook {
    pub(super) running: HashMap<AgentId, Running>,
    pub(super) last_end: HashMap<AgentId, RoundEnd>,
    /// Bumped on every accepted answer, so running rounds can take it in.
    pub(super) answers_version: watch::Sender<u64>,
    pub(super) answer_progress: HashMap<AgentId, TaskProgress>,
    /// Agents the fairness lead cap holds back, with the lead and cap announced.
    pub(super) held: HashMap<AgentId, (u32, u32)>,
}

impl Default for RoundBook {
    fn default() -> Self {
        Self {
            running: HashMap::new(),
            last_end: HashMap::new(),
            answers_version: watch::channel(0).0,
            answer_progress: HashMap::new(),
            held: HashMap::new(),
        }
    }
}

impl RoundBook {
    /// Forgets the attempt's rounds for the next one (their tasks are stopped already).
    pub(super) fn clear_for_next_attempt(&mut self) {
        self.last_end.clear();
        self.answers_version = watch::channel(0).0;
        self.answer_progress.clear();
        self.held.clear();
    }
}
