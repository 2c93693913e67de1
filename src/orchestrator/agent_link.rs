//! What an agent task uses to reach the world: its model (`model_call`), its tools, queued
//! human input, and the driver; and the running of a model turn's tool calls.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use futures::StreamExt;
use futures::stream::FuturesOrdered;

use super::approvals::AgentGate;
use super::channel::AgentSink;
use super::inbox::HumanInbox;
use super::model_call::ModelLink;
use super::prompts::updates;
use super::round_clock::RoundClock;
use super::turn_tools::TurnTools;
use crate::backend::{AssistantTurn, Message, ToolCall};
use crate::config::ToolExecution;
use crate::protocol::{AgentStatus, EventMsg, RoundTimeStage};
use crate::tools::{ToolResult, ToolRouter};

pub struct AgentLink {
    /// The agent's model, and the driver its calls and tools report to.
    pub model: ModelLink,
    pub router: Arc<dyn ToolRouter>,
    pub inbox: HumanInbox,
    /// The turn's task-plan and broadcast tools, and planning mode's gate.
    pub turn_tools: TurnTools,
    /// How the calls of one reply run (the agent's `concurrent_tool_execution`, …).
    pub execution: ToolExecution,
    /// The agent's tool calls so far in this run, for its debug delay.
    pub tool_calls_made: Arc<AtomicU32>,
    /// The agent's permission check, when its config has a `permissions:` block.
    pub approvals: Option<Arc<AgentGate>>,
}

impl AgentLink {
    pub fn sink(&self) -> &AgentSink {
        &self.model.sink
    }

    /// Records `turn` in `messages`, runs its tool calls — one after another, or as many at
    /// once as the agent's config allows — and appends their results in the order the
    /// model made the calls. Human input waiting for this agent is appended to the first
    /// result.
    pub async fn run_tools(&self, messages: &mut Vec<Message>, turn: &AssistantTurn) {
        messages.push(Message::Assistant {
            content: turn.text.clone(),
            tool_calls: turn.tool_calls.clone(),
            reasoning: turn.reasoning_blocks.clone(),
        });
        self.model.status(AgentStatus::Tool);
        let first_result = messages.len();
        let at_once = self.execution.max_at_once.max(1);
        let mut waiting = turn.tool_calls.iter();
        let mut running = FuturesOrdered::new();
        loop {
            while running.len() < at_once {
                let Some(call) = waiting.next() else {
                    break;
                };
                running.push_back(self.run_one(call));
            }
            let Some(result) = running.next().await else {
                break;
            };
            messages.push(result);
        }
        if let Some(Message::Tool { content, .. }) = messages.get_mut(first_result) {
            for text in self.inbox.take_for(self.sink().agent()) {
                let _ = write!(content, "\n[Human Input]: {text}\n");
                self.sink().event(EventMsg::HumanInputDelivered { text });
            }
        }
    }

    /// Refuses `call`, made past the round's time limit and grace: the first refusal is
    /// reported as the limit reached, each as a blocked tool. The message for the model,
    /// and whether this refusal ends the round.
    pub fn refuse_past_limit(&self, clock: &mut RoundClock, call: &ToolCall) -> (String, bool) {
        if clock.denials() == 0 {
            self.sink().event(EventMsg::RoundTimeLimitReached {
                stage: RoundTimeStage::Blocked,
                elapsed_secs: clock.elapsed().as_secs(),
            });
        }
        let ended = clock.deny();
        let grace = clock.limit().map(|limit| limit.grace).unwrap_or_default();
        let message =
            updates::hard_block_message(&call.name, clock.since_notice(), grace, clock.denials());
        self.sink().event(EventMsg::ToolBlocked {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            message: message.clone(),
        });
        (message, ended)
    }

    /// Runs one call an agent CLI made through its bridge: its result text, with human
    /// input waiting for the agent appended, and whether it failed.
    pub async fn run_bridged(&self, call: &ToolCall) -> (String, bool) {
        self.model.status(AgentStatus::Tool);
        let Message::Tool {
            mut content,
            is_error,
            ..
        } = self.run_one(call).await
        else {
            return (String::new(), true);
        };
        for text in self.inbox.take_for(self.sink().agent()) {
            let _ = write!(content, "\n[Human Input]: {text}\n");
            self.sink().event(EventMsg::HumanInputDelivered { text });
        }
        self.model.status(AgentStatus::Thinking);
        (content, is_error)
    }

    async fn run_one(&self, call: &ToolCall) -> Message {
        if let Some(message) = self.turn_tools.blocked(&call.name) {
            return self.blocked(call, message);
        }
        // The turn's own tools (task plan, broadcast, checklist) change nothing outside it.
        if let Some(gate) = self
            .approvals
            .as_ref()
            .filter(|_| !self.turn_tools.handles(&call.name))
            && let Some(message) = gate.decide(self.sink(), self.router.as_ref(), call).await
        {
            return self.blocked(call, message);
        }
        let category = self.router.category(&call.name);
        self.sink().event(EventMsg::ToolCallBegin {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            category: category.clone(),
        });
        let started = Instant::now();
        let ToolResult { outcome, events } = match self.turn_tools.call(call, self.sink()).await {
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
            category,
        });
        self.debug_pause().await;
        Message::Tool {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: outcome.output,
            is_error: !outcome.ok,
        }
    }

    /// The result of a call that did not run, reported as blocked to every display.
    fn blocked(&self, call: &ToolCall, message: String) -> Message {
        self.sink().event(EventMsg::ToolBlocked {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            message: message.clone(),
        });
        Message::Tool {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: message,
            is_error: true,
        }
    }

    /// MassGen's `debug_delay_seconds`: the agent pauses once in the run, right after its
    /// `debug_delay_after_n_tools`-th tool call, so peers' answers can arrive meanwhile.
    async fn debug_pause(&self) {
        let Some(delay) = self.execution.debug_delay else {
            return;
        };
        let made = self
            .tool_calls_made
            .fetch_add(1, Ordering::SeqCst)
            .saturating_add(1);
        if made == delay.after_calls.max(1) {
            tracing::info!(
                agent = %self.sink().agent(),
                seconds = delay.pause.as_secs_f64(),
                "debug delay after {made} tool calls"
            );
            tokio::time::sleep(delay.pause).await;
        }
    }
}
