//! One streamed model call with its events forwarded as they arrive, and the execution
//! of the non-workflow tool calls it made.

use std::time::Instant;

use futures::StreamExt;

use super::channel::AgentSink;
use super::inbox::HumanInbox;
use crate::backend::{
    AssistantTurn, Backend, BackendError, ChatRequest, Message, StreamEvent, ToolCall, TurnBuilder,
};
use crate::protocol::{AgentStatus, EventMsg};
use crate::tools::ToolRouter;

/// Where streamed text goes: a coordination answer, or the final presentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextRole {
    Coordination,
    FinalPresentation,
}

pub async fn call_model(
    backend: &dyn Backend,
    request: ChatRequest,
    sink: &AgentSink,
    role: TextRole,
) -> Result<AssistantTurn, BackendError> {
    let mut stream = backend.stream(request);
    let mut builder = TurnBuilder::default();
    let mut streaming = false;
    if role == TextRole::Coordination {
        sink.event(EventMsg::AgentStatus {
            status: AgentStatus::Thinking,
        });
    }
    while let Some(item) = stream.next().await {
        let event = item?;
        match &event {
            StreamEvent::TextDelta(text) => {
                if role == TextRole::Coordination && !streaming {
                    streaming = true;
                    sink.event(EventMsg::AgentStatus {
                        status: AgentStatus::Streaming,
                    });
                }
                sink.event(match role {
                    TextRole::Coordination => EventMsg::TextDelta { text: text.clone() },
                    TextRole::FinalPresentation => {
                        EventMsg::FinalPresentationDelta { text: text.clone() }
                    }
                });
            }
            StreamEvent::ReasoningDelta(text) => {
                sink.event(EventMsg::ReasoningDelta { text: text.clone() });
            }
            StreamEvent::Usage(usage) => sink.event(EventMsg::Usage { usage: *usage }),
            StreamEvent::ToolCallStart { .. }
            | StreamEvent::ToolCallArgsDelta { .. }
            | StreamEvent::Finish(_) => {}
        }
        builder.push(&event);
    }
    builder.finish()
}

/// The assistant message that records a turn in the conversation.
pub fn assistant_message(turn: &AssistantTurn) -> Message {
    Message::Assistant {
        content: turn.text.clone(),
        tool_calls: turn.tool_calls.clone(),
    }
}

/// Runs the calls one after another and returns their result messages. Human input
/// waiting for this agent is appended to the first result.
pub async fn run_tools(
    router: &dyn ToolRouter,
    calls: &[ToolCall],
    sink: &AgentSink,
    inbox: &HumanInbox,
) -> Vec<Message> {
    sink.event(EventMsg::AgentStatus {
        status: AgentStatus::Tool,
    });
    let mut results = Vec::with_capacity(calls.len());
    for call in calls {
        sink.event(EventMsg::ToolCallBegin {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
        });
        let started = Instant::now();
        let outcome = router.call(call.clone()).await;
        sink.event(EventMsg::ToolCallEnd {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            ok: outcome.ok,
            output: outcome.output.clone(),
            duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
        results.push(Message::Tool {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: outcome.output,
            is_error: !outcome.ok,
        });
    }
    if let Some(Message::Tool { content, .. }) = results.first_mut() {
        for text in inbox.take_for(sink.agent()) {
            content.push_str(&format!("\n[Human Input]: {text}\n"));
            sink.event(EventMsg::HumanInputDelivered { text });
        }
    }
    results
}
