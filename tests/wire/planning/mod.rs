//! Planning, plan execution, config planning mode and `ask_others` end to end over real
//! provider protocols: whole turns through `orchestrator::spawn`, the agents' backends
//! pointed at an in-test server that plays the models. It reads each request body as the
//! protocol wrote it (messages, tool calls with their results, tools offered) and streams
//! the protocol's exact SSE bytes back: tool calls, or text.
//! This module holds the model's side of the wire; the tests are in `flows` (a planning
//! turn, then executing its plan) and `gating` (planning mode's blocked tools, questions
//! to peers).

use std::sync::atomic::{AtomicUsize, Ordering};

use massgen::protocol::{Event, EventMsg, PlanStatus};
use serde_json::{Value, json};

use crate::mock_llm::{MockLlm, Recorded, Reply, data, typed};

mod flows;
mod gating;

pub const WRITE_FILE: &str = "mcp__filesystem__write_file";
pub const LIST_DIRECTORY: &str = "mcp__filesystem__list_directory";
pub const READY: &str = "get_ready_tasks";
pub const UPDATE: &str = "update_task_status";

/// The protocols the tests speak.
#[derive(Clone, Copy, Debug)]
pub enum Wire {
    /// OpenAI Chat Completions (`vllm`, keyless on loopback).
    Chat,
    /// Anthropic Messages (`claude`, with a key).
    Anthropic,
}

impl Wire {
    /// The backend block of an agent whose model is named after it, at `server`.
    pub fn backend(self, server: &MockLlm, agent: &str) -> String {
        match self {
            Self::Chat => format!(
                "{{type: vllm, model: {agent}, base_url: \"{}/v1\", max_retries: 0, cwd: workspace}}",
                server.base_url
            ),
            Self::Anthropic => format!(
                "{{type: claude, model: {agent}, api_key: sk-ant-test, base_url: \"{}\", max_retries: 0, cwd: workspace}}",
                server.base_url
            ),
        }
    }

    /// The path every request of this protocol goes to.
    pub fn path(self) -> &'static str {
        match self {
            Self::Chat => "/v1/chat/completions",
            Self::Anthropic => "/v1/messages",
        }
    }

    /// `name`'s tool definition in this protocol's format, as the request carried it.
    pub fn tool<'a>(self, body: &'a Value, name: &str) -> Option<&'a Value> {
        body["tools"].as_array()?.iter().find(|tool| match self {
            Self::Chat => tool["function"]["name"] == name,
            Self::Anthropic => tool["name"] == name,
        })
    }
}

/// One tool call the model made earlier in the conversation, with its result if it came.
#[derive(Clone, Debug)]
pub struct Call {
    pub id: String,
    pub name: String,
    pub arguments: Value,
    pub result: Option<String>,
}

/// A request as the model reads it, whichever protocol carried it.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The `model` of the body: the agent's id.
    pub model: String,
    /// Offered tools: name and parameter schema.
    pub tools: Vec<(String, Value)>,
    /// The texts of the user messages.
    pub users: Vec<String>,
    pub calls: Vec<Call>,
}

impl Seen {
    pub fn read(wire: Wire, body: &Value) -> Self {
        let mut seen = Self {
            model: body["model"].as_str().unwrap_or_default().to_string(),
            tools: Vec::new(),
            users: Vec::new(),
            calls: Vec::new(),
        };
        for tool in body["tools"].as_array().into_iter().flatten() {
            let (name, schema) = match wire {
                Wire::Chat => (&tool["function"]["name"], &tool["function"]["parameters"]),
                Wire::Anthropic => (&tool["name"], &tool["input_schema"]),
            };
            seen.tools
                .push((name.as_str().unwrap_or_default().into(), schema.clone()));
        }
        for message in body["messages"].as_array().into_iter().flatten() {
            match wire {
                Wire::Chat => seen.read_chat(message),
                Wire::Anthropic => seen.read_anthropic(message),
            }
        }
        seen
    }

    fn read_chat(&mut self, message: &Value) {
        match message["role"].as_str().unwrap_or_default() {
            "user" => self.users.push(text(&message["content"])),
            "assistant" => {
                for call in message["tool_calls"].as_array().into_iter().flatten() {
                    let arguments = call["function"]["arguments"].as_str().unwrap_or("{}");
                    self.calls.push(Call {
                        id: text(&call["id"]),
                        name: text(&call["function"]["name"]),
                        arguments: serde_json::from_str(arguments).unwrap_or(Value::Null),
                        result: None,
                    });
                }
            }
            "tool" => self.answer(&text(&message["tool_call_id"]), &message["content"]),
            _ => {}
        }
    }

