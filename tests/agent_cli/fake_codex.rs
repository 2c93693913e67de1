//! An in-test model server for the Codex CLI: OpenAI's Responses API (`POST
//! <base_url>/responses`, streamed as server-sent events named after their `type`) played
//! from a script, one step per request of the main conversation, every answer with usage.
//!
//! Codex defers MCP tools behind its client-side `tool_search` tool for models that support
//! it: a step that calls a tool the request does not offer, while `tool_search` is offered,
//! is preceded by a `tool_search_call` for that name (not consuming the step); Codex answers
//! in the next request with a `tool_search_output` holding the tool's namespace.
//!
//! Side requests, answered without consuming a step: a request with an `x-openai-subagent`
//! header or a `request_kind` other than `turn` in `x-codex-turn-metadata` (Codex's own
//! helpers: review, compaction summaries) gets a short text; `POST …/responses/compact`
//! (remote compaction) an empty output; `GET …/models` an empty model list; a WebSocket
//! attempt (`GET …/responses`, the built-in OpenAI provider only) a 404, after which Codex
//! uses HTTP.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use crate::fake_script::matches;

/// Tokens every answer reports: input (of which cached), output (of which reasoning).
pub const INPUT_TOKENS: u64 = 100;
pub const CACHED_TOKENS: u64 = 10;
pub const OUTPUT_TOKENS: u64 = 20;
pub const REASONING_TOKENS: u64 = 5;

pub use crate::fake_script::Step;

/// One request of the main conversation.
#[derive(Clone, Debug)]
pub struct ModelRequest {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

impl ModelRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// Every tool the model may call now, MCP tools as `<namespace>__<name>`
    /// (`mcp__massgen__vote`), the ones a `tool_search` found included.
    pub fn tool_names(&self) -> Vec<String> {
        self.offered().into_iter().map(|tool| tool.name).collect()
    }

    /// The tool results the conversation holds.
    pub fn tool_results(&self) -> usize {
        self.input()
            .iter()
            .filter(|item| {
                matches!(
                    item["type"].as_str(),
                    Some("function_call_output" | "custom_tool_call_output")
                )
            })
            .count()
    }

    /// The whole body as text.
    pub fn text(&self) -> String {
        self.body.to_string()
    }

    fn input(&self) -> Vec<Value> {
        self.body["input"].as_array().cloned().unwrap_or_default()
    }

    fn offered(&self) -> Vec<Offered> {
        let mut offered = Vec::new();
        let found = self
            .input()
            .into_iter()
            .filter(|item| item["type"] == "tool_search_output")
            .flat_map(|item| item["tools"].as_array().cloned().unwrap_or_default());
        let tools = self.body["tools"].as_array().cloned().unwrap_or_default();
        for tool in tools.into_iter().chain(found) {
            let kind = tool["type"].as_str().unwrap_or_default().to_string();
            let name = tool["name"].as_str().unwrap_or(&kind).to_string();
            if kind == "namespace" {
                for inner in tool["tools"].as_array().into_iter().flatten() {
                    let inner_name = inner["name"].as_str().unwrap_or_default();
                    offered.push(Offered {
                        name: format!("{name}__{inner_name}"),
                        call: inner_name.to_string(),
                        namespace: Some(name.clone()),
                        custom: false,
                    });
                }
            } else {
                offered.push(Offered {
                    call: name.clone(),
                    name,
                    namespace: None,
                    custom: kind == "custom",
                });
            }
        }
        offered
    }

    fn searched(&self, query: &str) -> bool {
        self.input()
            .iter()
            .any(|item| item["type"] == "tool_search_call" && item["arguments"]["query"] == query)
    }
}

struct Offered {
    name: String,
    call: String,
    namespace: Option<String>,
    custom: bool,
}

type Policy = dyn Fn(&ModelRequest) -> Step + Send + Sync;

enum Source {
    Script(Mutex<VecDeque<Step>>),
    Policy(Box<Policy>),
}

#[derive(Clone)]
struct Shared {
    source: Arc<Source>,
    requests: Arc<Mutex<Vec<ModelRequest>>>,
    side: Arc<Mutex<Vec<String>>>,
    count: Arc<Mutex<u64>>,
}

