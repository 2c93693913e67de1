//! An agent's way to its model: one streamed call at a time, every delta forwarded to the
//! driver as it arrives, and each call metered — its time to first output and duration, and
//! its usage: the provider's, or a tokenizer estimate when the provider reported none or the
//! stream was cut (an error, a restart or a cancel drops the meter mid-stream).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use tokio::time::Instant;

use super::channel::AgentSink;
use crate::backend::{
    AssistantTurn, Backend, BackendError, ChatRequest, Message, StreamEvent, ToolSpec, TurnBuilder,
    tokens,
};
use crate::protocol::{AgentStatus, CallTiming, EventMsg, Spend, Usage};
use crate::session;

/// Where streamed text goes: a coordination answer, the final presentation, or nowhere
/// (a side question such as planning mode's, read whole when the call ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextRole {
    Coordination,
    FinalPresentation,
    Quiet,
}

/// One agent's model and the driver its calls report to.
pub struct ModelLink {
    pub sink: AgentSink,
    backend: Arc<dyn Backend>,
    /// Usage of the calls made through this link so far (one round or presentation).
    spent: Mutex<Spent>,
}

/// What the calls of one round (or presentation) used.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Spent {
    spend: Spend,
    calls: u32,
}

impl ModelLink {
    pub fn new(sink: AgentSink, backend: Arc<dyn Backend>) -> Self {
        Self {
            sink,
            backend,
            spent: Mutex::default(),
        }
    }

    /// The agent's backend (an agent CLI's is asked for its own loop of tool calls).
    pub fn backend(&self) -> Arc<dyn Backend> {
        Arc::clone(&self.backend)
    }

    /// One model call; text, reasoning and usage are forwarded as they stream in.
    pub async fn call_model(
        &self,
        messages: &Arc<Vec<Message>>,
        tools: &[ToolSpec],
        role: TextRole,
    ) -> Result<AssistantTurn, BackendError> {
        let request = ChatRequest {
            messages: Arc::clone(messages),
            tools: tools.to_vec(),
        };
        let mut stream = self.backend.stream(request);
        let mut meter = CallMeter::start(messages, tools, |usage, cost, timing| {
            self.record_usage(usage, cost, timing);
        });
        let mut streaming = false;
        if role == TextRole::Coordination {
            self.status(AgentStatus::Thinking);
        }
        while let Some(item) = stream.next().await {
            let event = item?;
            meter.push(&event);
            match event {
                StreamEvent::TextDelta(text) => {
                    if role == TextRole::Coordination && !std::mem::replace(&mut streaming, true) {
                        self.status(AgentStatus::Streaming);
                    }
                    match role {
                        TextRole::Coordination => {
                            self.sink.stream(EventMsg::TextDelta { text }).await;
                        }
                        TextRole::FinalPresentation => {
                            self.sink
                                .stream(EventMsg::FinalPresentationDelta { text })
                                .await;
                        }
                        TextRole::Quiet => {}
                    }
                }
                StreamEvent::ReasoningDelta(text) => {
                    if role != TextRole::Quiet {
                        self.sink.stream(EventMsg::ReasoningDelta { text }).await;
                    }
                }
                StreamEvent::Retry {
                    attempt,
                    max_retries,
                    delay,
                    reason,
                } => {
                    streaming = false;
                    self.sink.event(EventMsg::Retrying {
                        attempt,
                        max_retries,
                        delay_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                        reason,
                    });
                }
                StreamEvent::ProviderTool(call) => {
                    if role != TextRole::Quiet {
                        self.sink.event(EventMsg::ProviderTool(call));
                    }
                }
                StreamEvent::Usage(_)
                | StreamEvent::ReportedCost(_)
                | StreamEvent::ProviderBlock { .. }
                | StreamEvent::ToolCallStart { .. }
                | StreamEvent::ToolCallArgsDelta { .. }
                | StreamEvent::ToolCallSignature { .. }
                | StreamEvent::ReasoningSignature(_)
                | StreamEvent::RedactedReasoning(_)
                | StreamEvent::Finish(_) => {}
            }
        }
        meter.finish()
    }

    fn record_usage(&self, usage: Usage, reported_cost: Option<f64>, timing: CallTiming) {
        // A server on this machine may be a proxy to a paid API: its model's price is
        // looked up like any other, and is unknown rather than $0 when not found.
        let cost_usd = reported_cost
            .or_else(|| session::estimate(self.backend.kind(), self.backend.model(), &usage).usd());
        if let Ok(mut spent) = self.spent.lock() {
            spent.spend.add(usage, cost_usd);
            spent.calls += 1;
        }
        self.sink.event(EventMsg::Usage {
            usage,
            cost_usd,
            timing: Some(timing),
        });
    }

    /// Reports what this link's calls used in total, if it made any.
    pub fn report_spent(&self) {
        let spent = self.spent.lock().map(|spent| *spent).unwrap_or_default();
        if spent.calls > 0 {
            self.sink.event(EventMsg::RoundUsage {
                usage: spent.spend.usage,
                cost_usd: spent.spend.known_cost(),
                calls: spent.calls,
            });
        }
    }

    pub fn status(&self, status: AgentStatus) {
        self.sink.event(EventMsg::AgentStatus { status });
    }
}

/// Measures one call and hands its usage and timing to `record`, once: when the call
/// finishes, or when the meter is dropped mid-stream.
struct CallMeter<'a, R: FnOnce(Usage, Option<f64>, CallTiming)> {
    messages: &'a [Message],
    tools: &'a [ToolSpec],
    builder: TurnBuilder,
    started: Instant,
    first_output: Option<Duration>,
    /// `None` once reported.
    record: Option<R>,
}

impl<'a, R: FnOnce(Usage, Option<f64>, CallTiming)> CallMeter<'a, R> {
    fn start(messages: &'a [Message], tools: &'a [ToolSpec], record: R) -> Self {
        Self {
            messages,
            tools,
            builder: TurnBuilder::default(),
            started: Instant::now(),
            first_output: None,
            record: Some(record),
        }
    }

    fn push(&mut self, event: &StreamEvent) {
        if self.first_output.is_none()
            && matches!(
                event,
                StreamEvent::TextDelta(_)
                    | StreamEvent::ReasoningDelta(_)
                    | StreamEvent::ToolCallStart { .. }
            )
        {
            self.first_output = Some(self.started.elapsed());
        }
        self.builder.push(event);
    }

    /// Reports the call's usage and returns the complete turn.
    fn finish(mut self) -> Result<AssistantTurn, BackendError> {
        self.report();
        std::mem::take(&mut self.builder).finish()
    }

    /// Reports the usage once. A call cut before anything streamed reports nothing: a
    /// provider that refused the request bills nothing either.
    fn report(&mut self) {
        let Some(record) = self.record.take() else {
            return;
        };
        let usage = match self.builder.reported_usage() {
            Some(usage) => usage,
            None if self.first_output.is_none() => return,
            None => self
                .builder
                .estimated_usage(tokens::count_prompt(self.messages, self.tools)),
        };
        let millis = |duration: Duration| u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        record(
            usage,
            self.builder.reported_cost(),
            CallTiming {
                duration_ms: millis(self.started.elapsed()),
                ttft_ms: self.first_output.map(millis),
            },
        );
    }
}

impl<R: FnOnce(Usage, Option<f64>, CallTiming)> Drop for CallMeter<'_, R> {
    fn drop(&mut self) {
        self.report();
    }
}