    fn read_anthropic(&mut self, message: &Value) {
        let blocks = match &message["content"] {
            Value::Array(blocks) => blocks.clone(),
            other => vec![json!({"type": "text", "text": other})],
        };
        for block in &blocks {
            match (message["role"].as_str(), block["type"].as_str()) {
                (Some("user"), Some("text")) => self.users.push(text(&block["text"])),
                (Some("user"), Some("tool_result")) => {
                    self.answer(&text(&block["tool_use_id"]), &block["content"]);
                }
                (Some("assistant"), Some("tool_use")) => self.calls.push(Call {
                    id: text(&block["id"]),
                    name: text(&block["name"]),
                    arguments: block["input"].clone(),
                    result: None,
                }),
                _ => {}
            }
        }
    }

    fn answer(&mut self, id: &str, content: &Value) {
        if let Some(call) = self.calls.iter_mut().find(|call| call.id == id) {
            call.result = Some(text(content));
        }
    }

    pub fn offers(&self, tool: &str) -> bool {
        self.tools.iter().any(|(name, _)| name == tool)
    }

    /// Whether a user message contains `marker`.
    pub fn says(&self, marker: &str) -> bool {
        self.users.iter().any(|user| user.contains(marker))
    }

    /// The latest call of `tool` in this conversation.
    pub fn last_call(&self, tool: &str) -> Option<&Call> {
        self.calls.iter().rev().find(|call| call.name == tool)
    }

    /// Whether this agent's answer is among the current answers.
    pub fn answered(&self) -> bool {
        self.says(&answer_text(&self.model))
    }

    /// The first anonymous id the `vote` tool accepts.
    pub fn first_vote_option(&self) -> Option<String> {
        let (_, schema) = self.tools.iter().find(|(name, _)| name == "vote")?;
        schema["properties"]["agent_id"]["enum"][0]
            .as_str()
            .map(str::to_string)
    }
}

/// A string's text; a list of text blocks joined.
fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks.iter().map(|block| text(&block["text"])).collect(),
        other => other.to_string(),
    }
}

/// What the model does with one request.
#[derive(Clone, Debug)]
pub enum Act {
    Calls(Vec<(String, Value)>),
    Text(String),
    /// The server refuses the request with this status and body.
    Refuse(u16, String),
}

impl Act {
    pub fn call(name: &str, arguments: Value) -> Self {
        Self::Calls(vec![(name.into(), arguments)])
    }
}

/// What an agent answers with: unique, so it knows its answer among the current ones.
pub fn answer_text(agent: &str) -> String {
    format!("The work of {agent} is done.")
}

/// The coordination step after the agent's own work (`None` = the work is done): present
/// as the winner (no `vote` offered), vote for the first answer once it has answered,
/// else work, then answer.
pub fn coordinate(seen: &Seen, work: impl FnOnce(&Seen) -> Option<Act>) -> Act {
    if !seen.offers("vote") {
        return Act::Text(format!("Final presentation by {}.", seen.model));
    }
    if seen.answered() || !seen.offers("new_answer") {
        let target = seen.first_vote_option().unwrap_or_default();
        return Act::call("vote", json!({"agent_id": target, "reason": "Complete."}));
    }
    work(seen)
        .unwrap_or_else(|| Act::call("new_answer", json!({"content": answer_text(&seen.model)})))
}

/// A server that answers each request with what `model` makes of it, in `wire`'s bytes.
pub async fn serve(wire: Wire, model: impl Fn(&Seen) -> Act + Send + Sync + 'static) -> MockLlm {
    let replies = AtomicUsize::new(0);
    MockLlm::with_responder(move |request: &Recorded| {
        let act = model(&Seen::read(wire, &request.body));
        encode(wire, &act, replies.fetch_add(1, Ordering::SeqCst))
    })
    .await
}