pub struct FakeModel {
    /// What Codex's `base_url` is set to (`http://127.0.0.1:<port>/v1`).
    pub base_url: String,
    shared: Shared,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeModel {
    /// Plays `steps` in order, then answers "done.".
    pub async fn start(steps: Vec<Step>) -> Self {
        Self::serve(Source::Script(Mutex::new(steps.into()))).await
    }

    /// Answers each request of the main conversation with what `policy` decides.
    pub async fn with_policy(
        policy: impl Fn(&ModelRequest) -> Step + Send + Sync + 'static,
    ) -> Self {
        Self::serve(Source::Policy(Box::new(policy))).await
    }

    async fn serve(source: Source) -> Self {
        let shared = Shared {
            source: Arc::new(source),
            requests: Arc::default(),
            side: Arc::default(),
            count: Arc::default(),
        };
        let (address, server) = crate::fake_script::serve(
            axum::Router::new()
                .fallback(handle)
                .with_state(shared.clone()),
        );
        Self {
            base_url: format!("http://{address}/v1"),
            shared,
            server,
        }
    }

    /// The requests of the main conversation, in order.
    pub fn requests(&self) -> Vec<ModelRequest> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// The side requests answered, as `METHOD path`.
    pub fn side_requests(&self) -> Vec<String> {
        self.shared.side.lock().unwrap().clone()
    }
}

fn is_main(method: &Method, path: &str, headers: &HeaderMap) -> bool {
    let kind = headers
        .get("x-codex-turn-metadata")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| serde_json::from_str::<Value>(value).ok())
        .and_then(|metadata| metadata["request_kind"].as_str().map(str::to_string));
    *method == Method::POST
        && path.ends_with("/responses")
        && !headers.contains_key("x-openai-subagent")
        && kind.is_none_or(|kind| kind == "turn")
}

async fn handle(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    if !is_main(&method, &path, &headers) {
        shared.side.lock().unwrap().push(format!("{method} {path}"));
        return side_answer(&method, &path, &shared);
    }
    let request = ModelRequest {
        path,
        headers,
        body,
    };
    shared.requests.lock().unwrap().push(request.clone());
    let step = match &*shared.source {
        Source::Script(steps) => steps.lock().unwrap().front().cloned(),
        Source::Policy(policy) => Some(policy(&request)),
    };
    let step = step.unwrap_or_else(|| Step::Text("done.".into()));
    let (items, consumed) = answer(&request, &step);
    if consumed && let Source::Script(steps) = &*shared.source {
        steps.lock().unwrap().pop_front();
    }
    stream(&shared, items)
}

fn side_answer(method: &Method, path: &str, shared: &Shared) -> Response {
    if *method == Method::POST && path.ends_with("/responses") {
        return stream(shared, vec![message("summary.")]);
    }
    if *method == Method::POST && path.ends_with("/responses/compact") {
        return json_reply(StatusCode::OK, json!({ "output": [] }));
    }
    if *method == Method::GET && path.ends_with("/models") {
        return json_reply(StatusCode::OK, json!({ "models": [] }));
    }
    json_reply(
        StatusCode::NOT_FOUND,
        json!({ "error": { "message": "not here", "type": "invalid_request_error" } }),
    )
}

/// The output items for `step`, and whether the step was used (not a tool search first).
fn answer(request: &ModelRequest, step: &Step) -> (Vec<Value>, bool) {
    let (tool, arguments) = match step {
        Step::Text(text) => return (vec![message(text)], true),
        Step::Call { tool, arguments } => (tool, arguments),
    };
    let offered = request.offered();
    let call_id = format!("call_{}", request.tool_results() + 1);
    let Some(found) = offered.iter().find(|offered| matches(&offered.name, tool)) else {
        let can_search = offered.iter().any(|offered| offered.name == "tool_search");
        if can_search && !request.searched(tool) {
            let search = json!({
                "type": "tool_search_call", "id": "ts_1", "call_id": format!("search_{call_id}"),
                "execution": "client", "status": "completed",
                "arguments": { "query": tool, "limit": 8 },
            });
            return (vec![search], false);
        }
        let call = json!({
            "type": "function_call", "id": "fc_1", "call_id": call_id, "status": "completed",
            "name": tool, "arguments": arguments.to_string(),
        });
        return (vec![call], true);
    };
    let item = if found.custom {
        let input = arguments
            .as_str()
            .map_or_else(|| arguments.to_string(), str::to_string);
        json!({
            "type": "custom_tool_call", "id": "ctc_1", "call_id": call_id, "status": "completed",
            "name": found.call, "input": input,
        })
    } else {
        let mut call = json!({
            "type": "function_call", "id": "fc_1", "call_id": call_id, "status": "completed",
            "name": found.call, "arguments": arguments.to_string(),
        });
        if let Some(namespace) = &found.namespace {
            call["namespace"] = json!(namespace);
        }
        call
    };
    (vec![item], true)
}

