//! A fake Anthropic Messages server for Claude Code (axum on 127.0.0.1:0): it plays a model
//! from a script, one step per main-conversation request, in Anthropic's exact streaming
//! events, and records every request.
//!
//! The main conversation is a `POST /v1/messages` that offers tools. Everything else is a
//! side request, answered without taking a step: `/v1/messages/count_tokens` (a token
//! count), a `/v1/messages` without tools (the CLI's small Haiku calls: titles, quota
//! checks; a short text, streamed or not as asked), and any other path (`HEAD /api/hello`,
//! the connectivity check made when non-essential traffic is on; `/api/claude_code/*`,
//! `/api/oauth/*`: an empty JSON object). Every reply reports token usage.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use crate::fake_script::offered_name;

pub use crate::fake_script::Step;

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct ModelRequest {
    pub method: String,
    /// Path and query.
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
    /// Whether it was a main-conversation request (it took a step).
    pub main: bool,
    /// The usage the reply reported: (input, output) tokens.
    pub usage: (u64, u64),
}

impl ModelRequest {
    pub fn tool_names(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
            .collect()
    }

    /// How many tool results the conversation holds.
    pub fn tool_results(&self) -> usize {
        self.blocks()
            .filter(|block| block["type"] == "tool_result")
            .count()
    }

    /// The whole request body as text.
    pub fn text(&self) -> String {
        self.body.to_string()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    fn blocks(&self) -> impl Iterator<Item = &Value> {
        self.body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|message| message["content"].as_array())
            .flatten()
    }
}

type Policy = dyn Fn(&ModelRequest) -> Step + Send + Sync;

#[derive(Clone)]
struct Shared {
    policy: Arc<Policy>,
    requests: Arc<Mutex<Vec<ModelRequest>>>,
}

pub struct FakeModel {
    pub base_url: String,
    requests: Arc<Mutex<Vec<ModelRequest>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeModel {
    /// Plays `steps` in order, then answers "done.".
    pub fn start(steps: Vec<Step>) -> Self {
        Self::with_policy(crate::fake_script::played(steps))
    }

    /// Decides each main-conversation reply from its request. Call inside a tokio runtime.
    pub fn with_policy(policy: impl Fn(&ModelRequest) -> Step + Send + Sync + 'static) -> Self {
        let shared = Shared {
            policy: Arc::new(policy),
            requests: Arc::default(),
        };
        let requests = Arc::clone(&shared.requests);
        let (address, server) =
            crate::fake_script::serve(axum::Router::new().fallback(handle).with_state(shared));
        Self {
            base_url: format!("http://{address}"),
            requests,
            server,
        }
    }

    pub fn requests(&self) -> Vec<ModelRequest> {
        self.requests.lock().unwrap().clone()
    }

    /// The main-conversation requests only.
    pub fn conversation(&self) -> Vec<ModelRequest> {
        self.requests()
            .into_iter()
            .filter(|request| request.main)
            .collect()
    }
}

async fn handle(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_owned(), ToString::to_string);
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let messages = method == Method::POST && uri.path() == "/v1/messages";
    let mut request = ModelRequest {
        method: method.to_string(),
        path,
        headers,
        main: messages
            && body["tools"]
                .as_array()
                .is_some_and(|tools| !tools.is_empty()),
        body,
        usage: (0, 0),
    };
    let input_tokens = request.text().len() as u64 / 4 + 1;
    let response = if request.main {
        let step = (shared.policy)(&request);
        let (reply, output_tokens) = stream(&request, &step, input_tokens);
        request.usage = (input_tokens, output_tokens);
        reply
    } else if messages {
        request.usage = (input_tokens, 3);
        side_reply(&request.body, input_tokens)
    } else if uri.path() == "/v1/messages/count_tokens" {
        json_reply(&json!({ "input_tokens": input_tokens }))
    } else {
        json_reply(&json!({}))
    };
    shared.requests.lock().unwrap().push(request);
    response
}

/// One reply in Anthropic's streaming events; returns it and its output tokens.
fn stream(request: &ModelRequest, step: &Step, input_tokens: u64) -> (Response, u64) {
    let number = request.body["messages"].as_array().map_or(0, Vec::len);
    let model = request.body["model"].as_str().unwrap_or("claude-fake");
    let mut events = vec![
        json!({"type": "message_start", "message": {
            "id": format!("msg_fake_{number:04}"), "type": "message", "role": "assistant",
            "model": model, "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": input_tokens, "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 0, "output_tokens": 1}}}),
        json!({"type": "ping"}),
    ];
    let (stop_reason, output) = match step {
        Step::Text(text) => {
            events.push(json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "text", "text": ""}}));
            for piece in pieces(text) {
                events.push(json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "text_delta", "text": piece}}));
            }
            ("end_turn", text.clone())
        }
        Step::Call { tool, arguments } => {
            let name = offered_name(&request.tool_names(), tool);
            let arguments = arguments.to_string();
            events.push(json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "tool_use", "id": format!("toolu_fake_{number:04}"),
                                  "name": name, "input": {}}}));
            for piece in pieces(&arguments) {
                events.push(json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": piece}}));
            }
            ("tool_use", arguments)
        }
    };
    let output_tokens = output.len() as u64 / 4 + 1;
    events.push(json!({"type": "content_block_stop", "index": 0}));
    events.push(json!({"type": "message_delta",
        "delta": {"stop_reason": stop_reason, "stop_sequence": null},
        "usage": {"output_tokens": output_tokens}}));
    events.push(json!({"type": "message_stop"}));
    let body: String = events
        .iter()
        .map(|event| {
            format!(
                "event: {}\ndata: {event}\n\n",
                event["type"].as_str().unwrap()
            )
        })
        .collect();
    let response = Response::builder()
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .header("request-id", format!("req_fake_{number:04}"))
        .body(Body::from(body))
        .unwrap();
    (response, output_tokens)
}

/// A side request's short answer, streamed or whole as the request asks.
fn side_reply(body: &Value, input_tokens: u64) -> Response {
    let model = body["model"].as_str().unwrap_or("claude-fake");
    let usage = json!({"input_tokens": input_tokens, "output_tokens": 3});
    if body["stream"].as_bool() != Some(true) {
        return json_reply(&json!({"id": "msg_fake_side", "type": "message",
            "role": "assistant", "model": model,
            "content": [{"type": "text", "text": "Side reply."}],
            "stop_reason": "end_turn", "stop_sequence": null, "usage": usage}));
    }
    let request = ModelRequest {
        method: "POST".into(),
        path: String::new(),
        headers: HeaderMap::new(),
        body: body.clone(),
        main: false,
        usage: (0, 0),
    };
    stream(&request, &Step::Text("Side reply.".into()), input_tokens).0
}

fn json_reply(value: &Value) -> Response {
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from(value.to_string()))
        .unwrap()
}

/// Text cut in three, as a model streams it.
fn pieces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let size = chars.len().div_ceil(3).max(1);
    chars
        .chunks(size)
        .map(|chunk| chunk.iter().collect())
        .collect()
}
