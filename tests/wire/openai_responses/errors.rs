//! Responses API failures: `error` events, failed responses, error replies, cut and
//! stalled streams.

use serde_json::{Value, json};

use crate::faults;
use crate::harness::*;
use crate::mock_llm::Reply;

use super::*;

#[tokio::test]
async fn an_error_event_inside_the_stream_ends_the_call_with_its_message() {
    let mut script = Script::new();
    script.event(
        "response.output_item.added",
        json!({"output_index": 0, "item": {"id": "msg_6", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}}),
    );
    script.event(
        "response.output_text.delta",
        json!({"item_id": "msg_6", "output_index": 0, "content_index": 0, "delta": "Hal", "logprobs": []}),
    );
    script.event(
        "error",
        json!({"code": "invalid_prompt", "message": "Invalid prompt: your prompt was flagged as potentially violating our usage policy.", "param": null}),
    );
    let (_server, config) = OPENAI.serve(vec![Reply::sse(&script.cut())]).await;
    let (events, error) = collect(&backend(&retrying(config, 2)), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        "OpenAI refused the request (HTTP 400): invalid_prompt: Invalid prompt: your prompt was \
         flagged as potentially violating our usage policy."
    );
}

#[tokio::test]
async fn a_failed_response_with_a_server_error_is_retried() {
    let mut script = Script::new();
    let mut failed = response("failed", &[], Value::Null);
    failed["error"] = json!({"code": "server_error", "message": "The server had an error while processing your request. Sorry about that!"});
    script.event("response.failed", json!({"response": failed}));
    let (server, config) = OPENAI
        .serve(vec![Reply::sse(&script.cut()), text_reply(&["4"])])
        .await;
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(error, None);
    let retries = retries(&events);
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0].2, "server error 500");
    assert_eq!(texts(&events), ["4"]);
    assert_eq!(server.requests().len(), 2);

    // Without a retry left, the provider's words reach the user.
    let (_server, config) = OPENAI.serve(vec![Reply::sse(&script.cut())]).await;
    let (_, error) = collect(&backend(&config), question()).await;
    assert_eq!(
        error.unwrap().to_string(),
        "OpenAI server error 500 (server_error: The server had an error while processing your \
         request. Sorry about that!)"
    );
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says_then_succeeds() {
    faults::retry_after_is_honoured(
        &OPENAI,
        Reply::status(
            429,
            r#"{"error":{"message":"Rate limit reached for gpt-5 in organization org-abc on tokens per min (TPM): Limit 30000, Used 29500, Requested 900.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#,
        )
        .with_header("retry-after", "1"),
    )
    .await;
}

#[tokio::test]
async fn a_500_is_retried_with_backoff_then_succeeds() {
    let failure = Reply::status(
        500,
        r#"{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}"#,
    );
    let events = faults::server_error_is_retried_with_backoff(&OPENAI, failure).await;
    assert_eq!(texts(&events), ["4"]);
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_is_truncated_not_complete() {
    let cut = Script::new().message("msg_7", &["The answer", " is"]).cut();
    faults::cut_stream_is_truncated(&OPENAI, cut).await;
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    faults::silence_times_out(&OPENAI).await;
    let mut script = Script::new();
    script.event(
        "response.output_text.delta",
        json!({"item_id": "msg_8", "output_index": 0, "content_index": 0, "delta": "Hal", "logprobs": []}),
    );
    faults::a_stall_times_out(&OPENAI, script.cut(), "OpenAI").await;
}

#[tokio::test]
async fn a_rejected_key_names_the_variable_and_is_not_retried() {
    let rejection = Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-test-***-123. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#,
    );
    let message = faults::rejected_key_message(&OPENAI, rejection).await;
    assert!(
        message.starts_with("invalid key for OpenAI: set OPENAI_API_KEY"),
        "{message}"
    );
    assert!(!message.contains(KEY), "{message}");
}

#[tokio::test]
async fn an_unknown_model_is_named() {
    let not_found = Reply::status(
        404,
        r#"{"error":{"message":"The model `gpt-5` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#,
    );
    faults::unknown_model_is_named(&OPENAI, not_found, "gpt-5").await;
}
