//! How agent tasks talk to the turn driver: events to forward, workflow calls to judge,
//! and how each task ended. Streamed text is held to [`STREAMED_BYTES_IN_FLIGHT`] between
//! the agents and the driver: an agent streaming faster than the driver logs and forwards
//! waits (and so reads its provider's socket no faster) instead of queueing without end.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};

use super::broadcast::tools::BroadcastCall;
use super::coordination::{ApproachReply, ChecklistReply, Report};
use super::event_queue::streamed_text;
use crate::protocol::{AgentId, EnforcementReason, EventMsg};
use crate::tools::WorkflowCall;

/// The turn driver's answer to a workflow call.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Accepted,
    /// A vote that arrived after answers the agent had not seen.
    Ignored,
    Rejected {
        reason: EnforcementReason,
        message: String,
    },
}

/// How an agent's round ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RoundEnd {
    Answered,
    Voted,
    VoteIgnored,
    /// New answers arrived at a tool-call boundary; the agent restarts to read them.
    NewAnswersSeen,
    /// The model call failed.
    Failed {
        message: String,
    },
    /// Three attempts without a valid workflow call.
    Exhausted {
        reason: EnforcementReason,
        detail: String,
    },
    /// Past its round's time limit, the agent kept calling tools that were refused.
    TimedOut {
        denials: u32,
    },
    Cancelled,
}

/// The driver's answer to "did peers answer since my round began?".
#[derive(Clone, Debug, PartialEq)]
pub enum RoundUpdate {
    None,
    /// End the round; the next one starts with every answer.
    Restart,
    /// Append `text` to the latest tool result and go on.
    Inject {
        text: String,
        labels: Vec<crate::protocol::AnswerLabel>,
    },
}

#[derive(Debug)]
pub enum TaskMsg {
    Event {
        agent: AgentId,
        msg: EventMsg,
        /// A streamed delta's share of the budget, given back when the driver drops it.
        held: Option<OwnedSemaphorePermit>,
    },
    Propose {
        agent: AgentId,
        call: WorkflowCall,
        reply: oneshot::Sender<Verdict>,
    },
    RoundFinished {
        agent: AgentId,
        end: RoundEnd,
    },
    /// Peers answered: restart or injection? `inject_allowed` is false when the round is
    /// too close to its time limit for the agent to take in an update.
    CheckUpdate {
        agent: AgentId,
        inject_allowed: bool,
        reply: oneshot::Sender<RoundUpdate>,
    },
    /// The winner's final presentation finished (text) or failed (reason).
    Presented {
        result: Result<String, String>,
    },
    /// The winner's check of its final answer ended.
    Evaluated {
        outcome: crate::protocol::PostEvaluationOutcome,
    },
    /// A broadcast tool call: the driver answers with the tool's JSON result, or an error
    /// message for the model.
    Broadcast {
        agent: AgentId,
        call: BroadcastCall,
        reply: oneshot::Sender<Result<serde_json::Value, String>>,
    },
    /// A `submit_checklist` call's scores, for the driver to judge.
    Checklist {
        agent: AgentId,
        scores: serde_json::Value,
        /// Its `proposed_criteria` (`Null` when none).
        proposed: serde_json::Value,
        report: Report,
        reply: oneshot::Sender<ChecklistReply>,
    },
    /// A `draft_approach` call's arguments, for the driver to judge.
    Approach {
        agent: AgentId,
        arguments: serde_json::Value,
        reply: oneshot::Sender<ApproachReply>,
    },
    /// A peer's side call answered a question.
    PeerReplied {
        request_id: String,
        from: AgentId,
        answer: String,
    },
}

/// How much streamed text (with each message's own size) the agents of a turn may have
/// sent that the driver has not handled yet.
pub const STREAMED_BYTES_IN_FLIGHT: u32 = 4 * 1024 * 1024;

/// The agents' end of the channel to the turn driver.
#[derive(Clone)]
pub struct TaskSender {
    tx: mpsc::UnboundedSender<TaskMsg>,
    streamed: Arc<Semaphore>,
}

impl TaskSender {
    /// `None` when the driver is gone (the turn is over).
    fn send(&self, msg: TaskMsg) -> Option<()> {
        self.tx.send(msg).ok()
    }
}

pub fn task_channel() -> (TaskSender, mpsc::UnboundedReceiver<TaskMsg>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let streamed = Arc::new(Semaphore::new(STREAMED_BYTES_IN_FLIGHT as usize));
    (TaskSender { tx, streamed }, rx)
}

