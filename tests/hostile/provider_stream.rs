//! Hostile provider streams: a redirect that would carry the key to another host, an HTML
//! page where an event stream was expected, and a malformed chunk (retried like a cut
//! stream). Each test builds real backends from a config against in-test servers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mock_llm.rs"]
pub(crate) mod mock_llm;

use std::sync::Arc;

use futures::StreamExt;
use massgen::backend::{Backend, BackendError, ChatRequest, Message, StreamEvent, build_backends};
use massgen::config::Env;
use serde_json::json;

use mock_llm::{MockLlm, Reply, data};

pub(crate) const KEY: &str = "sk-hostile-secret-42";

/// The one backend of a config with `limits` (a `limits:` line, or empty) and one agent
/// of backend `kind` calling `base_url` with `retries` retries.
pub(crate) fn backend(kind: &str, base_url: &str, limits: &str, retries: u32) -> Arc<dyn Backend> {
    let model = match kind {
        "claude" => "claude-sonnet-4-5",
        "gemini" => "gemini-2.5-flash",
        _ => "gpt-5",
    };
    let yaml = format!(
        "{limits}agents:\n  - id: a\n    backend: {{type: {kind}, model: {model}, api_key: {KEY}, \
         base_url: \"{base_url}\", max_retries: {retries}}}\n"
    );
    let config = crate::support::load(&yaml);
    build_backends(&config, &Env::default()).unwrap().remove(0)
}

pub(crate) fn question() -> ChatRequest {
    ChatRequest {
        messages: vec![Message::user("What is 2+2?")].into(),
        tools: Vec::new(),
    }
}

/// Every event of one call, and the error that ended it, if any.
pub(crate) async fn collect(
    backend: &Arc<dyn Backend>,
) -> (Vec<StreamEvent>, Option<BackendError>) {
    let mut stream = backend.stream(question());
    let mut events = Vec::new();
    while let Some(item) = stream.next().await {
        match item {
            Ok(event) => events.push(event),
            Err(error) => return (events, Some(error)),
        }
    }
    (events, None)
}

/// One Chat Completions chunk.
pub(crate) fn chunk(delta: serde_json::Value, finish: Option<&str>) -> String {
    data(
        &json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-5",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        .to_string(),
    )
}

/// A complete Chat Completions answer "4".
pub(crate) fn four() -> Reply {
    Reply::sse(&[
        chunk(json!({"role": "assistant", "content": "4"}), None),
        chunk(json!({}), Some("stop")),
        "data: [DONE]\n\n".to_string(),
    ])
}

pub(crate) fn text(events: &[StreamEvent]) -> String {
    events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::TextDelta(text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_redirect_is_refused_and_no_key_reaches_the_other_host() {
    for (kind, path) in [
        ("chatcompletion", "/v1"),
        ("openai", "/v1"),
        ("claude", ""),
        ("gemini", ""),
    ] {
        let catcher = MockLlm::start(vec![four()]).await;
        let target = catcher.base_url.clone();
        let redirector = MockLlm::with_responder(move |request| Reply::Status {
            status: 307,
            headers: vec![("location".into(), format!("{target}{}", request.path))],
            body: String::new(),
        })
        .await;
        let backend = backend(kind, &format!("{}{path}", redirector.base_url), "", 2);
        let (_, error) = collect(&backend).await;

        assert_eq!(redirector.requests().len(), 1, "{kind}: not retried");
        for request in catcher.requests() {
            for header in ["authorization", "x-api-key", "x-goog-api-key", "api-key"] {
                assert_eq!(request.header(header), None, "{kind}: {header} leaked");
            }
            assert!(
                !request.path.contains(KEY),
                "{kind}: key in {}",
                request.path
            );
        }
        assert!(catcher.requests().is_empty(), "{kind}: redirect followed");
        let error = error.unwrap_or_else(|| panic!("{kind}: the call succeeded"));
        assert!(!error.is_retryable(), "{kind}: {error:?}");
        let message = error.to_string();
        assert!(
            message.contains("redirect (307)") && message.contains(&catcher.base_url),
            "{kind}: {message}"
        );
        assert!(message.contains("base_url"), "{kind}: {message}");
        assert!(!message.contains(KEY), "{kind}: {message}");
    }
}

#[tokio::test]
async fn an_html_page_is_named_as_such_not_a_cut_stream() {
    let page = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body>".to_string()
        + &"x".repeat(2000)
        + "</body></html>";
    let html = Reply::Status {
        status: 200,
        headers: vec![("content-type".into(), "text/html; charset=utf-8".into())],
        body: page.clone(),
    };
    // Served as an event stream, the page is still recognised by its first byte.
    let disguised = Reply::sse(&[page]);
    for (reply, content_type) in [(html, "text/html"), (disguised, "text/event-stream")] {
        let server = MockLlm::start(vec![reply, four()]).await;
        let backend = backend("chatcompletion", &format!("{}/v1", server.base_url), "", 1);
        let (_, error) = collect(&backend).await;
        let error = error.expect("an error");
        let message = error.to_string();
        assert!(message.contains("HTML page"), "{message}");
        assert!(message.contains("status 200"), "{message}");
        assert!(message.contains(content_type), "{message}");
        assert!(message.contains("base_url"), "{message}");
        assert!(!message.contains('\n'), "{message}");
        assert!(message.len() < 600, "{message}");
        assert!(!error.is_retryable(), "{error:?}");
        assert_eq!(server.requests().len(), 1);
    }
}

#[tokio::test]
async fn a_malformed_chunk_is_retried_like_a_cut_stream() {
    let malformed = Reply::sse(&[
        chunk(json!({"role": "assistant", "content": "The answer"}), None),
        "data: {\"choices\": [{\"delta\": \n\n".to_string(),
    ]);
    let server = MockLlm::start(vec![malformed.clone(), four()]).await;
    let retrying = backend("chatcompletion", &format!("{}/v1", server.base_url), "", 1);
    let (events, error) = collect(&retrying).await;
    assert_eq!(error, None, "{events:?}");
    let retries: Vec<&String> = events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Retry { reason, .. } => Some(reason),
            _ => None,
        })
        .collect();
    assert_eq!(retries, ["malformed stream"]);
    assert!(text(&events).ends_with('4'), "{events:?}");

    // Bounded by max_retries, like any failed call.
    let server = MockLlm::start(vec![malformed.clone(), malformed]).await;
    let once = backend("chatcompletion", &format!("{}/v1", server.base_url), "", 0);
    let (_, error) = collect(&once).await;
    assert!(
        matches!(error, Some(BackendError::Malformed { .. })),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1);
}
