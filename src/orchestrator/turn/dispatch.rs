//! What the driver does with each message from an agent task and each op from the front
//! end while a turn runs: one named handler each.

use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::oneshot;

use super::{Driver, budget};
use crate::orchestrator::channel::{RoundUpdate, TaskMsg, Verdict};
use crate::orchestrator::coordination::{ApproachReply, ChecklistReply, Report};
use crate::orchestrator::steering::Steering;
use crate::protocol::{AgentId, EventMsg, Op, PostEvaluationOutcome};
use crate::tools::WorkflowCall;

impl Driver<'_> {
    pub(super) fn handle(&mut self, msg: TaskMsg) {
        match msg {
            TaskMsg::Event { agent, msg, held } => self.on_agent_event(&agent, msg, held),
            TaskMsg::Propose { agent, call, reply } => self.on_proposal(&agent, call, reply),
            TaskMsg::RoundFinished { agent, end } => self.on_round_finished(agent, end),
            TaskMsg::CheckUpdate {
                agent,
                inject_allowed,
                reply,
            } => self.on_update_check(&agent, inject_allowed, reply),
            TaskMsg::Presented { result } => self.on_presented(result),
            TaskMsg::Evaluated { outcome } => self.on_evaluation_ended(outcome),
            TaskMsg::Broadcast { agent, call, reply } => self.on_broadcast(&agent, call, reply),
            TaskMsg::Checklist {
                agent,
                scores,
                proposed,
                report,
                reply,
            } => self.on_checklist(&agent, (&scores, &proposed), &report, reply),
            TaskMsg::Approach {
                agent,
                arguments,
                reply,
            } => self.on_approach(&agent, &arguments, reply),
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
            Some(Op::AnswerNow) => self.answer_now(),
            Some(Op::OverrideFinal { label }) => self.override_final(&label),
            Some(Op::Step) => {}
            Some(Op::ListPlans) => self.list_plans(),
            Some(Op::AnswerQuestion {
                request_id,
                replies,
            }) => self.on_human_answer(&request_id, &replies),
            Some(Op::InjectHumanInput { text, targets }) => self.queue_human_input(text, targets),
            Some(Op::AnswerApproval { request_id, answer }) => {
                self.answer_approval(&request_id, answer);
            }
            Some(Op::Submit { .. }) => {
                self.refuse("a turn is already running; wait for it to finish or cancel it");
            }
            Some(Op::ClearHistory) => {
                self.refuse("the history cannot be cleared while a turn runs; cancel it first")
            }
            Some(Op::ReplaceAgents { .. }) => self.refuse(
                "the agents cannot be changed while a turn runs; wait for it to finish or \
                 cancel it, then apply them again",
            ),
            Some(Op::Shutdown) | None => self.shut_down(),
        }
    }

    fn on_agent_event(
        &mut self,
        agent: &AgentId,
        msg: EventMsg,
        held: Option<OwnedSemaphorePermit>,
    ) {
        let cost = budget::call_cost(&msg);
        self.emit(Some(agent), msg);
        // Logged and queued for the front end: the agent may stream on.
        drop(held);
        if let Some(cost) = cost {
            self.count_spend(agent, cost);
        }
    }

    fn on_proposal(
        &mut self,
        agent: &AgentId,
        call: WorkflowCall,
        reply: oneshot::Sender<Verdict>,
    ) {
        let verdict = self.judge(agent, call);
        let _ = reply.send(verdict);
        self.start_due_rounds();
    }

    /// Judges a `submit_checklist`; an accepted one is reported with its verdict, and its
    /// `proposed_criteria` are kept for the next round start (bootstrap).
    fn on_checklist(
        &mut self,
        agent: &AgentId,
        (scores, proposed): (&serde_json::Value, &serde_json::Value),
        report: &Report,
        reply: oneshot::Sender<ChecklistReply>,
    ) {
        let verdict = self.coordination.submit_checklist(agent, scores, report);
        if let ChecklistReply::Accepted(result) = &verdict {
            self.keep_proposed_criteria(agent, (scores, proposed));
            self.emit(
                Some(agent),
                EventMsg::ChecklistSubmitted {
                    result: result.clone(),
                },
            );
        }
        let _ = reply.send(verdict);
    }

    /// Judges a `draft_approach`; an accepted one is reported in one line.
    fn on_approach(
        &mut self,
        agent: &AgentId,
        arguments: &serde_json::Value,
        reply: oneshot::Sender<ApproachReply>,
    ) {
        let judged = self.coordination.draft_approach(agent, arguments);
        if let ApproachReply::Accepted(approach) = &judged {
            self.emit(
                Some(agent),
                EventMsg::ApproachDrafted {
                    approach: approach.clone(),
                },
            );
        }
        let _ = reply.send(judged);
    }

    fn on_update_check(
        &mut self,
        agent: &AgentId,
        inject_allowed: bool,
        reply: oneshot::Sender<RoundUpdate>,
    ) {
        let update = self.check_update(agent, inject_allowed);
        let _ = reply.send(update);
    }

    /// The winner's check ended; unless it was stopped meanwhile.
    fn on_evaluation_ended(&mut self, outcome: PostEvaluationOutcome) {
        if self.presentation.take().is_some() {
            self.on_evaluated(outcome);
        }
    }

    fn queue_human_input(&mut self, text: String, targets: Vec<AgentId>) {
        self.task_kit.inbox.push(text.clone(), targets.clone());
        self.emit(None, EventMsg::HumanInputQueued { text, targets });
    }

    /// Delivers what the steering inbox holds now, as if typed; its problems are warnings.
    pub(super) fn poll_steering(&mut self) {
        let known: Vec<AgentId> = self
            .run
            .config
            .agents
            .iter()
            .map(|agent| agent.id.clone())
            .collect();
        let Some(poller) = self.steering.as_mut() else {
            return;
        };
        for taken in poller.poll(&known) {
            match taken {
                Steering::Deliver { text, targets } => self.queue_human_input(text, targets),
                Steering::Warn(message) => self.emit(None, EventMsg::Warning { message }),
            }
        }
    }

    /// A person's answer to an asked tool call; one no call waits for is a warning.
    fn answer_approval(&mut self, request_id: &str, answer: crate::protocol::ApprovalAnswer) {
        if !self.run.approvals.answer(request_id, answer) {
            self.refuse(&format!(
                "no tool call is waiting for the approval `{request_id}` (answered already, \
                 timed out or never asked)"
            ));
        }
    }

    /// An op that cannot be carried out while a turn runs.
    fn refuse(&mut self, message: &str) {
        self.emit(
            None,
            EventMsg::Warning {
                message: message.into(),
            },
        );
    }

    fn shut_down(&mut self) {
        self.ending.shutdown = true;
        self.cancel();
    }
}
