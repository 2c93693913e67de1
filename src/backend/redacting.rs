//! A backend whose streamed output has the run's secrets replaced before the orchestrator
//! sees it, so a key a provider echoes reaches no answer, final answer, plan file or other
//! agent's prompt. Text, reasoning and each tool call's arguments are redacted as streams:
//! a piece's end that could begin a secret waits for the next piece.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::StreamExt;

use super::{Backend, BackendError, ChatRequest, EventStream, StreamEvent};
use crate::config::BackendKind;
use crate::redact::{Redactor, StreamHold};

pub struct RedactingBackend {
    inner: Arc<dyn Backend>,
    redactor: Redactor,
}

impl RedactingBackend {
    /// `inner` as it is when there is nothing to hide.
    pub fn wrap(inner: Arc<dyn Backend>, redactor: &Redactor) -> Arc<dyn Backend> {
        if redactor.is_empty() {
            inner
        } else {
            Arc::new(Self {
                inner,
                redactor: redactor.clone(),
            })
        }
    }
}

impl Backend for RedactingBackend {
    fn kind(&self) -> BackendKind {
        self.inner.kind()
    }

    fn provider(&self) -> &str {
        self.inner.provider()
    }

    fn model(&self) -> &str {
        self.inner.model()
    }

    fn is_local(&self) -> bool {
        self.inner.is_local()
    }

    fn agent_loop(&self) -> Option<&dyn super::AgentLoop> {
        self.inner.agent_loop()
    }

