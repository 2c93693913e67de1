//! The offline `scripted` backend: a deterministic stand-in for a model that reads its
//! prompt like a model would and streams its reply token by token at a set speed.

mod ask;
mod checklist;
mod debating;
mod decomposing;
mod default_plan;
mod personas;
mod plan;
mod plan_report;
mod planning;
mod ranking;
mod reading;
mod script;
mod sized_plan;
mod tasks;
#[cfg(test)]
mod tests;

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use super::{Backend, ChatRequest, EventStream};
use crate::config::{BackendKind, ScriptedOptions};
use crate::protocol::{AnonId, AnonymousMapping};

pub struct ScriptedBackend {
    model: String,
    options: ScriptedOptions,
    own_anon: Option<AnonId>,
    mapping: AnonymousMapping,
    calls: AtomicU32,
    /// Post-evaluations made so far (each takes the next scripted decision).
    evaluations: AtomicU32,
    /// Bootstrap critic calls so far (each takes the next scripted `critic_reply`).
    critic_calls: AtomicU32,
    /// The replies to the latest `ask_others` question and the question of the turn it was
    /// asked in, for `{reply}` in later rounds, the final presentation and the plan's
    /// execution, whose conversations no longer hold them; a new question forgets it.
    last_reply: Mutex<Option<(String, String)>>,
}

impl ScriptedBackend {
    /// `own_anon` is the anonymous id this agent has; `mapping` resolves `vote_for`.
    pub fn new(
        model: String,
        options: ScriptedOptions,
        own_anon: Option<AnonId>,
        mapping: AnonymousMapping,
    ) -> Self {
        Self {
            model,
            options,
            own_anon,
            mapping,
            calls: AtomicU32::new(0),
            evaluations: AtomicU32::new(0),
            critic_calls: AtomicU32::new(0),
            last_reply: Mutex::new(None),
        }
    }
}

impl Backend for ScriptedBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Scripted
    }

    fn provider(&self) -> &str {
        "scripted"
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn stream(&self, request: ChatRequest) -> EventStream {
        let call_number = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let chair_failure = ranking::chair_failure(&request, &self.options)
            .or_else(|| debating::debate_failure(&request, &self.options));
        let failure = self
            .options
            .failure
            .as_ref()
            .filter(|failure| failure.times.is_none_or(|times| call_number <= times))
            .or(chair_failure.as_ref());
        let reply = {
            let mut last_reply = self
                .last_reply
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let question = reading::question(&request);
            if let Some(reply) = ask::reply(&request, self.options.ask.as_ref()) {
                *last_reply = Some((question.clone(), reply));
            }
            last_reply
                .clone()
                .filter(|(asked_in, _)| *asked_in == question)
                .map(|(_, reply)| reply)
        };
        let evaluation = reading::offers(&request, "submit").then(|| {
            let number = self.evaluations.fetch_add(1, Ordering::Relaxed) as usize;
            self.options
                .post_evaluation
                .get(number)
                .cloned()
                .unwrap_or_else(|| {
                    Some(crate::config::ScriptedToolCall {
                        name: "submit".into(),
                        arguments: serde_json::json!({"confirmed": true}),
                    })
                })
        });
        let critic = (request.tools.is_empty()
            && reading::user_says(&request, plan::CRITIC_REQUEST))
        .then(|| {
            let number = self.critic_calls.fetch_add(1, Ordering::Relaxed) as usize;
            let replies = &self.options.critic_replies;
            replies
                .get(number)
                .or(replies.last())
                .map_or("", String::as_str)
        });
        let own_anon = self.own_anon.as_ref().map_or("", |anon| anon.as_str());
        let council = debating::plan(&request, &self.options, own_anon)
            .or_else(|| ranking::plan(&request, &self.options));
        let plan = council.unwrap_or_else(|| {
            plan::plan(&plan::Context {
                critic,
                evaluation,
                options: &self.options,
                own_anon: self.own_anon.as_ref(),
                mapping: &self.mapping,
                request: &request,
                failure: failure.map(|failure| failure.mode),
                model: &self.model,
                reply: reply.as_deref(),
            })
        });
        let steps = script::steps(
            &plan,
            &request,
            call_number,
            failure,
            self.options.report_usage,
        );
        script::play(steps, &self.options)
    }
}
