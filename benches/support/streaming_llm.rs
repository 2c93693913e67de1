//! The in-bench model server of `tui_cpu`: an OpenAI-compatible Chat Completions endpoint
//! on 127.0.0.1 where each agent's first call streams words at a steady rate and answers,
//! later calls vote for agent1 or present; and the team config pointing at it.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::response::Response;
use serde_json::{Value, json};

pub const AGENTS: usize = 6;
pub const TOKENS_PER_SECOND: u64 = 200;

const WORDS: &[&str] = &[
    " the",
    " cache",
    " keeps",
    " hot",
    " keys",
    " in",
    " memory",
    " and",
    " evicts",
    " by",
    " age;",
    " a",
    " write-through",
    " layer",
    " trades",
    " latency",
    " for",
    " safety,",
    " while",
    " **sharding**",
    " spreads",
    " load",
    " across",
    " `nodes`",
    " evenly.",
];

/// Where the streams are: how many long streams began and ended.
#[derive(Default)]
pub struct Progress {
    pub started: AtomicUsize,
    pub ended: AtomicUsize,
}

#[derive(Clone)]
pub struct Server {
    pub tokens: u64,
    pub calls: Arc<Mutex<HashMap<String, usize>>>,
    pub progress: Arc<Progress>,
}

fn chunk(delta: &Value) -> Bytes {
    let event = json!({"choices": [{"index": 0, "delta": delta}]});
    Bytes::from(format!("data: {event}\n\n"))
}

fn tool_call(name: &str, arguments: &Value) -> Vec<Bytes> {
    vec![
        chunk(
            &json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": name, "arguments": arguments.to_string()}}]}),
        ),
        Bytes::from(format!(
            "data: {}\n\ndata: [DONE]\n\n",
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                   "usage": {"prompt_tokens": 1000, "completion_tokens": 100}})
        )),
    ]
}

fn sse(body: Body) -> Response {
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(body)
        .unwrap()
}

/// An agent's first call streams `tokens` words at `TOKENS_PER_SECOND` (a paragraph
/// break every 60) and answers; later calls vote for agent1, or present (no vote tool).
async fn reply(State(server): State<Server>, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let model = request["model"].as_str().unwrap_or_default().to_string();
    let call = {
        let mut calls = server.calls.lock().unwrap();
        let count = calls.entry(model.clone()).or_default();
        *count += 1;
        *count
    };
    let has_tool = |name: &str| {
        request["tools"].as_array().is_some_and(|tools| {
            tools
                .iter()
                .any(|tool| tool["function"]["name"].as_str() == Some(name))
        })
    };
    if call == 1 {
        let progress = Arc::clone(&server.progress);
        progress.started.fetch_add(1, Ordering::SeqCst);
        let tokens = server.tokens;
        let ticks = tokio::time::interval(Duration::from_micros(1_000_000 / TOKENS_PER_SECOND));
        let stream = futures::stream::unfold((0u64, ticks), move |(sent, mut ticks)| {
            let progress = Arc::clone(&progress);
            async move {
                if sent == tokens {
                    progress.ended.fetch_add(1, Ordering::SeqCst);
                    return None;
                }
                ticks.tick().await;
                let word = WORDS[usize::try_from(sent).unwrap() % WORDS.len()];
                let text = if sent % 60 == 59 {
                    format!("{word}\n\n")
                } else {
                    word.to_string()
                };
                let chunk = chunk(&json!({ "content": text }));
                Some((Ok::<_, Infallible>(chunk), (sent + 1, ticks)))
            }
        });
        let answer = tool_call(
            "new_answer",
            &json!({"content": format!("Answer from {model}.")}),
        );
        let tail = futures::stream::iter(answer.into_iter().map(Ok::<_, Infallible>));
        return sse(Body::from_stream(futures::StreamExt::chain(stream, tail)));
    }
    let parts = if has_tool("vote") {
        tool_call(
            "vote",
            &json!({"agent_id": "agent1", "reason": "most complete"}),
        )
    } else {
        vec![
            chunk(&json!({"content": "The final answer: shard the cache. DONE-MARK"})),
            Bytes::from("data: [DONE]\n\n"),
        ]
    };
    sse(Body::from_stream(futures::stream::iter(
        parts.into_iter().map(Ok::<_, Infallible>),
    )))
}

/// Serves on 127.0.0.1 on the runtime; its base URL.
pub fn serve(runtime: &tokio::runtime::Runtime, server: Server) -> String {
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = axum::Router::new().fallback(reply).with_state(server);
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        format!("http://{address}")
    })
}

pub fn config(base_url: &str) -> String {
    let mut yaml = String::from("agents:\n");
    for agent in 1..=AGENTS {
        yaml.push_str(&format!(
            "  - id: a{agent}\n    backend: {{type: chatcompletion, model: m{agent}, api_key: \
             sk-test-0123456789, base_url: \"{base_url}/v1\", max_retries: 0}}\n"
        ));
    }
    yaml
}
