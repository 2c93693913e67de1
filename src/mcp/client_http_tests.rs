//! The streamable HTTP transport against a scripted axum server.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::*;

/// What the server saw: method, session id, protocol version, body.
type Seen = Arc<Mutex<Vec<(Method, Option<String>, Option<String>, Value)>>>;

#[derive(Clone)]
struct Fake {
    seen: Seen,
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

fn sse(events: &[Value]) -> Response {
    let body: String = events
        .iter()
        .map(|event| format!("event: message\ndata: {event}\n\n"))
        .collect();
    ([("content-type", "text/event-stream")], body).into_response()
}

async fn handle(
    State(fake): State<Fake>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    fake.seen.lock().unwrap().push((
        method.clone(),
        header(&headers, SESSION_ID),
        header(&headers, PROTOCOL_VERSION),
        message.clone(),
    ));
    if method == Method::DELETE {
        return StatusCode::OK.into_response();
    }
    let id = message["id"].clone();
    match message["method"].as_str() {
        Some("initialize") => (
            [
                (SESSION_ID, "session-7"),
                ("content-type", "application/json"),
            ],
            json!({"jsonrpc": "2.0", "id": id,
                "result": {"protocolVersion": "2025-03-26", "capabilities": {}}})
            .to_string(),
        )
            .into_response(),
        Some("tools/list") => sse(&[
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {}}),
            json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 999, "result": {"not": "ours"}}),
            json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}),
        ]),
        Some("batch") => (
            [("content-type", "application/json")],
            json!([{"jsonrpc": "2.0", "method": "notifications/progress"},
                {"jsonrpc": "2.0", "id": id, "result": "from a batch"}])
            .to_string(),
        )
            .into_response(),
        Some("cut") => sse(&[json!({"jsonrpc": "2.0", "method": "notifications/progress"})]),
        Some("refused") => (StatusCode::BAD_REQUEST, "bad params").into_response(),
        Some("gone") => StatusCode::NOT_FOUND.into_response(),
        _ => StatusCode::ACCEPTED.into_response(),
    }
}

async fn fake_server() -> (String, Seen) {
    let seen = Seen::default();
    let app = axum::Router::new()
        .route("/mcp", axum::routing::any(handle))
        .with_state(Fake { seen: seen.clone() });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://127.0.0.1:{port}/mcp"), seen)
}

#[tokio::test]
async fn the_session_id_and_version_follow_initialize_and_close_deletes_the_session() {
    let (url, seen) = fake_server().await;
    let connection = HttpConnection::new(&url, &[]).unwrap();
    let result = connection.request("initialize", json!({})).await.unwrap();
    assert_eq!(result["protocolVersion"], "2025-03-26");
    connection.set_protocol_version("2025-03-26");
    connection
        .notify("notifications/initialized")
        .await
        .unwrap();
    connection.close().await;
    assert_eq!(
        connection.request("tools/list", json!({})).await,
        Err(McpError::Closed { last_output: None })
    );
    let seen = seen.lock().unwrap();
    let session = Some("session-7".to_string());
    let version = Some("2025-03-26".to_string());
    assert_eq!((seen[0].1.clone(), seen[0].2.clone()), (None, None));
    assert_eq!(seen[1].3["method"], "notifications/initialized");
    assert_eq!(
        (seen[1].1.clone(), seen[1].2.clone()),
        (session.clone(), version)
    );
    assert_eq!(
        (seen[2].0.clone(), seen[2].1.clone()),
        (Method::DELETE, session)
    );
    assert_eq!(seen.len(), 3);
}

#[tokio::test]
async fn an_event_stream_is_read_past_other_messages_and_server_requests_are_answered() {
    let (url, seen) = fake_server().await;
    let connection = HttpConnection::new(&url, &[]).unwrap();
    connection.request("initialize", json!({})).await.unwrap();
    let tools = connection.request("tools/list", json!({})).await;
    assert_eq!(tools, Ok(json!({"tools": []})));
    let seen = seen.lock().unwrap();
    let reply = seen
        .iter()
        .find(|(_, _, _, body)| body["id"] == "srv-1")
        .expect("the ping was answered");
    assert_eq!(reply.3["result"], json!({}));
    assert_eq!(reply.1.as_deref(), Some("session-7"));
}

#[tokio::test]
async fn a_batch_body_answers_and_a_stream_that_ends_early_closes() {
    let (url, _) = fake_server().await;
    let connection = HttpConnection::new(&url, &[]).unwrap();
    assert_eq!(
        connection.request("batch", json!({})).await,
        Ok(json!("from a batch"))
    );
    assert_eq!(
        connection.request("cut", json!({})).await,
        Err(McpError::Closed { last_output: None })
    );
}

#[tokio::test]
async fn failed_statuses_read_as_refusals_or_lost_sessions() {
    let (url, _) = fake_server().await;
    let connection = HttpConnection::new(&url, &[]).unwrap();
    assert_eq!(
        connection.request("refused", json!({})).await,
        Err(McpError::Protocol(
            "HTTP 400 Bad Request: bad params".into()
        ))
    );
    connection.request("initialize", json!({})).await.unwrap();
    assert_eq!(
        connection.request("gone", json!({})).await,
        Err(McpError::Connect(
            "the server no longer knows this session (HTTP 404 Not Found)".into()
        ))
    );
}

#[test]
fn headers_that_http_cannot_carry_are_refused() {
    let bad_name = [("bad header".to_string(), Secret::new("x"))];
    assert!(matches!(
        HttpConnection::new("http://127.0.0.1:1/mcp", &bad_name),
        Err(McpError::Connect(message)) if message.contains("not a valid HTTP header name")
    ));
}

#[test]
fn error_chains_skip_wrappers_that_repeat_their_cause() {
    #[derive(Debug, thiserror::Error)]
    #[error("outer: {0}")]
    struct Outer(#[source] Inner);
    #[derive(Debug, thiserror::Error)]
    #[error("connection refused")]
    struct Inner;
    assert_eq!(error_chain(&Outer(Inner)), "connection refused");
}
