//! The questions of one turn: who asked what of whom, the replies so far, when each
//! question times out, and the JSON results the asking agent reads. Pure: the driver feeds
//! it calls, replies and the time, and carries out what it returns.

use std::collections::HashMap;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::protocol::{AgentId, AnonId, BroadcastTarget, Question, QuestionReply};

/// How a question ended, or that it is still open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pending,
    Complete,
    TimedOut,
    /// The user chose not to answer.
    Declined,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Complete => "complete",
            Self::TimedOut => "timeout",
            Self::Declined => "declined",
        }
    }
}

/// One reply: from a peer (its anonymous id), or from the user.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub from: Option<AgentId>,
    pub from_anon: Option<AnonId>,
    pub content: Value,
}

#[derive(Debug)]
pub struct Request {
    pub id: String,
    pub asker: AgentId,
    pub target: BroadcastTarget,
    pub questions: Vec<Question>,
    /// Peers still expected to reply (agents), or the user.
    pub waiting_for: Vec<Option<AgentId>>,
    pub replies: Vec<Reply>,
    pub deadline: Instant,
    pub status: Status,
}

impl Request {
    /// What `ask_others` (waiting) and `get_broadcast_responses` return.
    pub fn result(&self) -> Value {
        let responses: Vec<Value> = self
            .replies
            .iter()
            .map(|reply| {
                json!({
                    "request_id": self.id,
                    "responder_id": reply.from_anon.as_ref().map_or("human", AnonId::as_str),
                    "content": reply.content,
                    "is_human": reply.from.is_none(),
                })
            })
            .collect();
        let mut result = json!({
            "request_id": self.id,
            "status": self.status.name(),
            "responses": responses,
        });
        match self.status {
            Status::TimedOut if self.replies.is_empty() => {
                result["note"] = json!(
                    "Nobody replied before the time ran out. Decide yourself and say in your \
                     answer what you assumed."
                );
            }
            Status::Declined => {
                result["note"] = json!(
                    "The user chose not to answer. Decide yourself and say in your answer what \
                     you assumed."
                );
            }
            Status::Pending | Status::Complete | Status::TimedOut => {}
        }
        result
    }

    /// What `check_broadcast_status` returns.
    pub fn status_result(&self, anon_of: impl Fn(&AgentId) -> Option<AnonId>) -> Value {
        let waiting: Vec<String> = self
            .waiting_for
            .iter()
            .map(|who| match who {
                Some(agent) => anon_of(agent).map_or_else(|| agent.to_string(), |a| a.to_string()),
                None => "human".to_string(),
            })
            .collect();
        json!({
            "request_id": self.id,
            "status": self.status.name(),
            "response_count": self.replies.len(),
            "expected_count": self.replies.len() + self.waiting_for.len(),
            "waiting_for": waiting,
        })
    }
}

/// The user's reply to the questions of `questions`, as MassGen passes it on: plain text
/// for one free-text question, else one `{questionIndex, selectedOptions, otherText}` per
/// question answered.
pub fn human_content(questions: &[Question], replies: &[QuestionReply]) -> Value {
    if let ([question], [reply]) = (questions, replies)
        && question.options.is_empty()
    {
        return json!(reply.text.trim());
    }
    Value::Array(
        replies
            .iter()
            .enumerate()
            .map(|(index, reply)| {
                json!({
                    "questionIndex": index,
                    "selectedOptions": reply.selected,
                    "otherText": if reply.text.trim().is_empty() { Value::Null } else { json!(reply.text.trim()) },
                })
            })
            .collect(),
    )
}

/// A one-line summary of the user's reply, with the labels of the chosen options.
pub fn human_summary(questions: &[Question], replies: &[QuestionReply]) -> String {
    let mut parts = Vec::new();
    for (question, reply) in questions.iter().zip(replies) {
        let mut chosen: Vec<&str> = reply
            .selected
            .iter()
            .filter_map(|id| {
                question
                    .options
                    .iter()
                    .find(|option| &option.id == id)
                    .map(|option| option.label.as_str())
            })
            .collect();
        let text = reply.text.trim();
        if !text.is_empty() {
            chosen.push(text);
        }
        if !chosen.is_empty() {
            parts.push(chosen.join(", "));
        }
    }
    parts.join("; ")
}