fn message(text: &str) -> Value {
    json!({
        "type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
        "content": [{ "type": "output_text", "text": text, "annotations": [] }],
    })
}

/// The Responses stream of one answer: created, each item added, streamed and done, then
/// completed with usage.
fn stream(shared: &Shared, items: Vec<Value>) -> Response {
    let number = {
        let mut count = shared.count.lock().unwrap();
        *count += 1;
        *count
    };
    let id = format!("resp_{number}");
    let mut events = vec![json!({
        "type": "response.created",
        "response": { "id": id, "object": "response", "status": "in_progress", "output": [] },
    })];
    for (index, item) in items.iter().enumerate() {
        events.extend(item_events(index, item));
    }
    events.push(json!({
        "type": "response.completed",
        "response": {
            "id": id, "object": "response", "status": "completed", "output": items,
            "usage": {
                "input_tokens": INPUT_TOKENS,
                "input_tokens_details": { "cached_tokens": CACHED_TOKENS },
                "output_tokens": OUTPUT_TOKENS,
                "output_tokens_details": { "reasoning_tokens": REASONING_TOKENS },
                "total_tokens": INPUT_TOKENS + OUTPUT_TOKENS,
            },
        },
    }));
    let body: String = events
        .iter()
        .map(|event| {
            format!(
                "event: {}\ndata: {event}\n\n",
                event["type"].as_str().unwrap()
            )
        })
        .collect();
    Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(Body::from(body))
        .unwrap()
}

fn item_events(index: usize, item: &Value) -> Vec<Value> {
    let item_id = item["id"].clone();
    let mut opened = item.clone();
    let mut events = Vec::new();
    match item["type"].as_str() {
        Some("message") => {
            opened["content"] = json!([]);
            opened["status"] = json!("in_progress");
            events.push(json!({ "type": "response.output_item.added", "output_index": index, "item": opened }));
            let text = item["content"][0]["text"].as_str().unwrap_or_default();
            for piece in text.split_inclusive(' ') {
                events.push(json!({
                    "type": "response.output_text.delta", "item_id": item_id,
                    "output_index": index, "content_index": 0, "delta": piece,
                }));
            }
            events.push(json!({
                "type": "response.output_text.done", "item_id": item_id,
                "output_index": index, "content_index": 0, "text": text,
            }));
        }
        Some("function_call") => {
            opened["arguments"] = json!("");
            events.push(json!({ "type": "response.output_item.added", "output_index": index, "item": opened }));
            events.push(json!({
                "type": "response.function_call_arguments.delta", "item_id": item_id,
                "output_index": index, "delta": item["arguments"],
            }));
            events.push(json!({
                "type": "response.function_call_arguments.done", "item_id": item_id,
                "output_index": index, "arguments": item["arguments"],
            }));
        }
        Some("custom_tool_call") => {
            opened["input"] = json!("");
            events.push(json!({ "type": "response.output_item.added", "output_index": index, "item": opened }));
            events.push(json!({
                "type": "response.custom_tool_call_input.delta", "item_id": item_id,
                "output_index": index, "delta": item["input"],
            }));
        }
        _ => events.push(
            json!({ "type": "response.output_item.added", "output_index": index, "item": opened }),
        ),
    }
    events
        .push(json!({ "type": "response.output_item.done", "output_index": index, "item": item }));
    events
}

fn json_reply(status: StatusCode, body: Value) -> Response {
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}
