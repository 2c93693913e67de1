//! The fault checks every protocol passes: each protocol test supplies its [`Protocol`] and
//! the failing bytes in its own format, these the server script and the assertions. Where a
//! call is to succeed after a failure, the server then streams the text "4".

#![allow(dead_code)]

use std::time::{Duration, Instant};

use massgen::backend::{BackendError, StreamEvent};

use crate::harness::*;
use crate::mock_llm::Reply;

/// The server answers `rate_limited` (a 429 asking for one second), then "4": the call
/// waits the second, retries once, and succeeds.
pub async fn retry_after_is_honoured(protocol: &Protocol, rate_limited: Reply) {
    let (server, config) = protocol.serve_then_four(rate_limited).await;
    let started = Instant::now();
    let (events, error) = collect(&backend(&retrying(config, 2)), question()).await;
    assert_eq!(error, None);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        retries(&events),
        [(1, Duration::from_secs(1), "rate limited".to_string())]
    );
    assert_eq!(texts(&events), ["4"]);
    assert_eq!(server.requests().len(), 2);
}

/// The server answers `failure` (a 500), then "4": one retry after a jittered one-second
/// backoff.
pub async fn server_error_is_retried_with_backoff(
    protocol: &Protocol,
    failure: Reply,
) -> Vec<StreamEvent> {
    let (_server, config) = protocol.serve_then_four(failure).await;
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(error, None);
    let retries = retries(&events);
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0].2, "server error 500");
    assert!(
        retries[0].1 >= Duration::from_millis(750) && retries[0].1 < Duration::from_millis(1250)
    );
    events
}

/// The server streams `cut` ("The answer", " is") and closes without the end marker: the
/// call is truncated. Returns its events. With a retry left, the same bytes ended by a
/// reset are void and the second attempt stands alone.
pub async fn cut_stream_is_truncated(protocol: &Protocol, cut: Vec<String>) -> Vec<StreamEvent> {
    let (_server, config) = protocol.serve(vec![Reply::sse(&cut)]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(texts(&events), ["The answer", " is"]);
    assert_eq!(error, Some(BackendError::Truncated));

    retried_call_stands_alone(protocol, Reply::SseThenReset(cut)).await;
    events
}

/// The first attempt fails partway (`failure`: a reset, an error event), then the server
/// answers "4": with a retry left, the partial output is void and the second attempt
/// stands alone.
pub async fn retried_call_stands_alone(protocol: &Protocol, failure: Reply) {
    let (_server, config) = protocol.serve_then_four(failure).await;
    let turn = turn(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(turn.text, "4");
}

/// The server never answers: the call gives up after the configured silence.
pub async fn silence_times_out(protocol: &Protocol) {
    let (_server, config) = protocol.serve(vec![Reply::Hang]).await;
    let started = Instant::now();
    let (_, error) = collect(&backend(&impatient(config, 300)), question()).await;
    assert!(
        matches!(error, Some(BackendError::Timeout { .. })),
        "{error:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// The server streams `head` ("Hal") and stalls: what arrived stands, and the error names
/// `provider`.
pub async fn a_stall_times_out(protocol: &Protocol, head: Vec<String>, provider: &str) {
    let (_server, config) = protocol.serve(vec![Reply::SseThenHang(head)]).await;
    let (events, error) = collect(&backend(&impatient(config, 300)), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        format!("{provider} sent nothing for 0.3 s")
    );
}

/// The server rejects the key: the call fails at once, without retrying. Returns the message.
pub async fn rejected_key_message(protocol: &Protocol, rejection: Reply) -> String {
    let (server, config) = protocol.serve(vec![rejection]).await;
    let (_, error) = collect(&backend(&retrying(config, 3)), question()).await;
    assert_eq!(server.requests().len(), 1);
    error.unwrap().to_string()
}

/// The server says the model does not exist: the error names the configured `model`.
pub async fn unknown_model_is_named(protocol: &Protocol, not_found: Reply, model: &str) {
    let (_server, config) = protocol.serve(vec![not_found]).await;
    let (_, error) = collect(&backend(&config), question()).await;
    assert!(
        matches!(error, Some(BackendError::ModelNotFound { model: ref named, .. }) if named == model),
        "{error:?}"
    );
}

/// The server says the prompt is too long: the error says so.
pub async fn long_prompt_is_recognised(protocol: &Protocol, too_long: Reply) {
    let (_server, config) = protocol.serve(vec![too_long]).await;
    let (_, error) = collect(&backend(&config), question()).await;
    assert!(
        matches!(error, Some(BackendError::ContextLength { .. })),
        "{error:?}"
    );
}