    fn stream(&self, request: ChatRequest) -> EventStream {
        let mut holds = Holds::new(self.redactor.clone());
        self.inner
            .stream(request)
            .map(move |item| holds.process(item))
            .flat_map(futures::stream::iter)
            .boxed()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Piece {
    Text,
    Reasoning,
    Arguments(usize),
}

impl Piece {
    fn event(self, text: String) -> StreamEvent {
        match self {
            Self::Text => StreamEvent::TextDelta(text),
            Self::Reasoning => StreamEvent::ReasoningDelta(text),
            Self::Arguments(index) => StreamEvent::ToolCallArgsDelta {
                index,
                fragment: text,
            },
        }
    }
}

/// One call's held-back pieces.
struct Holds {
    redactor: Redactor,
    holds: BTreeMap<Piece, StreamHold>,
}

type Item = Result<StreamEvent, BackendError>;

impl Holds {
    fn new(redactor: Redactor) -> Self {
        Self {
            redactor,
            holds: BTreeMap::new(),
        }
    }

    fn process(&mut self, item: Item) -> Vec<Item> {
        let event = match item {
            Ok(event) => event,
            Err(error) => return vec![Err(error)],
        };
        let (piece, text) = match event {
            StreamEvent::TextDelta(text) => (Piece::Text, text),
            StreamEvent::ReasoningDelta(text) => (Piece::Reasoning, text),
            StreamEvent::ToolCallArgsDelta { index, fragment } => {
                (Piece::Arguments(index), fragment)
            }
            StreamEvent::Retry {
                attempt,
                max_retries,
                delay,
                reason,
            } => {
                // What the failed attempt streamed is void, held pieces with it.
                self.holds.clear();
                let reason = self.redactor.redact(&reason).into_owned();
                return vec![Ok(StreamEvent::Retry {
                    attempt,
                    max_retries,
                    delay,
                    reason,
                })];
            }
            StreamEvent::ProviderTool(mut call) => {
                call.input = self.redactor.redact(&call.input).into_owned();
                call.output = self.redactor.redact(&call.output).into_owned();
                let mut out: Vec<Item> = self.release().into_iter().map(Ok).collect();
                out.push(Ok(StreamEvent::ProviderTool(call)));
                return out;
            }
            other @ (StreamEvent::ToolCallStart { .. }
            | StreamEvent::ProviderBlock { .. }
            | StreamEvent::ReasoningSignature(_)
            | StreamEvent::RedactedReasoning(_)
            | StreamEvent::ToolCallSignature { .. }
            | StreamEvent::Usage(_)
            | StreamEvent::ReportedCost(_)
            | StreamEvent::Finish(_)) => {
                let mut out: Vec<Item> = self.release().into_iter().map(Ok).collect();
                out.push(Ok(other));
                return out;
            }
        };
        let hold = self.holds.entry(piece).or_default();
        let shown = hold.push(&self.redactor, &text);
        if shown.is_empty() {
            Vec::new()
        } else {
            vec![Ok(piece.event(shown))]
        }
    }

    /// Everything held, in a stable order: the pieces ended without completing a secret.
    fn release(&mut self) -> Vec<StreamEvent> {
        self.holds
            .iter_mut()
            .filter(|(_, hold)| !hold.is_empty())
            .map(|(piece, hold)| piece.event(hold.finish()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{FinishReason, Message, TurnBuilder};

    const KEY: &str = "sk-hostile-secret-42";

    /// A backend that streams `events`, whatever it is asked.
    struct Fixed(Vec<StreamEvent>);

    impl Backend for Fixed {
        fn kind(&self) -> BackendKind {
            BackendKind::Scripted
        }
        fn provider(&self) -> &str {
            "fixed"
        }
        fn model(&self) -> &str {
            "fixed"
        }
        fn stream(&self, _request: ChatRequest) -> EventStream {
            futures::stream::iter(self.0.clone().into_iter().map(Ok)).boxed()
        }
    }

    fn text(piece: &str) -> StreamEvent {
        StreamEvent::TextDelta(piece.to_string())
    }

    fn arguments(piece: &str) -> StreamEvent {
        StreamEvent::ToolCallArgsDelta {
            index: 0,
            fragment: piece.to_string(),
        }
    }

    #[tokio::test]
    async fn echoed_keys_leave_text_and_arguments_whole_and_redacted() {
        let inner: Arc<dyn Backend> = Arc::new(Fixed(vec![
            text("the key is sk-hos"),
            text("tile-secret-4"),
            text("2! and sk-"),
            StreamEvent::ToolCallStart {
                index: 0,
                id: "call_1".to_string(),
                name: "new_answer".to_string(),
            },
            arguments("{\"content\": \"use sk-hostile"),
            arguments("-secret-42 here\"}"),
            StreamEvent::Finish(FinishReason::ToolCalls),
        ]));
        let backend = RedactingBackend::wrap(inner, &Redactor::new([KEY]));
        let mut stream = backend.stream(ChatRequest {
            messages: vec![Message::user("hi")].into(),
            tools: Vec::new(),
        });
        let mut turn = TurnBuilder::default();
        while let Some(event) = stream.next().await {
            turn.push(&event.unwrap());
        }
        let turn = turn.finish().unwrap();
        assert_eq!(turn.text, "the key is [REDACTED]! and sk-");
        assert_eq!(turn.tool_calls.len(), 1);
        assert_eq!(
            turn.tool_calls[0].arguments,
            "{\"content\": \"use [REDACTED] here\"}"
        );
    }

    #[tokio::test]
    async fn a_retry_voids_what_was_held_and_loses_its_secrets() {
        let inner: Arc<dyn Backend> = Arc::new(Fixed(vec![
            text("partial sk-hos"),
            StreamEvent::Retry {
                attempt: 1,
                max_retries: 2,
                delay: std::time::Duration::ZERO,
                reason: format!("server said {KEY}"),
            },
            text("again"),
            StreamEvent::Finish(FinishReason::Stop),
        ]));
        let backend = RedactingBackend::wrap(inner, &Redactor::new([KEY]));
        let events: Vec<StreamEvent> = backend
            .stream(ChatRequest {
                messages: Vec::new().into(),
                tools: Vec::new(),
            })
            .map(Result::unwrap)
            .collect()
            .await;
        let shown = format!("{events:?}");
        assert!(!shown.contains(KEY), "{shown}");
        assert!(!shown.contains("sk-hos"), "{shown}");
        assert!(shown.contains("server said [REDACTED]"), "{shown}");
    }
}
