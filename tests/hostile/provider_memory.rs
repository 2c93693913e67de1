//! Hostile provider sizes: a line that never ends, an endless answer, too many tool
//! calls, huge tool arguments and a huge error body all stop at the `limits:` caps with
//! an error naming the cap, instead of growing memory.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use massgen::backend::BackendError;
use serde_json::json;

use crate::provider_stream::mock_llm::{MockLlm, Reply};
use crate::provider_stream::{backend, chunk, collect, four};

/// The call's error, which must name `key`; the call was not retried (no retries left).
async fn fails_at(reply: Reply, limits: &str, key: &str) -> BackendError {
    let server = MockLlm::start(vec![reply, four()]).await;
    let backend = backend(
        "chatcompletion",
        &format!("{}/v1", server.base_url),
        limits,
        0,
    );
    let started = Instant::now();
    let (_, error) = collect(&backend).await;
    assert!(started.elapsed() < Duration::from_secs(20));
    let error = error.expect("the call must fail at the cap");
    assert!(error.to_string().contains(key), "{error}");
    error
}

#[tokio::test]
async fn a_ten_megabyte_line_stops_at_max_sse_line_bytes() {
    let huge = "x".repeat(10 << 20);
    let line = chunk(json!({"role": "assistant", "content": huge}), Some("stop"));
    // Sent in 64 KiB pieces, as a network would.
    let pieces: Vec<String> = line
        .as_bytes()
        .chunks(64 << 10)
        .map(|piece| String::from_utf8_lossy(piece).into_owned())
        .chain(["data: [DONE]\n\n".to_string()])
        .collect();
    let error = fails_at(
        Reply::sse(&pieces),
        "limits: {max_sse_line_bytes: 65536}\n",
        "limits.max_sse_line_bytes",
    )
    .await;
    assert!(error.is_retryable(), "{error:?}");
}

#[tokio::test]
async fn an_endless_answer_stops_at_max_response_text_bytes() {
    let mut events = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    let word = "y".repeat(1000);
    events.extend((0..3000).map(|_| chunk(json!({"content": word}), None)));
    events.push(chunk(json!({}), Some("stop")));
    events.push("data: [DONE]\n\n".to_string());
    let error = fails_at(
        Reply::sse(&events),
        "limits: {max_response_text_bytes: 65536}\n",
        "limits.max_response_text_bytes",
    )
    .await;
    assert!(error.to_string().contains("64 KiB"), "{error}");
    assert!(error.is_retryable(), "like a cut stream: {error:?}");
}

fn tool_call(index: usize, arguments: &str) -> String {
    chunk(
        json!({"tool_calls": [{"index": index, "id": format!("call_{index}"), "type": "function",
                "function": {"name": "get_weather", "arguments": arguments}}]}),
        None,
    )
}

#[tokio::test]
async fn too_many_tool_calls_stop_at_max_tool_calls_per_response() {
    let mut events: Vec<String> = (0..10).map(|index| tool_call(index, "{}")).collect();
    events.push(chunk(json!({}), Some("tool_calls")));
    events.push("data: [DONE]\n\n".to_string());
    fails_at(
        Reply::sse(&events),
        "limits: {max_tool_calls_per_response: 3}\n",
        "limits.max_tool_calls_per_response",
    )
    .await;
}

#[tokio::test]
async fn huge_tool_arguments_stop_at_max_tool_arguments_bytes() {
    let mut events = vec![tool_call(0, "")];
    let piece = format!("\"{}\"", "z".repeat(1000));
    events.extend((0..200).map(|_| {
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
            None,
        )
    }));
    events.push(chunk(json!({}), Some("tool_calls")));
    events.push("data: [DONE]\n\n".to_string());
    fails_at(
        Reply::sse(&events),
        "limits: {max_tool_arguments_bytes: 10000}\n",
        "limits.max_tool_arguments_bytes",
    )
    .await;
}

#[tokio::test]
async fn a_huge_error_body_is_read_only_up_to_max_error_body_bytes() {
    let body = "A".repeat(100) + &"B".repeat(10 << 20);
    let reply = Reply::Status {
        status: 400,
        headers: vec![("content-type".into(), "text/plain".into())],
        body,
    };
    let server = MockLlm::start(vec![reply]).await;
    let backend = backend(
        "chatcompletion",
        &format!("{}/v1", server.base_url),
        "limits: {max_error_body_bytes: 100}\n",
        0,
    );
    let (_, error) = collect(&backend).await;
    let message = error.expect("an error").to_string();
    assert!(message.contains(&"A".repeat(100)), "{message}");
    assert!(!message.contains('B'), "read past the cap: {message}");
}

/// Claude's `redacted_thinking` blocks are opaque and kept to be sent back: an endless run
/// of them stops at the text cap like visible text does.
#[tokio::test]
async fn endless_redacted_reasoning_stops_at_max_response_text_bytes() {
    use crate::provider_stream::mock_llm::typed;
    let mut events = vec![typed(&json!({"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "content": [],
        "model": "claude-sonnet-4-5", "usage": {"input_tokens": 10, "output_tokens": 1}}}))];
    let data = "r".repeat(1000);
    for index in 0..200 {
        events.push(typed(
            &json!({"type": "content_block_start", "index": index,
            "content_block": {"type": "redacted_thinking", "data": data}}),
        ));
        events.push(typed(
            &json!({"type": "content_block_stop", "index": index}),
        ));
    }
    events.push(typed(&json!({"type": "message_stop"})));
    let server = MockLlm::start(vec![Reply::sse(&events)]).await;
    let backend = backend(
        "claude",
        &server.base_url,
        "limits: {max_response_text_bytes: 65536}\n",
        0,
    );
    let (_, error) = collect(&backend).await;
    let error = error.expect("the call must fail at the cap");
    assert!(
        error.to_string().contains("limits.max_response_text_bytes"),
        "{error}"
    );
}
