//! Chat Completions failures: errors inside the stream, error replies, retries that leave
//! nothing behind, refused connections, cut and stalled streams, a dropped stream.

use std::time::{Duration, Instant};

use massgen::backend::{BackendError, StreamEvent};
use massgen::config::BackendKind;
use serde_json::json;

use crate::faults;
use crate::harness::*;
use crate::mock_llm::{Reply, data};

use super::*;

#[tokio::test]
async fn an_error_inside_the_stream_ends_the_call_with_its_message() {
    let (_server, config) = GROK
        .serve(vec![Reply::sse(&[
            chunk(json!({"content": "Hal"}), None),
            data(r#"{"error":{"message":"The model crashed","type":"invalid_request_error"}}"#),
        ])])
        .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        "xAI refused the request (HTTP 400): invalid_request_error: The model crashed"
    );
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says_then_succeeds() {
    faults::retry_after_is_honoured(
        &GROK,
        Reply::status(
            429,
            r#"{"error":{"message":"Rate limit reached","type":"rate_limit_exceeded"}}"#,
        )
        .with_header("retry-after", "1"),
    )
    .await;
}

#[tokio::test]
async fn a_500_is_retried_with_backoff_then_succeeds() {
    faults::server_error_is_retried_with_backoff(
        &GROK,
        Reply::status(500, r#"{"error":{"message":"internal"}}"#),
    )
    .await;
}

#[tokio::test]
async fn retries_are_bounded_and_the_last_error_is_reported() {
    let failure = || Reply::status(503, r#"{"error":{"message":"overloaded"}}"#);
    let (server, config) = GROK.serve(vec![failure(), failure()]).await;
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(retries(&events).len(), 1);
    assert_eq!(
        error.unwrap().to_string(),
        "xAI server error 503 (overloaded)"
    );
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_is_truncated_not_complete() {
    let cut = vec![
        chunk(json!({"content": "The answer"}), None),
        chunk(json!({"content": " is"}), None),
    ];
    faults::cut_stream_is_truncated(&GROK, cut).await;
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    faults::silence_times_out(&GROK).await;
    let head = vec![chunk(json!({"content": "Hal"}), None)];
    faults::a_stall_times_out(&GROK, head, "xAI").await;
}

#[tokio::test]
async fn a_rejected_key_names_the_variable_and_is_not_retried() {
    let rejection = Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-te***123.","type":"invalid_request_error","code":"invalid_api_key"}}"#,
    );
    let message = faults::rejected_key_message(&GROK, rejection).await;
    assert!(
        message.starts_with("invalid key for xAI: set XAI_API_KEY"),
        "{message}"
    );
}

#[tokio::test]
async fn an_unknown_model_is_named() {
    let not_found = Reply::status(
        404,
        r#"{"error":{"message":"The model `grok-9` does not exist","type":"invalid_request_error","code":"model_not_found"}}"#,
    );
    faults::unknown_model_is_named(&GROK, not_found, "grok-4").await;
}

#[tokio::test]
async fn a_context_length_error_is_recognised() {
    let too_long = Reply::status(
        400,
        r#"{"error":{"message":"This model's maximum context length is 131072 tokens. However, your messages resulted in 200000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
    );
    faults::long_prompt_is_recognised(&GROK, too_long).await;
}

#[tokio::test]
async fn a_retried_attempt_leaks_nothing_decoded_before_its_error() {
    // Text, a tool call and the error arrive in one network chunk.
    let failing = [
        chunk(json!({"content": "stale"}), None),
        chunk(json!({"tool_calls": [{"index": 0, "id": "call_x", "function": {"name": "vote", "arguments": "{}"}}]}), None),
        data(r#"{"error":{"message":"Overloaded","type":"server_error"}}"#),
    ]
    .concat();
    let (_server, config) = GROK
        .serve(vec![Reply::sse(&[failing]), text_reply(&["fresh"])])
        .await;
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(error, None);
    // The chunk's events never come out: the failed attempt is void as a whole.
    assert!(
        events
            .iter()
            .all(|event| !matches!(event, StreamEvent::ToolCallStart { .. })),
        "{events:?}"
    );
    assert_eq!(texts(&events), ["fresh"]);
    assert_eq!(retries(&events).len(), 1);
}

#[tokio::test]
async fn a_final_error_comes_after_the_events_decoded_before_it() {
    let failing = [
        chunk(json!({"content": "partial"}), None),
        data(r#"{"error":{"message":"bad request","type":"invalid_request_error"}}"#),
    ]
    .concat();
    let (_server, config) = GROK.serve(vec![Reply::sse(&[failing])]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(texts(&events), ["partial"]);
    assert!(error.is_some());
}

#[tokio::test]
async fn a_key_echoed_by_the_provider_never_reaches_the_error() {
    let (_server, config) = GROK
        .serve(vec![Reply::status(
            401,
            &format!(r#"{{"error":{{"message":"Incorrect API key provided: {KEY}"}}}}"#),
        )])
        .await;
    let (_, error) = collect(&backend(&config), question()).await;
    let message = error.unwrap().to_string();
    assert!(!message.contains(KEY), "{message}");
    assert!(
        message.contains("Incorrect API key provided: ***"),
        "{message}"
    );
}

#[tokio::test]
async fn a_refused_connection_is_retried() {
    // Bind and drop a listener: nothing answers on that port.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = config(
        BackendKind::Grok,
        "grok-4",
        &format!("http://127.0.0.1:{port}/v1"),
    );
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(retries(&events).len(), 1);
    assert_eq!(retries(&events)[0].2, "connection failed");
    assert!(
        matches!(error, Some(BackendError::Connection { .. })),
        "{error:?}"
    );
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection_and_cancels_a_backoff() {
    use futures::StreamExt;

    let (server, config) = GROK
        .serve(vec![Reply::SseThenHang(vec![chunk(
            json!({"content": "Hal"}),
            None,
        )])])
        .await;
    let first = backend(&config);
    let mut stream = first.stream(question());
    assert_eq!(
        stream.next().await,
        Some(Ok(StreamEvent::TextDelta("Hal".into())))
    );
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.hangups() == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.hangups(), 1, "the server saw the client hang up");

    // Dropped while waiting out a Retry-After: the retry is never sent.
    let (server, config) = GROK
        .serve(vec![
            Reply::status(429, "{}").with_header("retry-after", "1"),
            text_reply(&["late"]),
        ])
        .await;
    let second = backend(&retrying(config, 1));
    let mut stream = second.stream(question());
    assert!(matches!(
        stream.next().await,
        Some(Ok(StreamEvent::Retry { .. }))
    ));
    drop(stream);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(server.requests().len(), 1);
}
