//! Gemini failures: errors inside the stream, error replies (with Google's retry delay),
//! cut and stalled streams.

use serde_json::json;

use crate::faults;
use crate::harness::*;
use crate::mock_llm::Reply;

use super::*;

#[tokio::test]
async fn an_error_inside_the_stream_ends_the_call_with_its_message() {
    let (_server, config) = GEMINI
        .serve(vec![Reply::sse(&[
            event(&response(json!([{"text": "Hal"}]), None, None)),
            event(&api_error(
                400,
                "INVALID_ARGUMENT",
                "Request contains an invalid argument.",
            )),
        ])])
        .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        "Gemini refused the request (HTTP 400): INVALID_ARGUMENT: Request contains an invalid argument."
    );

    // An overload reported mid-stream is retried; the partial text is void.
    let overloaded = Reply::sse(&[
        event(&response(json!([{"text": "Hal"}]), None, None)),
        event(&api_error(
            503,
            "UNAVAILABLE",
            "The model is overloaded. Please try again later.",
        )),
    ]);
    faults::retried_call_stands_alone(&GEMINI, overloaded).await;
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says_then_succeeds() {
    faults::retry_after_is_honoured(
        &GEMINI,
        error_reply(
            429,
            "RESOURCE_EXHAUSTED",
            "Resource has been exhausted (e.g. check quota).",
        )
        .with_header("retry-after", "1"),
    )
    .await;
}

#[tokio::test]
async fn a_429_without_retry_after_waits_for_the_retry_delay_in_its_body() {
    let body = json!({"error": {
        "code": 429,
        "message": "Resource has been exhausted (e.g. check quota).",
        "status": "RESOURCE_EXHAUSTED",
        "details": [
            {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{
                "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
                "quotaDimensions": {"location": "global", "model": MODEL},
                "quotaValue": "10"
            }]},
            {"@type": "type.googleapis.com/google.rpc.Help", "links": [{
                "description": "Learn more about Gemini API quotas",
                "url": "https://ai.google.dev/gemini-api/docs/rate-limits"
            }]},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}
        ]
    }});
    faults::retry_after_is_honoured(&GEMINI, Reply::status(429, &body.to_string())).await;
}

#[tokio::test]
async fn a_500_is_retried_with_backoff_then_succeeds() {
    let failure = error_reply(500, "INTERNAL", "An internal error has occurred.");
    let events = faults::server_error_is_retried_with_backoff(&GEMINI, failure).await;
    assert_eq!(texts(&events), ["4"]);
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_is_truncated_not_complete() {
    let cut: Vec<String> = text_events(&["The answer", " is", " 4."])[..2].to_vec();
    // A clean close before any finish reason is as incomplete as a reset.
    faults::cut_stream_is_truncated(&GEMINI, cut).await;
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    faults::silence_times_out(&GEMINI).await;
    let head = text_events(&["Hal", "!"])[..1].to_vec();
    faults::a_stall_times_out(&GEMINI, head, "Gemini").await;
}

#[tokio::test]
async fn a_rejected_key_names_the_variable_and_is_not_retried() {
    // Google answers a bad key with 400 INVALID_ARGUMENT, a revoked one with 401/403.
    let invalid = json!({"error": {
        "code": 400,
        "message": "API key not valid. Please pass a valid API key.",
        "status": "INVALID_ARGUMENT",
        "details": [{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "API_KEY_INVALID",
            "domain": "googleapis.com",
            "metadata": {"service": "generativelanguage.googleapis.com"}
        }]
    }});
    for reply in [
        Reply::status(400, &invalid.to_string()),
        error_reply(
            401,
            "UNAUTHENTICATED",
            "Request had invalid authentication credentials.",
        ),
    ] {
        let message = faults::rejected_key_message(&GEMINI, reply).await;
        assert!(
            message.starts_with("invalid key for Gemini: set GOOGLE_API_KEY or GEMINI_API_KEY"),
            "{message}"
        );
        assert!(!message.contains(KEY), "{message}");
    }
}

#[tokio::test]
async fn an_unknown_model_is_named() {
    let not_found = error_reply(
        404,
        "NOT_FOUND",
        "models/gemini-2.5-flash is not found for API version v1beta, or is not supported for generateContent.",
    );
    faults::unknown_model_is_named(&GEMINI, not_found, MODEL).await;
}

#[tokio::test]
async fn a_context_length_error_is_recognised() {
    let too_long = error_reply(
        400,
        "INVALID_ARGUMENT",
        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    );
    faults::long_prompt_is_recognised(&GEMINI, too_long).await;
}
