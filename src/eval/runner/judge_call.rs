//! The judge (`--judge CONFIG`): its config's first agent, asked once per answer with a
//! plain model call (no tools, no coordination), and what that call cost.

use std::sync::Arc;

use futures::StreamExt;

use crate::backend::{Backend, ChatRequest, Message, StreamEvent, build_backends};
use crate::config::{Config, Env};
use crate::protocol::Usage;
use crate::session;

/// The judge's model.
#[derive(Clone)]
pub struct JudgeModel {
    backend: Arc<dyn Backend>,
    system: Option<String>,
}

/// What the judge said and what saying it cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JudgeReply {
    pub text: String,
    pub cost_usd: f64,
}

impl JudgeModel {
    /// The first agent of `config`.
    pub fn from_config(config: &Config, env: &Env) -> Result<Self, String> {
        let backends = build_backends(config, env).map_err(|error| error.to_string())?;
        let backend = backends
            .into_iter()
            .next()
            .ok_or_else(|| format!("{}: the judge config has no agent", config.source_name))?;
        Ok(Self {
            backend,
            system: config
                .agents
                .first()
                .and_then(|agent| agent.system_message.clone()),
        })
    }

    pub fn new(backend: Arc<dyn Backend>) -> Self {
        Self {
            backend,
            system: None,
        }
    }

    pub fn model(&self) -> &str {
        self.backend.model()
    }

    /// Asks `prompt`; the reply's text and its cost (the provider's own figure when it
    /// reports one, else the price table's, else 0).
    pub async fn ask(&self, prompt: &str) -> Result<JudgeReply, String> {
        let mut messages = Vec::new();
        if let Some(system) = &self.system {
            messages.push(Message::System {
                content: system.clone(),
            });
        }
        messages.push(Message::user(prompt));
        let mut stream = self.backend.stream(ChatRequest {
            messages: Arc::new(messages),
            tools: Vec::new(),
        });
        let mut text = String::new();
        let mut usage = Usage::default();
        let mut reported = None;
        while let Some(event) = stream.next().await {
            match event.map_err(|error| format!("the judge's model failed: {error}"))? {
                StreamEvent::TextDelta(delta) => text.push_str(&delta),
                StreamEvent::Usage(used) => usage = used,
                StreamEvent::ReportedCost(cost) => reported = Some(cost),
                StreamEvent::Retry { .. } => text.clear(),
                _ => {}
            }
        }
        let cost_usd = reported
            .or_else(|| session::estimate(self.backend.kind(), self.backend.model(), &usage).usd())
            .unwrap_or(0.0);
        Ok(JudgeReply { text, cost_usd })
    }
}