/// One agent's handle on the turn driver.
#[derive(Clone)]
pub struct AgentSink {
    agent: AgentId,
    tx: TaskSender,
}

impl AgentSink {
    pub fn new(agent: AgentId, tx: TaskSender) -> Self {
        Self { agent, tx }
    }

    pub fn agent(&self) -> &AgentId {
        &self.agent
    }

    /// Forwards an event. A closed channel means the turn is over; nothing to do.
    pub fn event(&self, msg: EventMsg) {
        let _ = self.tx.send(TaskMsg::Event {
            agent: self.agent.clone(),
            msg,
            held: None,
        });
    }

    /// Forwards a streamed delta once the driver has room for it (see
    /// [`STREAMED_BYTES_IN_FLIGHT`]).
    pub async fn stream(&self, msg: EventMsg) {
        let text = streamed_text(&msg).map_or(0, str::len);
        let weight = (text + size_of::<TaskMsg>()).min(STREAMED_BYTES_IN_FLIGHT as usize);
        let weight = u32::try_from(weight).unwrap_or(STREAMED_BYTES_IN_FLIGHT);
        let Ok(held) = Arc::clone(&self.tx.streamed)
            .acquire_many_owned(weight)
            .await
        else {
            return;
        };
        let _ = self.tx.send(TaskMsg::Event {
            agent: self.agent.clone(),
            msg,
            held: Some(held),
        });
    }

    /// Asks the driver to judge a workflow call. `None` if the turn ended meanwhile.
    pub async fn propose(&self, call: WorkflowCall) -> Option<Verdict> {
        let (reply, verdict) = oneshot::channel();
        self.tx.send(TaskMsg::Propose {
            agent: self.agent.clone(),
            call,
            reply,
        })?;
        verdict.await.ok()
    }

    /// Asks how to learn of peers' new answers; `None` if the turn ended meanwhile.
    pub async fn check_update(&self, inject_allowed: bool) -> Option<RoundUpdate> {
        let (reply, update) = oneshot::channel();
        self.tx.send(TaskMsg::CheckUpdate {
            agent: self.agent.clone(),
            inject_allowed,
            reply,
        })?;
        update.await.ok()
    }

    /// Hands a broadcast call to the driver and waits for its result; `None` if the turn
    /// ended meanwhile.
    pub async fn broadcast(
        &self,
        call: BroadcastCall,
    ) -> Option<Result<serde_json::Value, String>> {
        let (reply, result) = oneshot::channel();
        self.tx.send(TaskMsg::Broadcast {
            agent: self.agent.clone(),
            call,
            reply,
        })?;
        result.await.ok()
    }

    /// Hands a `submit_checklist` call to the driver and waits for its verdict; `None` if
    /// the turn ended meanwhile.
    pub async fn checklist(
        &self,
        scores: serde_json::Value,
        proposed: serde_json::Value,
        report: Report,
    ) -> Option<ChecklistReply> {
        let (reply, verdict) = oneshot::channel();
        self.tx.send(TaskMsg::Checklist {
            agent: self.agent.clone(),
            scores,
            proposed,
            report,
            reply,
        })?;
        verdict.await.ok()
    }

    /// Hands a `draft_approach` call to the driver and waits for its judgement; `None` if
    /// the turn ended meanwhile.
    pub async fn approach(&self, arguments: serde_json::Value) -> Option<ApproachReply> {
        let (reply, judged) = oneshot::channel();
        self.tx.send(TaskMsg::Approach {
            agent: self.agent.clone(),
            arguments,
            reply,
        })?;
        judged.await.ok()
    }

    /// A peer's answer to a question, from its side call.
    pub fn peer_replied(&self, request_id: String, answer: String) {
        let _ = self.tx.send(TaskMsg::PeerReplied {
            request_id,
            from: self.agent.clone(),
            answer,
        });
    }

    pub fn round_finished(&self, end: RoundEnd) {
        let _ = self.tx.send(TaskMsg::RoundFinished {
            agent: self.agent.clone(),
            end,
        });
    }

    pub fn presented(&self, result: Result<String, String>) {
        let _ = self.tx.send(TaskMsg::Presented { result });
    }

    pub fn evaluated(&self, outcome: crate::protocol::PostEvaluationOutcome) {
        let _ = self.tx.send(TaskMsg::Evaluated { outcome });
    }
}
