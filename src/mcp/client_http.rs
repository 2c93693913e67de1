//! The streamable HTTP transport of massgen's MCP client: each message POSTed to the
//! server's URL, the answer read from a JSON body or an event stream, the session id the
//! server hands out sent back with every later message.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use futures::StreamExt;
use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

use crate::backend::http::SseDecoder;
use crate::config::Secret;
use crate::mcp::client::McpError;
use crate::mcp::jsonrpc::{self, Incoming};

const SESSION_ID: &str = "mcp-session-id";
const PROTOCOL_VERSION: &str = "mcp-protocol-version";
/// The largest reply read: one JSON body, or one event of a stream.
const MAX_MESSAGE: usize = 16 << 20;
/// How much of an error page is quoted.
const ERROR_BODY_CHARS: usize = 200;

pub struct HttpConnection {
    http: reqwest::Client,
    url: String,
    /// The config's headers, marked sensitive.
    headers: HeaderMap,
    session: Mutex<Option<HeaderValue>>,
    protocol_version: Mutex<Option<HeaderValue>>,
    last_id: AtomicU64,
    closed: AtomicBool,
}

impl HttpConnection {
    pub fn new(url: &str, headers: &[(String, Secret)]) -> Result<Self, McpError> {
        let mut custom = HeaderMap::new();
        for (name, value) in headers {
            let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
                McpError::Connect(format!("`{name}` is not a valid HTTP header name"))
            })?;
            let mut value = HeaderValue::from_str(value.expose()).map_err(|_| {
                McpError::Connect(format!("the value of header `{name}` is not valid in HTTP"))
            })?;
            value.set_sensitive(true);
            custom.insert(header, value);
        }
        let http = crate::backend::http_client().map_err(McpError::Connect)?;
        Ok(Self {
            http,
            url: url.to_owned(),
            headers: custom,
            session: Mutex::new(None),
            protocol_version: Mutex::new(None),
            last_id: AtomicU64::new(0),
            closed: AtomicBool::new(false),
        })
    }

    /// The revision `initialize` agreed on, sent with every later message.
    pub fn set_protocol_version(&self, version: &str) {
        if let Ok(value) = HeaderValue::from_str(version) {
            *lock(&self.protocol_version) = Some(value);
        }
    }

    pub async fn request(&self, method: &str, params: Value) -> Result<Value, McpError> {
        if self.closed.load(Ordering::SeqCst) {
            return Err(McpError::Closed { last_output: None });
        }
        let id = self.last_id.fetch_add(1, Ordering::SeqCst) + 1;
        let response = self.post(&jsonrpc::request(id, method, params)).await?;
        let is_stream = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        if is_stream {
            return self.read_events(response, id).await;
        }
        let body = read_body(response).await?;
        let message: Value = serde_json::from_slice(&body).map_err(|error| {
            McpError::Protocol(format!("the server's reply is not JSON: {error}"))
        })?;
        for message in jsonrpc::split_batch(message) {
            if let Some(answer) = self.handle(message, id).await {
                return answer;
            }
        }
        Err(McpError::Protocol(
            "the server's reply does not answer the request".into(),
        ))
    }

    pub async fn notify(&self, method: &str) -> Result<(), McpError> {
        if self.closed.load(Ordering::SeqCst) {
            return Err(McpError::Closed { last_output: None });
        }
        self.post(&jsonrpc::notification(method)).await.map(drop)
    }

    /// Ends the session on the server (DELETE), as a courtesy: failures are ignored.
    pub async fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let session = lock(&self.session).take();
        let Some(session) = session else { return };
        let ended = self
            .http
            .delete(&self.url)
            .headers(self.headers.clone())
            .header(SESSION_ID, session)
            .send()
            .await;
        if let Err(error) = ended {
            tracing::debug!(target: "massgen::mcp", %error, "ending the session failed");
        }
    }

    async fn post(&self, message: &Value) -> Result<reqwest::Response, McpError> {
        tracing::trace!(target: "massgen::mcp::jsonrpc", "sending {message}");
        let mut request = self
            .http
            .post(&self.url)
            .headers(self.headers.clone())
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json");
        let session = lock(&self.session).clone();
        let had_session = session.is_some();
        if let Some(session) = session {
            request = request.header(SESSION_ID, session);
        }
        if let Some(version) = lock(&self.protocol_version).clone() {
            request = request.header(PROTOCOL_VERSION, version);
        }
        let response = request
            .body(message.to_string())
            .send()
            .await
            .map_err(|error| McpError::Connect(error_chain(&error)))?;
        let status = response.status();
        if !status.is_success() {
            let body = read_body(response).await.unwrap_or_default();
            return Err(status_error(
                status,
                &String::from_utf8_lossy(&body),
                had_session,
            ));
        }
        if !had_session && let Some(session) = response.headers().get(SESSION_ID) {
            *lock(&self.session) = Some(session.clone());
        }
        Ok(response)
    }

    /// Reads an event stream until the response to `id` arrives.
    async fn read_events(&self, response: reqwest::Response, id: u64) -> Result<Value, McpError> {
        let mut decoder = SseDecoder::with_limit(MAX_MESSAGE);
        let mut chunks = response.bytes_stream();
        loop {
            let event = decoder
                .next_event()
                .map(|event| event.map(|event| event.data.to_owned()));
            match event {
                Some(Ok(data)) => {
                    let Ok(message) = serde_json::from_str::<Value>(&data) else {
                        continue;
                    };
                    for message in jsonrpc::split_batch(message) {
                        if let Some(answer) = self.handle(message, id).await {
                            return answer;
                        }
                    }
                }
                Some(Err(error)) => return Err(McpError::Protocol(error.to_string())),
                None => match chunks.next().await {
                    Some(Ok(chunk)) => decoder.push(&chunk),
                    Some(Err(error)) => return Err(McpError::Connect(error_chain(&error))),
                    None => return Err(McpError::Closed { last_output: None }),
                },
            }
        }
    }

    /// The answer when `message` is the response to `id`; server requests are answered.
    async fn handle(&self, message: Value, id: u64) -> Option<Result<Value, McpError>> {
        match jsonrpc::classify(message) {
            Incoming::Response {
                id: answered,
                outcome,
            } if answered == id => Some(outcome.map_err(|error| McpError::Protocol(error.message))),
            Incoming::Response { id: other, .. } => {
                tracing::debug!(target: "massgen::mcp", other, "a response to another request");
                None
            }
            Incoming::Request { reply } => {
                if let Err(error) = self.post(&reply).await {
                    tracing::debug!(target: "massgen::mcp", %error, "answering the server failed");
                }
                None
            }
            Incoming::Ignored => None,
        }
    }
}

