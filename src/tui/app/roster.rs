//! The run's agents as the agents view edits them: the ones it starts from, and the ones
//! applied that the runtime has not taken (or refused) yet.

use crate::config::AgentDraft;

#[derive(Clone, Debug, Default)]
pub(super) struct Roster {
    /// The run's agents as the agents view starts from them (empty: not known, the view
    /// starts from what the cards say).
    drafts: Vec<AgentDraft>,
    /// The agents sent with `Op::ReplaceAgents`, until the runtime says it took them.
    applying: Option<Vec<AgentDraft>>,
}

impl Roster {
    pub(super) fn new(drafts: Vec<AgentDraft>) -> Self {
        Self {
            drafts,
            applying: None,
        }
    }

    pub(super) fn drafts(&self) -> &[AgentDraft] {
        &self.drafts
    }

    /// `drafts` were sent to the runtime.
    pub(super) fn apply(&mut self, drafts: Vec<AgentDraft>) {
        self.applying = Some(drafts);
    }

    /// The runtime took the agents last applied: the view starts from them from now on.
    pub(super) fn taken(&mut self) {
        if let Some(drafts) = self.applying.take() {
            self.drafts = drafts;
        }
    }

    /// The runtime refused agents: whether they were the ones applied from here.
    pub(super) fn refused(&mut self) -> bool {
        self.applying.take().is_some()
    }
}
