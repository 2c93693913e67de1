//! What an agent task uses to reach the world: its model (`model_call`), its tools, queued
//! human input, and the driver; and the running of a model turn's tool calls.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

use super::channel::AgentSink;
use super::inbox::HumanInbox;
use super::model_call::ModelLink;
use super::turn_tools::TurnTools;
use crate::backend::{AssistantTurn, Message};
use crate::protocol::{AgentStatus, EventMsg};
use crate::tools::{ToolResult, ToolRouter};

pub struct AgentLink {
    /// The agent's model, and the driver its calls and tools report to.
    pub model: ModelLink,
    pub router: Arc<dyn ToolRouter>,
    pub inbox: HumanInbox,
    /// The turn's task-plan and broadcast tools, and planning mode's gate.
    pub turn_tools: TurnTools,
}

impl AgentLink {
    pub fn sink(&self) -> &AgentSink {
        &self.model.sink
    }

    /// Records `turn` in `messages`, runs its tool calls one after another and appends their
    /// results. Human input waiting for this agent is appended to the first result.
    pub async fn run_tools(&self, messages: &mut Vec<Message>, turn: &AssistantTurn) {
        messages.push(Message::Assistant {
            content: turn.text.clone(),
            tool_calls: turn.tool_calls.clone(),
            reasoning: turn.reasoning_blocks.clone(),
        });
        self.model.status(AgentStatus::Tool);
        let first_result = messages.len();
        for call in &turn.tool_calls {
            if let Some(message) = self.turn_tools.blocked(&call.name) {
                self.sink().event(EventMsg::ToolBlocked {
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
            self.sink().event(EventMsg::ToolCallBegin {
                call_id: call.id.clone(),
                tool: call.name.clone(),
                arguments: call.arguments.clone(),
            });
            let started = Instant::now();
            let ToolResult { outcome, events } = match self.turn_tools.call(call, self.sink()).await
            {
                Some(result) => result,
                None => self.router.call(call.clone()).await,
            };
            for event in events {
                self.sink().event(event);
            }
            self.sink().event(EventMsg::ToolCallEnd {
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
            for text in self.inbox.take_for(self.sink().agent()) {
                let _ = write!(content, "\n[Human Input]: {text}\n");
                self.sink().event(EventMsg::HumanInputDelivered { text });
            }
        }
    }
}
