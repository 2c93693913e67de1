//! The team of `agents_rss`: an OpenAI-compatible model server on 127.0.0.1 where every
//! agent answers once with a set number of tokens, then votes for agent1, and the winner
//! presents as many tokens; and the two configs of N agents (over that wire, or the
//! offline `scripted` backend giving the same answers).

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::response::Response;
use serde_json::{Value, json};

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
    " sharding",
    " spreads",
    " load",
    " across",
    " nodes",
    " evenly.",
];

/// `tokens` words, one per token, as the answer text of `agent`.
pub fn words(agent: &str, tokens: usize) -> Vec<String> {
    let mut words: Vec<String> = (0..tokens)
        .map(|index| WORDS[index % WORDS.len()].to_string())
        .collect();
    if let Some(first) = words.first_mut() {
        *first = format!("{agent}:{first}");
    }
    words
}

#[derive(Default)]
pub struct Served {
    pub calls: AtomicU64,
    pub request_bytes: AtomicU64,
    pub largest_request: AtomicU64,
    answered: Mutex<HashSet<String>>,
}

#[derive(Clone)]
pub struct Team {
    pub tokens: usize,
    pub served: Arc<Served>,
}

fn chunk(delta: &Value) -> Bytes {
    Bytes::from(format!(
        "data: {}\n\n",
        json!({"choices": [{"index": 0, "delta": delta}]})
    ))
}

fn finish(reason: &str) -> Bytes {
    let end = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}],
                     "usage": {"prompt_tokens": 1000, "completion_tokens": 200}});
    Bytes::from(format!("data: {end}\n\ndata: [DONE]\n\n"))
}

fn tool_call(name: &str, arguments: &Value) -> Bytes {
    chunk(
        &json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
        "function": {"name": name, "arguments": arguments.to_string()}}]}),
    )
}

/// An agent's first call with `new_answer` offered streams its answer token by token and
/// submits it; every later coordination call votes for agent1; a call without workflow
/// tools (the final presentation) streams the answer again.
async fn reply(State(team): State<Team>, body: Bytes) -> Response {
    let served = &team.served;
    served.calls.fetch_add(1, Ordering::Relaxed);
    served
        .request_bytes
        .fetch_add(body.len() as u64, Ordering::Relaxed);
    served
        .largest_request
        .fetch_max(body.len() as u64, Ordering::Relaxed);
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let model = request["model"].as_str().unwrap_or_default().to_string();
    let offers = |name: &str| {
        request["tools"].as_array().is_some_and(|tools| {
            tools
                .iter()
                .any(|tool| tool["function"]["name"].as_str() == Some(name))
        })
    };
    let words = words(&model, team.tokens);
    let mut parts: Vec<Bytes> = words
        .iter()
        .map(|word| chunk(&json!({ "content": word })))
        .collect();
    if !offers("new_answer") {
        parts.push(finish("stop"));
    } else if served.answered.lock().unwrap().insert(model) {
        parts.push(tool_call("new_answer", &json!({"content": words.concat()})));
        parts.push(finish("tool_calls"));
    } else {
        parts = vec![
            tool_call(
                "vote",
                &json!({"agent_id": "agent1", "reason": "most complete"}),
            ),
            finish("tool_calls"),
        ];
    }
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(Body::from_stream(futures::stream::iter(
            parts.into_iter().map(Ok::<_, Infallible>),
        )))
        .unwrap()
}

/// Serves on 127.0.0.1 on the runtime; its base URL.
pub fn serve(runtime: &tokio::runtime::Runtime, team: Team) -> String {
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = axum::Router::new().fallback(reply).with_state(team);
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        format!("http://{address}")
    })
}

/// `agents` agents agent1…agentN answering over the wire at `base_url`.
pub fn wire_config(agents: usize, base_url: &str) -> String {
    let mut yaml = String::from("agents:\n");
    for agent in 1..=agents {
        yaml.push_str(&format!(
            "  - id: agent{agent}\n    backend: {{type: chatcompletion, model: agent{agent}, \
             api_key: sk-bench-0123456789, base_url: \"{base_url}/v1\", max_retries: 2}}\n"
        ));
    }
    yaml
}

/// `agents` scripted agents at full speed giving the same answers and votes.
pub fn scripted_config(agents: usize, tokens: usize) -> String {
    let mut yaml = String::from("agents:\n");
    for agent in 1..=agents {
        let answer = words(&format!("agent{agent}"), tokens).concat();
        yaml.push_str(&format!(
            "  - id: agent{agent}\n    backend: {{type: scripted, tokens_per_second: 0, \
             answer: \"{answer}\", vote_for: agent1}}\n"
        ));
    }
    yaml
}
