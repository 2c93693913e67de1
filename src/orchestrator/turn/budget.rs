//! The turn's cost budget (`--max-cost`, `orchestrator.max_cost_usd`): every model call's
//! cost is counted as its usage arrives; once the spend reaches the budget no new call
//! starts, running ones are stopped, and the best answer so far is presented as it is —
//! as on a timeout. A call whose price is unknown cannot be counted, and says so once.

use std::collections::HashSet;

use super::{Driver, Phase};
use crate::orchestrator::coordination::Candidates;
use crate::orchestrator::emitter::Emitter;
use crate::protocol::{AgentId, AgentStatus, EventMsg};
use crate::session::format_usd;

#[derive(Debug, Default)]
pub(super) struct Budget {
    spent_usd: f64,
    reached: bool,
    /// Agents already named for calls of unknown price.
    unpriced: HashSet<AgentId>,
}

impl Budget {
    pub(super) fn is_reached(&self) -> bool {
        self.reached
    }

    /// Counts one call's cost against `limit`; true when this call reached it. A call of
    /// unknown price is named once per agent.
    fn count(
        &mut self,
        agent: &AgentId,
        cost_usd: Option<f64>,
        limit: f64,
        emitter: &mut Emitter,
    ) -> bool {
        if self.reached {
            return false;
        }
        match cost_usd {
            Some(cost) => self.spent_usd += cost,
            None => {
                if self.unpriced.insert(agent.clone()) {
                    emitter.emit(
                        None,
                        EventMsg::Warning {
                            message: format!(
                                "the cost budget cannot count {agent}'s calls: its model's \
                                 price is unknown"
                            ),
                        },
                    );
                }
                return false;
            }
        }
        self.reached = self.spent_usd >= limit;
        self.reached
    }
}

/// A finished model call's cost (`None` inside: its price is unknown); `None` for any
/// other event.
pub(super) fn call_cost(msg: &EventMsg) -> Option<Option<f64>> {
    if let EventMsg::Usage { cost_usd, .. } = msg {
        Some(*cost_usd)
    } else {
        None
    }
}

impl Driver<'_> {
    /// Counts one call's cost against the budget, if there is one.
    pub(super) fn count_spend(&mut self, agent: &AgentId, cost_usd: Option<f64>) {
        let Some(limit) = self.run.config.orchestrator.max_cost_usd else {
            return;
        };
        if self.budget.count(agent, cost_usd, limit, self.emitter) {
            self.on_budget(limit);
        }
    }

    fn on_budget(&mut self, limit: f64) {
        let spent = self.budget.spent_usd;
        self.emit(
            None,
            EventMsg::BudgetReached {
                budget_usd: limit,
                spent_usd: spent,
            },
        );
        match &self.phase {
            Phase::Coordinating => {
                for agent in self.stop_rounds() {
                    self.status(&agent, AgentStatus::Cancelled);
                }
                let message = format!(
                    "no answers available: the cost budget of {} was reached before any agent \
                     answered",
                    format_usd(limit)
                );
                self.choose_winner(Candidates::PreferLive, true, message);
            }
            Phase::Presenting { .. } => {
                if let Some(running) = self.presentation.take() {
                    running.stop();
                    self.present_stored_answer();
                }
            }
            Phase::Evaluating { .. } => {
                if let Some(running) = self.presentation.take() {
                    running.stop();
                }
                self.on_evaluated(crate::protocol::PostEvaluationOutcome::Failed {
                    message: "the cost budget was reached".into(),
                });
            }
            Phase::Done => {}
        }
    }
}
