//! An in-test Gemini API server (axum on 127.0.0.1:0) for the Gemini CLI: it plays a model
//! from a script on `models/<m>:streamGenerateContent?alt=sse`, in the API's exact SSE
//! format, with `usageMetadata` on every chunk.
//!
//! Side requests the CLI makes outside the main conversation are answered without taking a
//! step, and kept apart (`side_requests`):
//! - `models/<m>:generateContent` (not streamed): the model router when the model is `auto`
//!   (a JSON reply shaped by `generationConfig.responseJsonSchema`), and web search, loop
//!   detection, next-speaker checks, chat compression and session summaries (a short text,
//!   or JSON when a schema is given);
//! - `models/<m>:countTokens` (`{"totalTokens": n}`) and `GET models` (a model list); the CLI
//!   calls neither with an API key, they are answered for completeness.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::fake_script::offered_name;

pub use crate::fake_script::Step;

/// One request as the server saw it, with the tokens it was billed.
#[derive(Clone, Debug)]
pub struct ModelRequest {
    pub method: String,
    /// Path and query.
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
    pub prompt_tokens: u64,
    pub reply_tokens: u64,
}

impl ModelRequest {
    /// The function declarations the request offers.
    pub fn tool_names(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|tool| {
                tool["functionDeclarations"]
                    .as_array()
                    .into_iter()
                    .flatten()
            })
            .filter_map(|function| function["name"].as_str().map(str::to_owned))
            .collect()
    }

    /// Whether the request offers the function `name`.
    pub fn offers(&self, name: &str) -> bool {
        self.tool_names().iter().any(|offered| offered == name)
    }

    /// How many tool results (`functionResponse` parts) the conversation holds.
    pub fn tool_results(&self) -> usize {
        self.parts()
            .filter(|part| part.get("functionResponse").is_some())
            .count()
    }

    /// The whole body as text.
    pub fn text(&self) -> String {
        self.body.to_string()
    }

    /// The texts of the conversation's user turns, in order.
    pub fn user_texts(&self) -> Vec<String> {
        self.body["contents"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|content| content["role"] == "user")
            .flat_map(|content| content["parts"].as_array().into_iter().flatten())
            .filter_map(|part| part["text"].as_str().map(str::to_owned))
            .collect()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    fn parts(&self) -> impl Iterator<Item = &Value> {
        self.body["contents"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|content| content["parts"].as_array().into_iter().flatten())
    }
}

type Policy = dyn Fn(&ModelRequest) -> Step + Send + Sync;

#[derive(Clone)]
struct Shared {
    policy: Arc<Policy>,
    main: Arc<Mutex<Vec<ModelRequest>>>,
    side: Arc<Mutex<Vec<ModelRequest>>>,
}