/// `act` as the protocol streams it; `reply` numbers the call ids.
fn encode(wire: Wire, act: &Act, reply: usize) -> Reply {
    let split = |text: &str| {
        let middle = (0..=text.len() / 2)
            .rev()
            .find(|index| text.is_char_boundary(*index))
            .unwrap_or(0);
        let (head, tail) = text.split_at(middle);
        [head.to_string(), tail.to_string()]
    };
    let mut events = Vec::new();
    match (wire, act) {
        (_, Act::Refuse(status, body)) => return Reply::status(*status, body),
        (Wire::Chat, Act::Calls(calls)) => {
            for (index, (name, arguments)) in calls.iter().enumerate() {
                let [head, tail] = split(&arguments.to_string());
                events.push(chat(
                    json!({"role": "assistant", "content": null, "tool_calls": [
                    {"index": index, "id": format!("call_{reply}_{index}"), "type": "function",
                     "function": {"name": name, "arguments": head}}]}),
                    None,
                ));
                events.push(chat(
                    json!({"tool_calls": [{"index": index, "function": {"arguments": tail}}]}),
                    None,
                ));
            }
            events.extend(chat_end("tool_calls"));
        }
        (Wire::Chat, Act::Text(text)) => {
            events.push(chat(json!({"role": "assistant", "content": ""}), None));
            for part in split(text) {
                events.push(chat(json!({"content": part}), None));
            }
            events.extend(chat_end("stop"));
        }
        (Wire::Anthropic, Act::Calls(calls)) => {
            events.push(message_start());
            for (index, (name, arguments)) in calls.iter().enumerate() {
                events.push(typed(
                    &json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "tool_use", "id": format!("toolu_{reply}_{index}"),
                                      "name": name, "input": {}}}),
                ));
                for part in split(&arguments.to_string()) {
                    events.push(typed(
                        &json!({"type": "content_block_delta", "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": part}}),
                    ));
                }
                events.push(typed(
                    &json!({"type": "content_block_stop", "index": index}),
                ));
            }
            events.extend(anthropic_end("tool_use"));
        }
        (Wire::Anthropic, Act::Text(text)) => {
            events.push(message_start());
            events.push(typed(&json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "text", "text": ""}})));
            for part in split(text) {
                events.push(typed(&json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "text_delta", "text": part}})));
            }
            events.push(typed(&json!({"type": "content_block_stop", "index": 0})));
            events.extend(anthropic_end("end_turn"));
        }
    }
    Reply::sse(&events)
}

fn chat(delta: Value, finish: Option<&str>) -> String {
    data(
        &json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
        "model": "served", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        .to_string(),
    )
}

fn chat_end(finish: &str) -> Vec<String> {
    vec![
        chat(json!({}), Some(finish)),
        data(
            &json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
            "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}})
            .to_string(),
        ),
        "data: [DONE]\n\n".into(),
    ]
}

fn message_start() -> String {
    typed(
        &json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
        "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "stop_reason": null,
        "usage": {"input_tokens": 120, "output_tokens": 1}}}),
    )
}

fn anthropic_end(stop_reason: &str) -> Vec<String> {
    vec![
        typed(
            &json!({"type": "message_delta", "delta": {"stop_reason": stop_reason},
            "usage": {"output_tokens": 30}}),
        ),
        typed(&json!({"type": "message_stop"})),
    ]
}

/// Every request the server saw, each read as the model read it.
pub fn seen(wire: Wire, server: &MockLlm) -> Vec<(Recorded, Seen)> {
    server
        .requests()
        .into_iter()
        .map(|request| {
            assert_eq!(request.path, wire.path());
            let seen = Seen::read(wire, &request.body);
            (request, seen)
        })
        .collect()
}

/// Every `PlanUpdated`: status and task count.
pub fn plan_updates(events: &[Event]) -> Vec<(PlanStatus, usize, Option<String>)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::PlanUpdated { plan } => {
                Some((plan.status, plan.tasks.len(), plan.detail.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Every tool call of `agent` that ran: tool and whether it succeeded.
pub fn tool_runs(events: &[Event], agent: &str) -> Vec<(String, bool)> {
    events
        .iter()
        .filter(|event| event.agent.as_ref().is_some_and(|id| id.as_str() == agent))
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd { tool, ok, .. } => Some((tool.clone(), *ok)),
            _ => None,
        })
        .collect()
}

/// Two agents, `alpha` and `beta`, on `server`; `orchestrator` is the orchestrator block.
pub fn two_agents(wire: Wire, server: &MockLlm, orchestrator: &str) -> String {
    format!(
        "agents:\n  - id: alpha\n    backend: {}\n  - id: beta\n    backend: {}\n\
         orchestrator:\n  max_new_answers_per_agent: 2\n{orchestrator}",
        wire.backend(server, "alpha"),
        wire.backend(server, "beta"),
    )
}
