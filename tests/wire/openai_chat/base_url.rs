//! A `base_url` without the `/v1` an OpenAI-compatible server serves under: the error says
//! which URL was POSTed, what came back, and the `base_url` to write.

use std::time::{Duration, Instant};

use massgen::backend::BackendError;
use massgen::config::BackendKind;

use super::text_reply;
use crate::harness::{collect, config, keyless_backend, question};
use crate::mock_llm::{MockLlm, Recorded, Reply};

/// A server like vLLM's: everything under `/v1`, FastAPI's 404 elsewhere.
fn only_under_v1(request: &Recorded) -> Reply {
    match (request.method.as_str(), request.path.as_str()) {
        ("POST", "/v1/chat/completions") => text_reply(&["hi"]),
        ("GET", "/v1/models") => Reply::status(200, r#"{"object":"list","data":[]}"#),
        _ => Reply::status(404, r#"{"detail":"Not Found"}"#),
    }
}

async fn failure(server: &MockLlm, base: &str) -> String {
    let config = config(BackendKind::Chatcompletion, "qwen", base);
    let (_, error) = collect(&keyless_backend(&config), question()).await;
    let error = error.unwrap_or_else(|| panic!("{base} should fail"));
    assert!(
        matches!(error, BackendError::Failed { .. }),
        "{error:?} (requests: {:?})",
        server.requests()
    );
    error.to_string()
}

#[tokio::test]
async fn a_missing_v1_is_named_with_the_url_tried_and_the_base_url_to_write() {
    let server = MockLlm::with_responder(only_under_v1).await;
    let base = &server.base_url;
    let message = failure(&server, base).await;
    assert_eq!(
        message,
        format!(
            "OpenAI-compatible server answered 404 at {base}/chat/completions; the server does \
             answer at {base}/v1/models — set `base_url: {base}/v1` (the server said: Not Found)"
        )
    );
    // With the suggested base the same server works.
    let config = config(BackendKind::Chatcompletion, "qwen", &format!("{base}/v1"));
    let (_, error) = collect(&keyless_backend(&config), question()).await;
    assert_eq!(error, None);
}

#[tokio::test]
async fn without_a_models_listing_the_advice_says_usually() {
    let server = MockLlm::with_responder(|_| Reply::Status {
        status: 404,
        headers: vec![("content-type".into(), "text/plain".into())],
        body: "404 page not found".into(),
    })
    .await;
    let base = format!("{}/", server.base_url);
    let message = failure(&server, &base).await;
    assert_eq!(
        message,
        format!(
            "OpenAI-compatible server answered 404 at {0}/chat/completions; OpenAI-compatible \
             servers usually serve under /v1 — set `base_url: {0}/v1` (the server said: 404 \
             page not found)",
            server.base_url
        )
    );
}

#[tokio::test]
async fn lm_studio_unknown_endpoint_and_web_pages_get_the_same_advice() {
    let server = MockLlm::with_responder(|request: &Recorded| match request.path.as_str() {
        "/lms/chat/completions" => Reply::status(
            200,
            r#"{"error":"Unexpected endpoint or method. (POST /lms/chat/completions)"}"#,
        ),
        "/web/chat/completions" => Reply::Status {
            status: 200,
            headers: vec![("content-type".into(), "text/html".into())],
            body: "<html><body>Welcome</body></html>".into(),
        },
        _ => Reply::status(404, "{}"),
    })
    .await;
    let base = &server.base_url;
    let lms = failure(&server, &format!("{base}/lms")).await;
    assert!(
        lms.starts_with(&format!(
            "OpenAI-compatible server answered 200 at {base}/lms/chat/completions; \
             OpenAI-compatible servers usually serve under /v1 — set `base_url: {base}/lms/v1`"
        )),
        "{lms}"
    );
    assert!(lms.contains("Unexpected endpoint"), "{lms}");
    let web = failure(&server, &format!("{base}/web")).await;
    assert!(
        web.starts_with(&format!(
            "OpenAI-compatible server answered 200 with a web page at {base}/web/chat/completions"
        )),
        "{web}"
    );
}

#[tokio::test]
async fn a_base_with_v1_keeps_the_model_error_and_a_stalled_probe_never_hangs() {
    let server = MockLlm::with_responder(|request: &Recorded| {
        if request.method == "GET" {
            Reply::Hang
        } else {
            Reply::status(404, r#"{"error":{"message":"model qwen not found"}}"#)
        }
    })
    .await;
    let config = config(
        BackendKind::Chatcompletion,
        "qwen",
        &format!("{}/v1", server.base_url),
    );
    let (_, error) = collect(&keyless_backend(&config), question()).await;
    assert!(
        matches!(error, Some(BackendError::ModelNotFound { .. })),
        "{error:?}"
    );
    let started = Instant::now();
    let message = failure(&server, &server.base_url).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(message.contains("usually serve under /v1"), "{message}");
}
