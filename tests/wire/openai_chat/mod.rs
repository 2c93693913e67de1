//! Chat Completions (`grok`, `groq`, `vllm`, `chatcompletion`, `azure_openai`, …): the SSE
//! format as OpenAI documents it, plus the open-model servers' reasoning fields.
//! This module writes the protocol's bytes; the tests are in `streaming` (calls that
//! complete) and `errors` (calls that fail).

use massgen::config::BackendKind;
use serde_json::json;

use crate::harness::Protocol;
use crate::mock_llm::{Reply, data};

mod base_url;
mod errors;
mod options;
mod streaming;
mod web_plugin;

/// The end marker.
const DONE: &str = "data: [DONE]\n\n";

fn chunk(delta: serde_json::Value, finish: Option<&str>) -> String {
    data(
        &json!({
            "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "grok-4",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
        .to_string(),
    )
}

fn usage_chunk(prompt: u64, completion: u64, cached: u64, reasoning: u64) -> String {
    data(
        &json!({
            "id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
            "usage": {
                "prompt_tokens": prompt, "completion_tokens": completion,
                "total_tokens": prompt + completion,
                "prompt_tokens_details": {"cached_tokens": cached},
                "completion_tokens_details": {"reasoning_tokens": reasoning}
            }
        })
        .to_string(),
    )
}

fn text_reply(words: &[&str]) -> Reply {
    let mut events = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    events.extend(
        words
            .iter()
            .map(|word| chunk(json!({"content": word}), None)),
    );
    events.push(chunk(json!({}), Some("stop")));
    events.push(usage_chunk(12, 5, 0, 0));
    events.push(DONE.into());
    Reply::sse(&events)
}

pub(crate) const GROK: Protocol = Protocol {
    kind: BackendKind::Grok,
    model: "grok-4",
    path: "/v1",
    text_reply,
};