/// Every question of the turn.
#[derive(Debug, Default)]
pub struct Board {
    requests: HashMap<String, Request>,
    asked: HashMap<AgentId, u32>,
    next: u32,
    /// What the user answered this turn: (questions, answer) — later questions to the
    /// user are answered from it instead of asking again.
    human_history: Vec<(String, String)>,
}

impl Board {
    /// How many questions `agent` asked this turn.
    pub fn asked_by(&self, agent: &AgentId) -> u32 {
        self.asked.get(agent).copied().unwrap_or(0)
    }

    pub fn human_history(&self) -> &[(String, String)] {
        &self.human_history
    }

    /// Opens a question; returns its id.
    pub fn open(
        &mut self,
        asker: &AgentId,
        target: BroadcastTarget,
        questions: Vec<Question>,
        waiting_for: Vec<Option<AgentId>>,
        deadline: Instant,
    ) -> String {
        self.next += 1;
        *self.asked.entry(asker.clone()).or_default() += 1;
        let id = format!("q{}", self.next);
        // Nobody to wait for (every peer is out of the turn): complete at once.
        let status = if waiting_for.is_empty() {
            Status::Complete
        } else {
            Status::Pending
        };
        self.requests.insert(
            id.clone(),
            Request {
                id: id.clone(),
                asker: asker.clone(),
                target,
                questions,
                waiting_for,
                replies: Vec::new(),
                deadline,
                status,
            },
        );
        id
    }

    pub fn get(&self, id: &str) -> Option<&Request> {
        self.requests.get(id)
    }

    /// Records a reply; returns the request once every expected reply is in.
    pub fn reply(&mut self, id: &str, reply: Reply) -> Option<&Request> {
        let request = self.requests.get_mut(id)?;
        if request.status != Status::Pending {
            return None;
        }
        let position = request
            .waiting_for
            .iter()
            .position(|who| *who == reply.from)?;
        request.waiting_for.remove(position);
        request.replies.push(reply);
        if request.waiting_for.is_empty() {
            request.status = Status::Complete;
        }
        Some(&*request)
    }

    /// The user answered (or declined) a question to them.
    pub fn human_reply(&mut self, id: &str, replies: &[QuestionReply]) -> Option<&Request> {
        let request = self.requests.get_mut(id)?;
        if request.status != Status::Pending || request.target != BroadcastTarget::Human {
            return None;
        }
        request.waiting_for.clear();
        let answered = replies
            .iter()
            .any(|reply| !reply.selected.is_empty() || !reply.text.trim().is_empty());
        if answered {
            request.replies.push(Reply {
                from: None,
                from_anon: None,
                content: human_content(&request.questions, replies),
            });
            request.status = Status::Complete;
            let asked: Vec<&str> = request
                .questions
                .iter()
                .map(|question| question.text.as_str())
                .collect();
            self.human_history.push((
                asked.join(" / "),
                human_summary(&request.questions, replies),
            ));
        } else {
            request.status = Status::Declined;
        }
        Some(&*request)
    }

    /// The earliest deadline of an open question.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.requests
            .values()
            .filter(|request| request.status == Status::Pending)
            .map(|request| request.deadline)
            .min()
    }

    /// Closes every open question whose time is up; returns their ids.
    pub fn expire(&mut self, now: Instant) -> Vec<String> {
        let mut expired: Vec<String> = self
            .requests
            .values_mut()
            .filter(|request| request.status == Status::Pending && request.deadline <= now)
            .map(|request| {
                request.status = Status::TimedOut;
                request.id.clone()
            })
            .collect();
        expired.sort();
        expired
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;