pub struct FakeModel {
    pub base_url: String,
    main: Arc<Mutex<Vec<ModelRequest>>>,
    side: Arc<Mutex<Vec<ModelRequest>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeModel {
    /// Plays `steps`, one per main-conversation request, then answers "done.".
    pub async fn start(steps: Vec<Step>) -> Self {
        Self::with_policy(crate::fake_script::played(steps)).await
    }

    /// Answers each main-conversation request with what `policy` decides from it.
    pub async fn with_policy(
        policy: impl Fn(&ModelRequest) -> Step + Send + Sync + 'static,
    ) -> Self {
        let shared = Shared {
            policy: Arc::new(policy),
            main: Arc::default(),
            side: Arc::default(),
        };
        let (main, side) = (Arc::clone(&shared.main), Arc::clone(&shared.side));
        let (address, server) =
            crate::fake_script::serve(axum::Router::new().fallback(handle).with_state(shared));
        Self {
            base_url: format!("http://{address}"),
            main,
            side,
            server,
        }
    }

    /// The main conversation's requests (the ones that took a step), in order.
    pub fn requests(&self) -> Vec<ModelRequest> {
        self.main.lock().unwrap().clone()
    }

    /// Every other request.
    pub fn side_requests(&self) -> Vec<ModelRequest> {
        self.side.lock().unwrap().clone()
    }

    /// The tokens billed over all requests: (prompt, reply).
    pub fn billed(&self) -> (u64, u64) {
        let all = self.requests().into_iter().chain(self.side_requests());
        all.fold((0, 0), |(prompt, reply), request| {
            (prompt + request.prompt_tokens, reply + request.reply_tokens)
        })
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
    let mut request = ModelRequest {
        method: method.to_string(),
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        prompt_tokens: (body.len() as u64).div_ceil(4),
        reply_tokens: 0,
    };
    let route = request
        .path
        .split('?')
        .next()
        .unwrap_or_default()
        .to_owned();
    if route.ends_with(":streamGenerateContent") {
        let step = (shared.policy)(&request);
        let reply = stream_reply(&request, &step);
        request.reply_tokens = reply.1;
        shared.main.lock().unwrap().push(request);
        return sse(reply.0);
    }
    let reply = if route.ends_with(":generateContent") {
        let (text, tokens) = side_text(&request.body);
        request.reply_tokens = tokens;
        let chunk = chunk(vec![json!({ "text": text })], true, &request);
        (StatusCode::OK, chunk)
    } else if route.ends_with(":countTokens") {
        let tokens = request.prompt_tokens;
        request.prompt_tokens = 0;
        (StatusCode::OK, json!({ "totalTokens": tokens }))
    } else if method == Method::GET && route.ends_with("/models") {
        request.prompt_tokens = 0;
        let model = json!({ "name": "models/gemini-2.5-flash", "displayName": "Gemini 2.5 Flash" });
        (StatusCode::OK, json!({ "models": [model] }))
    } else {
        request.prompt_tokens = 0;
        let error = json!({ "code": 404, "message": format!("no such endpoint: {route}"), "status": "NOT_FOUND" });
        (StatusCode::NOT_FOUND, json!({ "error": error }))
    };
    shared.side.lock().unwrap().push(request);
    (reply.0, axum::Json(reply.1)).into_response()
}

/// The SSE body for one step, and the reply's tokens. Text comes in two chunks, as the API
/// streams it; a call in one.
fn stream_reply(request: &ModelRequest, step: &Step) -> (String, u64) {
    let (mut parts_per_chunk, tokens) = match step {
        Step::Text(text) => {
            let middle = text.char_indices().nth(text.chars().count() / 2);
            let split = middle.map_or(text.len(), |(index, _)| index);
            let (head, tail) = text.split_at(split);
            let chunks = [head, tail]
                .into_iter()
                .filter(|piece| !piece.is_empty())
                .map(|piece| vec![json!({ "text": piece })])
                .collect::<Vec<_>>();
            (chunks, (text.len() as u64).div_ceil(4).max(1))
        }
        Step::Call { tool, arguments } => {
            let name = offered_name(&request.tool_names(), tool);
            let call = json!({ "functionCall": { "name": name, "args": arguments } });
            (
                vec![vec![call]],
                (arguments.to_string().len() as u64).div_ceil(4) + 5,
            )
        }
    };
    if parts_per_chunk.is_empty() {
        parts_per_chunk.push(vec![json!({ "text": "" })]);
    }
    let last = parts_per_chunk.len() - 1;
    let mut request = request.clone();
    request.reply_tokens = tokens;
    let body = parts_per_chunk
        .into_iter()
        .enumerate()
        .map(|(index, parts)| format!("data: {}\r\n\r\n", chunk(parts, index == last, &request)))
        .collect();
    (body, tokens)
}

/// One `GenerateContentResponse`, with the request's usage.
fn chunk(parts: Vec<Value>, last: bool, request: &ModelRequest) -> Value {
    let mut candidate = json!({ "content": { "role": "model", "parts": parts }, "index": 0 });
    if last {
        candidate["finishReason"] = json!("STOP");
    }
    json!({
        "candidates": [candidate],
        "usageMetadata": {
            "promptTokenCount": request.prompt_tokens,
            "candidatesTokenCount": request.reply_tokens,
            "totalTokenCount": request.prompt_tokens + request.reply_tokens,
        },
        "modelVersion": "gemini-2.5-flash",
        "responseId": "fake-response",
    })
}

/// A side request's reply: JSON shaped by the schema it asks for, else a short text.
fn side_text(body: &Value) -> (String, u64) {
    let config = &body["generationConfig"];
    let schema = [&config["responseJsonSchema"], &config["responseSchema"]]
        .into_iter()
        .find(|schema| schema.is_object());
    let text = match schema {
        Some(schema) => from_schema(schema).to_string(),
        None => "A side reply.".to_owned(),
    };
    let tokens = (text.len() as u64).div_ceil(4);
    (text, tokens)
}

/// The simplest value `schema` allows: the first enum value, 10 for numbers, and so on.
fn from_schema(schema: &Value) -> Value {
    if let Some(first) = schema["enum"].as_array().and_then(|values| values.first()) {
        return first.clone();
    }
    let kind = schema["type"]
        .as_str()
        .unwrap_or("string")
        .to_ascii_lowercase();
    match kind.as_str() {
        "object" => {
            let properties = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            let object = properties
                .iter()
                .map(|(name, property)| (name.clone(), from_schema(property)))
                .collect();
            Value::Object(object)
        }
        "array" => json!([]),
        "integer" | "number" => json!(10),
        "boolean" => json!(false),
        _ => json!("side reply"),
    }
}

fn sse(body: String) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "text/event-stream")
        .body(axum::body::Body::from(body))
        .unwrap()
}