/// A failed status: a lost session or a server error ends the session (the next call
/// reconnects); other refusals are the server's answer.
fn status_error(status: StatusCode, body: &str, had_session: bool) -> McpError {
    let quoted: String = body.trim().chars().take(ERROR_BODY_CHARS).collect();
    let detail = match quoted.is_empty() {
        true => format!("HTTP {status}"),
        false => format!("HTTP {status}: {quoted}"),
    };
    if status == StatusCode::NOT_FOUND && had_session {
        McpError::Connect(format!(
            "the server no longer knows this session ({detail})"
        ))
    } else if status.is_server_error() || status == StatusCode::NOT_FOUND {
        McpError::Connect(detail)
    } else {
        McpError::Protocol(detail)
    }
}

async fn read_body(response: reqwest::Response) -> Result<Vec<u8>, McpError> {
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|error| McpError::Connect(error_chain(&error)))?;
        if body.len() + chunk.len() > MAX_MESSAGE {
            return Err(McpError::Protocol(format!(
                "the server's reply is larger than {MAX_MESSAGE} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An error and its causes, `outer: inner: root`, leaving out wrappers that only repeat
/// their cause's text.
pub fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(error);
    while let Some(current) = next {
        parts.push(current.to_string());
        next = current.source();
    }
    let kept: Vec<&str> = parts
        .iter()
        .enumerate()
        .filter(|(index, part)| {
            parts
                .get(index + 1)
                .is_none_or(|cause| !part.contains(cause.as_str()))
        })
        .map(|(_, part)| part.as_str())
        .collect();
    kept.join(": ")
}

#[cfg(test)]
#[path = "client_http_tests.rs"]
mod tests;
