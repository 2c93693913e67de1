//! Anthropic Messages API (`claude`): the SSE events as Anthropic documents them
//! (`message_start`, `content_block_*`, `ping`, `message_delta`, `message_stop`, `error`),
//! with text, extended thinking, streamed tool input, prompt-cache usage and error replies.
//! This module writes the protocol's bytes; the tests are in `streaming` (calls that
//! complete) and `errors` (calls that fail).

use massgen::config::BackendKind;
use serde_json::{Value, json};

use crate::harness::Protocol;
use crate::mock_llm::{Reply, typed};

mod errors;
mod options;
mod server_tools;
mod streaming;

const MODEL: &str = "claude-sonnet-4-5";

fn message_start(input: u64, cache_creation: u64, cache_read: u64) -> String {
    typed(&json!({"type": "message_start", "message": {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
        "content": [], "model": "claude-sonnet-4-5-20250929",
        "stop_reason": null, "stop_sequence": null,
        "usage": {"input_tokens": input, "cache_creation_input_tokens": cache_creation,
                  "cache_read_input_tokens": cache_read, "output_tokens": 1}
    }}))
}

fn block_start(index: usize, block: Value) -> String {
    typed(&json!({"type": "content_block_start", "index": index, "content_block": block}))
}

fn delta(index: usize, delta: Value) -> String {
    typed(&json!({"type": "content_block_delta", "index": index, "delta": delta}))
}

fn text(index: usize, text: &str) -> String {
    delta(index, json!({"type": "text_delta", "text": text}))
}

fn thinking(index: usize, thinking: &str) -> String {
    delta(
        index,
        json!({"type": "thinking_delta", "thinking": thinking}),
    )
}

fn signature(index: usize, signature: &str) -> String {
    delta(
        index,
        json!({"type": "signature_delta", "signature": signature}),
    )
}

fn input(index: usize, partial_json: &str) -> String {
    delta(
        index,
        json!({"type": "input_json_delta", "partial_json": partial_json}),
    )
}

fn block_stop(index: usize) -> String {
    typed(&json!({"type": "content_block_stop", "index": index}))
}

fn redacted_thinking(index: usize, data: &str) -> String {
    block_start(index, json!({"type": "redacted_thinking", "data": data}))
}

fn tool_use(index: usize, id: &str) -> String {
    block_start(
        index,
        json!({"type": "tool_use", "id": id, "name": "get_weather", "input": {}}),
    )
}

/// `message_delta` and `message_stop`: how every complete response ends.
fn end(stop_reason: &str, output_tokens: u64) -> Vec<String> {
    vec![
        typed(&json!({"type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": null},
            "usage": {"output_tokens": output_tokens}})),
        typed(&json!({"type": "message_stop"})),
    ]
}

fn text_reply(words: &[&str]) -> Reply {
    let mut events = vec![
        message_start(25, 0, 0),
        block_start(0, json!({"type": "text", "text": ""})),
    ];
    events.extend(words.iter().map(|word| text(0, word)));
    events.push(block_stop(0));
    events.extend(end("end_turn", 15));
    Reply::sse(&events)
}

fn tool_calls(turn: &massgen::backend::AssistantTurn) -> Vec<(&str, &str, &str)> {
    turn.tool_calls
        .iter()
        .map(|call| {
            (
                call.id.as_str(),
                call.name.as_str(),
                call.arguments.as_str(),
            )
        })
        .collect()
}

pub(crate) const CLAUDE: Protocol = Protocol {
    kind: BackendKind::Claude,
    model: MODEL,
    path: "",
    text_reply,
};
