//! Questions agents ask with `ask_others`: to the user (answered with
//! `Op::AnswerQuestion`, or not before the timeout) or to the other agents (each answers
//! from a side call to its own model), and the polling tools.

use std::collections::HashMap;

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::{Driver, deadline_after};
use crate::orchestrator::broadcast::{self, Board, BroadcastCall, Reply, human_summary};
use crate::orchestrator::emitter::Emitter;
use crate::protocol::{AgentId, AnonymousMapping, BroadcastTarget, EventMsg, QuestionReply};

type Waiter = oneshot::Sender<Result<Value, String>>;

/// The turn's questions: the board, the tool calls waiting for answers, and the peers
/// answering in side calls.
#[derive(Default)]
pub(super) struct Questions {
    board: Board,
    /// Agents' tool calls waiting for a question to close.
    waiting: HashMap<String, Vec<Waiter>>,
    /// Peers answering questions in side calls; stopped when the turn ends.
    side_calls: Vec<JoinHandle<()>>,
}

impl Questions {
    /// When the next open question times out.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        self.board.next_deadline()
    }

    /// `check_broadcast_status`: how `agent`'s question `request_id` stands.
    fn status(
        &self,
        agent: &AgentId,
        request_id: &str,
        mapping: &AnonymousMapping,
    ) -> Result<Value, String> {
        self.board
            .get(request_id)
            .filter(|request| &request.asker == agent)
            .map(|request| request.status_result(|id| mapping.anon(id).cloned()))
            .ok_or_else(|| unknown_request(request_id))
    }

    /// `get_broadcast_responses`: the replies to `agent`'s question `request_id`.
    fn responses(&self, agent: &AgentId, request_id: &str) -> Result<Value, String> {
        self.board
            .get(request_id)
            .filter(|request| &request.asker == agent)
            .map(broadcast::Request::result)
            .ok_or_else(|| unknown_request(request_id))
    }

    fn add_side_call(&mut self, call: JoinHandle<()>) {
        self.side_calls.retain(|call| !call.is_finished());
        self.side_calls.push(call);
    }

    fn expire(&mut self, now: Instant, emitter: &mut Emitter) {
        for request_id in self.board.expire(now) {
            self.close(&request_id, true, emitter);
        }
    }

    /// The turn is over: questions still open will get no answer, and peers still
    /// answering stop.
    fn close_all(&mut self, emitter: &mut Emitter) {
        for call in self.side_calls.drain(..) {
            call.abort();
        }
        for request_id in self
            .board
            .expire(deadline_after(Instant::now(), super::FAR_FUTURE))
        {
            self.close(&request_id, false, emitter);
        }
    }

    fn close(&mut self, request_id: &str, timed_out: bool, emitter: &mut Emitter) {
        let Some(request) = self.board.get(request_id) else {
            return;
        };
        let (asker, responses, result) = (
            request.asker.clone(),
            u32::try_from(request.replies.len()).unwrap_or(u32::MAX),
            request.result(),
        );
        emitter.emit(
            Some(&asker),
            EventMsg::BroadcastClosed {
                request_id: request_id.to_string(),
                timed_out,
                responses,
            },
        );
        for waiter in self.waiting.remove(request_id).unwrap_or_default() {
            let _ = waiter.send(Ok(result.clone()));
        }
    }

    /// Closes `request_id` if nobody is left to answer it.
    fn close_if_answered(&mut self, request_id: &str, emitter: &mut Emitter) {
        if self
            .board
            .get(request_id)
            .is_some_and(|request| request.waiting_for.is_empty())
        {
            self.close(request_id, false, emitter);
        }
    }

    /// What a second question to the user gets: the user answered this turn already, so
    /// the agent reads those answers instead of asking again.
    fn deferred(&self) -> Value {
        let history: Vec<Value> = self
            .board
            .human_history()
            .iter()
            .map(|(question, answer)| json!({"question": question, "answer": answer}))
            .collect();
        json!({
            "status": "deferred",
            "responses": [],
            "human_qa_history": history,
            "human_qa_note": "The human has already answered questions this turn. Review the \
                history above - your question may already be answered. Decide the rest \
                yourself and say in your answer what you assumed.",
        })
    }
}

impl Questions {
    /// Why `agent` may not ask now, as the tool's result: it asked `max` questions
    /// already, or the user answered this turn, so it reads those answers instead.
    fn refusal(
        &self,
        agent: &AgentId,
        target: BroadcastTarget,
        max: u32,
    ) -> Option<Result<Value, String>> {
        if self.board.asked_by(agent) >= max {
            return Some(Err(format!(
                "You have asked {max} questions this turn, the most allowed \
                 (coordination.max_broadcasts_per_agent); decide on your own now."
            )));
        }
        if target == BroadcastTarget::Human && !self.board.human_history().is_empty() {
            return Some(Ok(self.deferred()));
        }
        None
    }

    /// A peer's answer from its side call; the question closes once every peer answered.
    fn peer_reply(
        &mut self,
        request_id: &str,
        reply: Reply,
        answer: String,
        emitter: &mut Emitter,
    ) {
        let from = reply.from.clone();
        let Some(complete) = self
            .board
            .reply(request_id, reply)
            .map(|request| request.waiting_for.is_empty())
        else {
            return;
        };
        let asker = self
            .board
            .get(request_id)
            .map(|request| request.asker.clone());
        emitter.emit(
            asker.as_ref(),
            EventMsg::BroadcastAnswered {
                request_id: request_id.to_string(),
                from,
                answer,
            },
        );
        if complete {
            self.close(request_id, false, emitter);
        }
    }

