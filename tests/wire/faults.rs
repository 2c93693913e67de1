//! The fault checks every protocol passes, run on a server already scripted in that
//! protocol's own format: each protocol test supplies the bytes, these the assertions.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use massgen::backend::{BackendError, StreamEvent};
use massgen::config::BackendConfig;

use crate::harness::*;
use crate::mock_llm::MockLlm;

/// The server answers 429 with `Retry-After: 1`, then the text "4": the call waits the
/// second, retries once, and succeeds.
pub async fn retry_after_is_honoured(server: &MockLlm, config: BackendConfig) {
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

/// The server answers 500, then the text "4": one retry after a jittered one-second backoff.
pub async fn server_error_is_retried_with_backoff(config: BackendConfig) -> Vec<StreamEvent> {
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

/// The server streams "The answer", " is", then closes without the end marker.
pub async fn cut_stream_is_truncated(config: BackendConfig) -> Vec<StreamEvent> {
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(texts(&events), ["The answer", " is"]);
    assert_eq!(error, Some(BackendError::Truncated));
    events
}

/// The first attempt fails partway (a reset, an error event), then the server answers "4":
/// with a retry left, the partial output is void and the second attempt stands alone.
pub async fn retried_call_stands_alone(config: BackendConfig) {
    let turn = turn(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(turn.text, "4");
}

/// The server never answers: the call gives up after the configured silence.
pub async fn silence_times_out(config: BackendConfig) {
    let started = Instant::now();
    let (_, error) = collect(&backend(&impatient(config, 300)), question()).await;
    assert!(
        matches!(error, Some(BackendError::Timeout { .. })),
        "{error:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// The server streams "Hal" and stalls: what arrived stands, and the error names `provider`.
pub async fn a_stall_times_out(config: BackendConfig, provider: &str) {
    let (events, error) = collect(&backend(&impatient(config, 300)), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        format!("{provider} sent nothing for 0.3 s")
    );
}

/// The server rejects the key: the call fails at once, without retrying. Returns the message.
pub async fn rejected_key_message(server: &MockLlm, config: BackendConfig) -> String {
    let (_, error) = collect(&backend(&retrying(config, 3)), question()).await;
    assert_eq!(server.requests().len(), 1);
    error.unwrap().to_string()
}

/// The server says the model does not exist: the error names the configured model.
pub async fn unknown_model_is_named(config: BackendConfig, model: &str) {
    let (_, error) = collect(&backend(&config), question()).await;
    assert!(
        matches!(error, Some(BackendError::ModelNotFound { model: ref named, .. }) if named == model),
        "{error:?}"
    );
}
