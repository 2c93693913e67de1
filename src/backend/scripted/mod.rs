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
mod quiz;
mod ranking;
mod reading;
mod script;
mod sized_plan;
mod tasks;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::{Backend, BackendError, ChatRequest, EventStream};
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
    /// Quiz mode's answer key, read at the first call.
    quiz_key: OnceLock<Result<Arc<quiz::AnswerKey>, String>>,
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
            quiz_key: OnceLock::new(),
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
        let quizzed = match self.quizzed(&request) {
            Ok(quizzed) => quizzed,
            Err(message) => {
                return script::play(
                    vec![script::Step::Fail(BackendError::Failed { message })],
                    &self.options,
                );
            }
        };
        let options = quizzed.as_ref().unwrap_or(&self.options);
        let call_number = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let chair_failure = ranking::chair_failure(&request, options)
            .or_else(|| debating::debate_failure(&request, options));
        let failure = options
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
            if let Some(reply) = ask::reply(&request, options.ask.as_ref()) {
                *last_reply = Some((question.clone(), reply));
            }
            last_reply
                .clone()
                .filter(|(asked_in, _)| *asked_in == question)
                .map(|(_, reply)| reply)
        };
        let evaluation = reading::offers(&request, "submit").then(|| {
            let number = self.evaluations.fetch_add(1, Ordering::Relaxed) as usize;
            options
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
            let replies = &options.critic_replies;
            replies
                .get(number)
                .or(replies.last())
                .map_or("", String::as_str)
        });
        let own_anon = self.own_anon.as_ref().map_or("", |anon| anon.as_str());
        let council = debating::plan(&request, options, own_anon)
            .or_else(|| ranking::plan(&request, options));
        let plan = council.unwrap_or_else(|| {
            plan::plan(&plan::Context {
                critic,
                evaluation,
                options,
                own_anon: self.own_anon.as_ref(),
                mapping: &self.mapping,
                request: &request,
                failure: failure.map(|failure| failure.mode),
                model: &self.model,
                reply: reply.as_deref(),
            })
        });
        let steps = script::steps(&plan, &request, call_number, failure, options.report_usage);
        script::play(steps, options)
    }
}

impl ScriptedBackend {
    /// In quiz mode, the options for this request: its answer to the key's question and,
    /// in a vote round, a vote for the answer most peers agree with. `None` outside quiz
    /// mode or for a question the key does not hold.
    fn quizzed(&self, request: &ChatRequest) -> Result<Option<ScriptedOptions>, String> {
        let Some(quiz_options) = &self.options.quiz else {
            return Ok(None);
        };
        let key = self
            .quiz_key
            .get_or_init(|| quiz::AnswerKey::load(&quiz_options.answers))
            .clone()?;
        let Some(item) = key.find(&reading::question(request)) else {
            return Ok(None);
        };
        let answer = key.answer(item, quiz_options);
        let peers = reading::current_answers(request);
        let own = self.own_anon.as_ref().map(AnonId::as_str);
        let vote_for = quiz::majority_vote(&peers, own, &answer)
            .and_then(|anon| self.mapping.real(&anon).cloned());
        Ok(Some(ScriptedOptions {
            answers: vec![answer],
            final_answer: None,
            vote_for: vote_for.or_else(|| self.options.vote_for.clone()),
            // A quiz agent in a debate is persuaded by the majority of the answers it reads.
            debate: crate::config::DebateScript {
                adopt_majority: true,
                ..self.options.debate
            },
            ..self.options.clone()
        }))
    }
}
