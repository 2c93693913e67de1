//! What the driver does with each message from an agent task and each op from the front
//! end while a turn runs.

use super::{Driver, budget};
use crate::orchestrator::channel::TaskMsg;
use crate::protocol::{EventMsg, Op};

impl Driver<'_> {
    pub(super) fn handle(&mut self, msg: TaskMsg) {
        match msg {
            TaskMsg::Event { agent, msg, held } => {
                let cost = budget::call_cost(&msg);
                self.emit(Some(&agent), msg);
                // Logged and queued for the front end: the agent may stream on.
                drop(held);
                if let Some(cost) = cost {
                    self.count_spend(&agent, cost);
                }
            }
            TaskMsg::Propose { agent, call, reply } => {
                let verdict = self.judge(&agent, call);
                let _ = reply.send(verdict);
                self.start_due_rounds();
            }
            TaskMsg::RoundFinished { agent, end } => self.on_round_finished(agent, end),
            TaskMsg::CheckUpdate {
                agent,
                inject_allowed,
                reply,
            } => {
                let update = self.check_update(&agent, inject_allowed);
                let _ = reply.send(update);
            }
            TaskMsg::Presented { result } => self.on_presented(result),
            TaskMsg::Evaluated { outcome } => {
                if self.presentation.take().is_some() {
                    self.on_evaluated(outcome);
                }
            }
            TaskMsg::Broadcast { agent, call, reply } => self.on_broadcast(&agent, call, reply),
            TaskMsg::PeerReplied {
                request_id,
                from,
                answer,
            } => self.on_peer_reply(&request_id, from, answer),
        }
    }

    pub(super) fn handle_op(&mut self, op: Option<Op>) {
        match op {
            Some(Op::Cancel) => self.cancel(),
            Some(Op::OverrideFinal { label }) => self.override_final(&label),
            Some(Op::Step) => {}
            Some(Op::ListPlans) => self.list_plans(),
            Some(Op::AnswerQuestion {
                request_id,
                replies,
            }) => self.on_human_answer(&request_id, &replies),
            Some(Op::InjectHumanInput { text }) => {
                self.inbox.push(text.clone());
                self.emit(None, EventMsg::HumanInputQueued { text });
            }
            Some(Op::Submit { .. }) => self.emit(
                None,
                EventMsg::Warning {
                    message: "a turn is already running; wait for it to finish or cancel it".into(),
                },
            ),
            Some(Op::ClearHistory) => self.emit(
                None,
                EventMsg::Warning {
                    message: "the history cannot be cleared while a turn runs; cancel it first"
                        .into(),
                },
            ),
            Some(Op::ReplaceAgents { .. }) => self.emit(
                None,
                EventMsg::Warning {
                    message: "the agents cannot be changed while a turn runs; wait for it to \
                              finish or cancel it, then apply them again"
                        .into(),
                },
            ),
            Some(Op::Shutdown) | None => {
                self.shutdown = true;
                self.cancel();
            }
        }
    }
}