    fn human_answer(&mut self, request_id: &str, replies: &[QuestionReply], emitter: &mut Emitter) {
        let Some(request) = self.board.human_reply(request_id, replies) else {
            emitter.emit(
                None,
                EventMsg::Warning {
                    message: format!(
                        "no agent is waiting for an answer to question {request_id} (it was \
                         answered, timed out or belongs to another turn)"
                    ),
                },
            );
            return;
        };
        let asker = request.asker.clone();
        let answer = human_summary(&request.questions, replies);
        if !request.replies.is_empty() {
            emitter.emit(
                Some(&asker),
                EventMsg::BroadcastAnswered {
                    request_id: request_id.to_string(),
                    from: None,
                    answer,
                },
            );
        }
        self.close(request_id, false, emitter);
    }
}

impl Driver<'_> {
    pub(super) fn on_broadcast(&mut self, agent: &AgentId, call: BroadcastCall, reply: Waiter) {
        match call {
            BroadcastCall::Ask { questions, wait } => self.ask(agent, questions, wait, reply),
            BroadcastCall::Status { request_id } => {
                let mapping = self.coordination.mapping();
                let _ = reply.send(self.questions.status(agent, &request_id, mapping));
            }
            BroadcastCall::Responses { request_id } => {
                let _ = reply.send(self.questions.responses(agent, &request_id));
            }
        }
    }

    fn ask(
        &mut self,
        agent: &AgentId,
        questions: Vec<crate::protocol::Question>,
        wait: bool,
        reply: Waiter,
    ) {
        let Some(settings) = self.settings.broadcast else {
            let _ = reply.send(Err("asking is off for this turn".into()));
            return;
        };
        if let Some(refusal) =
            self.questions
                .refusal(agent, settings.target, self.settings.max_broadcasts)
        {
            let _ = reply.send(refusal);
            return;
        }
        let waiting_for: Vec<Option<AgentId>> = match settings.target {
            BroadcastTarget::Human => vec![None],
            BroadcastTarget::Agents | BroadcastTarget::Off => self
                .coordination
                .agents()
                .iter()
                .filter(|peer| *peer != agent && !self.coordination.is_killed(peer))
                .cloned()
                .map(Some)
                .collect(),
        };
        let timeout = self.settings.broadcast_timeout;
        let deadline = deadline_after(Instant::now(), timeout);
        let request_id = self.questions.board.open(
            agent,
            settings.target,
            questions.clone(),
            waiting_for.clone(),
            deadline,
        );
        self.emit(
            Some(agent),
            EventMsg::BroadcastAsked {
                request_id: request_id.clone(),
                target: settings.target,
                questions: questions.clone(),
                wait,
                timeout_secs: timeout.as_secs(),
            },
        );
        if wait {
            self.questions
                .waiting
                .entry(request_id.clone())
                .or_default()
                .push(reply);
        } else {
            let _ = reply.send(Ok(json!({"request_id": request_id, "status": "pending"})));
        }
        let asker_anon = self
            .coordination
            .mapping()
            .anon(agent)
            .map(ToString::to_string)
            .unwrap_or_default();
        for peer in waiting_for.into_iter().flatten() {
            self.spawn_peer_answer(&peer, &request_id, &asker_anon, &questions);
        }
        self.questions.close_if_answered(&request_id, self.emitter);
    }

    /// Has `peer` answer from a side call to its model; the reply comes back as a message.
    fn spawn_peer_answer(
        &mut self,
        peer: &AgentId,
        request_id: &str,
        asker_anon: &str,
        questions: &[crate::protocol::Question],
    ) {
        let Some(index) = self.agent_index(peer) else {
            return;
        };
        let model = self.model_link(peer, index);
        let system = self.task_kit.system_message(index).map(str::to_string);
        let (request_id, asker_anon, questions) = (
            request_id.to_string(),
            asker_anon.to_string(),
            questions.to_vec(),
        );
        self.questions.add_side_call(tokio::spawn(async move {
            let answer =
                broadcast::peer_answer(&model, system.as_deref(), &asker_anon, &questions).await;
            model.sink.peer_replied(request_id, answer);
        }));
    }

    pub(super) fn on_peer_reply(&mut self, request_id: &str, from: AgentId, answer: String) {
        let reply = Reply {
            from_anon: self.coordination.mapping().anon(&from).cloned(),
            from: Some(from),
            content: json!(answer),
        };
        self.questions
            .peer_reply(request_id, reply, answer, self.emitter);
    }

    pub(super) fn on_human_answer(&mut self, request_id: &str, replies: &[QuestionReply]) {
        self.questions
            .human_answer(request_id, replies, self.emitter);
    }

    pub(super) fn expire_questions(&mut self) {
        self.questions.expire(Instant::now(), self.emitter);
    }

    /// The turn is over: questions still open will get no answer, and peers still
    /// answering stop.
    pub(super) fn close_questions(&mut self) {
        self.questions.close_all(self.emitter);
    }
}

fn unknown_request(request_id: &str) -> String {
    format!(
        "no question of yours has the id `{request_id}`; use the request_id ask_others returned"
    )
}
