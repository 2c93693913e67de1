//! Questions agents ask with `ask_others`: to the user (answered with
//! `Op::AnswerQuestion`, or not before the timeout) or to the other agents (each answers
//! from a side call to its own model), and the polling tools.

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::time::Instant;

use super::{Driver, deadline_after};
use crate::orchestrator::broadcast::{self, BroadcastCall, Reply, human_summary};
use crate::protocol::{AgentId, BroadcastTarget, EventMsg, QuestionReply};

type Waiter = oneshot::Sender<Result<Value, String>>;

impl Driver<'_> {
    pub(super) fn on_broadcast(&mut self, agent: &AgentId, call: BroadcastCall, reply: Waiter) {
        match call {
            BroadcastCall::Ask { questions, wait } => self.ask(agent, questions, wait, reply),
            BroadcastCall::Status { request_id } => {
                let mapping = self.coordination.mapping().clone();
                let result = self
                    .board
                    .get(&request_id)
                    .filter(|request| &request.asker == agent)
                    .map(|request| request.status_result(|id| mapping.anon(id).cloned()))
                    .ok_or_else(|| unknown_request(&request_id));
                let _ = reply.send(result);
            }
            BroadcastCall::Responses { request_id } => {
                let result = self
                    .board
                    .get(&request_id)
                    .filter(|request| &request.asker == agent)
                    .map(broadcast::Request::result)
                    .ok_or_else(|| unknown_request(&request_id));
                let _ = reply.send(result);
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
        let max = self.settings.max_broadcasts;
        if self.board.asked_by(agent) >= max {
            let _ = reply.send(Err(format!(
                "You have asked {max} questions this turn, the most allowed \
                 (coordination.max_broadcasts_per_agent); decide on your own now."
            )));
            return;
        }
        if settings.target == BroadcastTarget::Human && !self.board.human_history().is_empty() {
            let _ = reply.send(Ok(self.deferred()));
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
        let request_id = self.board.open(
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
            self.waiting
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
        if self
            .board
            .get(&request_id)
            .is_some_and(|request| request.waiting_for.is_empty())
        {
            self.close_question(&request_id, false);
        }
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
        let system = self.system_messages[index].clone();
        let (request_id, asker_anon, questions) = (
            request_id.to_string(),
            asker_anon.to_string(),
            questions.to_vec(),
        );
        self.side_calls.retain(|call| !call.is_finished());
        self.side_calls.push(tokio::spawn(async move {
            let answer =
                broadcast::peer_answer(&model, system.as_deref(), &asker_anon, &questions).await;
            model.sink.peer_replied(request_id, answer);
        }));
    }

    pub(super) fn on_peer_reply(&mut self, request_id: &str, from: AgentId, answer: String) {
        let reply = Reply {
            from_anon: self.coordination.mapping().anon(&from).cloned(),
            from: Some(from.clone()),
            content: json!(answer),
        };
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
        self.emit(
            asker.as_ref(),
            EventMsg::BroadcastAnswered {
                request_id: request_id.to_string(),
                from: Some(from),
                answer,
            },
        );
        if complete {
            self.close_question(request_id, false);
        }
    }

    pub(super) fn on_human_answer(&mut self, request_id: &str, replies: &[QuestionReply]) {
        let Some(request) = self.board.human_reply(request_id, replies) else {
            self.emit(
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
            self.emit(
                Some(&asker),
                EventMsg::BroadcastAnswered {
                    request_id: request_id.to_string(),
                    from: None,
                    answer,
                },
            );
        }
        self.close_question(request_id, false);
    }

    pub(super) fn expire_questions(&mut self) {
        for request_id in self.board.expire(Instant::now()) {
            self.close_question(&request_id, true);
        }
    }

    /// The turn is over: questions still open will get no answer, and peers still
    /// answering stop.
    pub(super) fn close_questions(&mut self) {
        for call in self.side_calls.drain(..) {
            call.abort();
        }
        for request_id in self
            .board
            .expire(deadline_after(Instant::now(), super::FAR_FUTURE))
        {
            self.close_question(&request_id, false);
        }
    }

    fn close_question(&mut self, request_id: &str, timed_out: bool) {
        let Some(request) = self.board.get(request_id) else {
            return;
        };
        let (asker, responses, result) = (
            request.asker.clone(),
            u32::try_from(request.replies.len()).unwrap_or(u32::MAX),
            request.result(),
        );
        self.emit(
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

fn unknown_request(request_id: &str) -> String {
    format!(
        "no question of yours has the id `{request_id}`; use the request_id ask_others returned"
    )
}
