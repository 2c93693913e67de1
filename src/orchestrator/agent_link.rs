//! What an agent task uses to reach the world: its model (one streamed call at a time, with
//! every delta forwarded as it arrives), its tools, queued human input, and the driver.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use futures::StreamExt;

use super::call_meter::CallMeter;
use super::channel::AgentSink;
use super::inbox::HumanInbox;
use super::turn_tools::TurnTools;
use crate::backend::{
    AssistantTurn, Backend, BackendError, ChatRequest, Message, StreamEvent, ToolSpec,
};
use crate::protocol::{AgentStatus, CallTiming, EventMsg, Spend, Usage};
use crate::session;
use crate::tools::{ToolResult, ToolRouter};

/// Where streamed text goes: a coordination answer, the final presentation, or nowhere
/// (a side question such as planning mode's, read whole when the call ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextRole {
    Coordination,
    FinalPresentation,
    Quiet,
}

pub struct AgentLink {
    pub sink: AgentSink,
    pub backend: Arc<dyn Backend>,
    pub router: Arc<dyn ToolRouter>,
    pub inbox: HumanInbox,
    /// The turn's task-plan and broadcast tools, and planning mode's gate.
    pub turn_tools: TurnTools,
    /// Usage of the calls made through this link so far (one round or presentation).
    pub spent: Mutex<Spent>,
}

/// What the calls of one round (or presentation) used.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    pub spend: Spend,
    pub calls: u32,
}

impl AgentLink {
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
        let mut meter = CallMeter::start(self, messages, tools);
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

    /// Records `turn` in `messages`, runs its tool calls one after another and appends their
    /// results. Human input waiting for this agent is appended to the first result.
    pub async fn run_tools(&self, messages: &mut Vec<Message>, turn: &AssistantTurn) {
        messages.push(Message::Assistant {
            content: turn.text.clone(),
            tool_calls: turn.tool_calls.clone(),
            reasoning: turn.reasoning_blocks.clone(),
        });
        self.status(AgentStatus::Tool);
        let first_result = messages.len();
        for call in &turn.tool_calls {
            if let Some(message) = self.turn_tools.blocked(&call.name) {
                self.sink.event(EventMsg::ToolBlocked {
                    call_id: call.id.clone(),
                    tool: call.name.clone(),
                    arguments: call.arguments.clone(),
                    message: message.clone(),
                });
                messages.push(Message::Tool {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    content: message,
                    is_error: true,
                });
                continue;
            }
            self.sink.event(EventMsg::ToolCallBegin {
                call_id: call.id.clone(),
                tool: call.name.clone(),
                arguments: call.arguments.clone(),
            });
            let started = Instant::now();
            let ToolResult { outcome, events } = match self.turn_tools.call(call, &self.sink).await
            {
                Some(result) => result,
                None => self.router.call(call.clone()).await,
            };
            for event in events {
                self.sink.event(event);
            }
            self.sink.event(EventMsg::ToolCallEnd {
                call_id: call.id.clone(),
                tool: call.name.clone(),
                ok: outcome.ok,
                output: outcome.output.clone(),
                duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            });
            messages.push(Message::Tool {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content: outcome.output,
                is_error: !outcome.ok,
            });
        }
        if let Some(Message::Tool { content, .. }) = messages.get_mut(first_result) {
            for text in self.inbox.take_for(self.sink.agent()) {
                let _ = write!(content, "\n[Human Input]: {text}\n");
                self.sink.event(EventMsg::HumanInputDelivered { text });
            }
        }
    }

    pub(super) fn record_usage(&self, usage: Usage, timing: CallTiming) {
        // A server on this machine may be a proxy to a paid API: its model's price is
        // looked up like any other, and is unknown rather than $0 when not found.
        let cost_usd = session::estimate(self.backend.kind(), self.backend.model(), &usage).usd();
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

    fn status(&self, status: AgentStatus) {
        self.sink.event(EventMsg::AgentStatus { status });
    }
}
