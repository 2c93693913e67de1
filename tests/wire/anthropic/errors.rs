//! Anthropic failures: `error` events (overloaded ones retried), error replies, cut and
//! stalled streams.

use serde_json::json;

use crate::faults;
use crate::harness::*;
use crate::mock_llm::Reply;

use super::*;

#[tokio::test]
async fn an_error_event_inside_the_stream_ends_the_call_with_its_message() {
    let events = [
        message_start(25, 0, 0),
        block_start(0, json!({"type": "text", "text": ""})),
        text(0, "Hal"),
        "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"invalid_request_error\", \"message\": \"Output blocked by content filtering policy\"}}\n\n".into(),
    ];
    let (server, config) = CLAUDE.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&retrying(config, 2)), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        "Anthropic refused the request (HTTP 400): invalid_request_error: Output blocked by content filtering policy"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn an_overloaded_error_event_is_retried() {
    let overloaded = Reply::sse(&[
        message_start(25, 0, 0),
        "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n".into(),
    ]);
    let (server, config) = CLAUDE
        .serve(vec![overloaded.clone(), text_reply(&["4"])])
        .await;
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(error, None);
    assert_eq!(retries(&events).len(), 1);
    assert_eq!(retries(&events)[0].2, "server error 529");
    assert_eq!(texts(&events), ["4"]);
    assert_eq!(server.requests().len(), 2);

    let (_server, config) = CLAUDE.serve(vec![overloaded]).await;
    let (_, error) = collect(&backend(&config), question()).await;
    assert_eq!(
        error.unwrap().to_string(),
        "Anthropic server error 529 (overloaded_error: Overloaded)"
    );
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says_then_succeeds() {
    faults::retry_after_is_honoured(
        &CLAUDE,
        Reply::status(
            429,
            r#"{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50 requests per minute."}}"#,
        )
        .with_header("retry-after", "1"),
    )
    .await;
}

#[tokio::test]
async fn a_500_is_retried_with_backoff_then_succeeds() {
    let failure = Reply::status(
        500,
        r#"{"type":"error","error":{"type":"api_error","message":"Internal server error"}}"#,
    );
    let events = faults::server_error_is_retried_with_backoff(&CLAUDE, failure).await;
    assert_eq!(texts(&events), ["4"]);
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_is_truncated_not_complete() {
    // Everything but `message_stop`: the end marker is what makes a response complete.
    let mut cut = vec![
        message_start(25, 0, 0),
        block_start(0, json!({"type": "text", "text": ""})),
        text(0, "The answer"),
        text(0, " is"),
        block_stop(0),
    ];
    cut.push(end("end_turn", 5).remove(0));
    let events = faults::cut_stream_is_truncated(&CLAUDE, cut).await;
    assert!(usages(&events).is_empty());
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    faults::silence_times_out(&CLAUDE).await;
    let head = vec![
        message_start(25, 0, 0),
        block_start(0, json!({"type": "text", "text": ""})),
        text(0, "Hal"),
    ];
    faults::a_stall_times_out(&CLAUDE, head, "Anthropic").await;
}

#[tokio::test]
async fn a_rejected_key_names_the_variable_and_is_not_retried() {
    let rejection = Reply::status(
        401,
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
    );
    let message = faults::rejected_key_message(&CLAUDE, rejection).await;
    assert_eq!(
        message,
        "invalid key for Anthropic: set ANTHROPIC_API_KEY (invalid x-api-key)"
    );
}

#[tokio::test]
async fn an_unknown_model_and_a_long_prompt_are_recognised() {
    let not_found = Reply::status(
        404,
        r#"{"type":"error","error":{"type":"not_found_error","message":"model: claude-sonnet-9"}}"#,
    );
    faults::unknown_model_is_named(&CLAUDE, not_found, MODEL).await;
    let too_long = Reply::status(
        400,
        r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
    );
    faults::long_prompt_is_recognised(&CLAUDE, too_long).await;
}
