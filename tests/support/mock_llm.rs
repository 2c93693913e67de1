//! An in-test model server (axum on 127.0.0.1:0) that answers each request with scripted
//! bytes: SSE chunks with chosen delays, error statuses with headers, cut or stalled
//! streams, or nothing at all. It records every request for assertions.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;

/// What the server does with one request.
#[derive(Clone, Debug)]
pub enum Reply {
    /// `text/event-stream`: each chunk after its delay, then the connection closes.
    Sse(Vec<(Duration, String)>),
    /// Some chunks, then the connection breaks with an error (a reset mid-stream).
    SseThenReset(Vec<String>),
    /// Some chunks, then silence with the connection held open.
    SseThenHang(Vec<String>),
    /// A complete reply with this status, headers and body.
    Status {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Never answers.
    Hang,
}

impl Reply {
    /// SSE made of whole `data:`/`event:` blocks, sent at once.
    pub fn sse(events: &[String]) -> Self {
        Self::Sse(
            events
                .iter()
                .map(|event| (Duration::ZERO, event.clone()))
                .collect(),
        )
    }

    /// A JSON error reply.
    pub fn status(status: u16, body: &str) -> Self {
        Self::Status {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.into(),
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        if let Self::Status { headers, .. } = &mut self {
            headers.push((name.into(), value.into()));
        }
        self
    }
}

/// `data: {json}\n\n`.
pub fn data(json: &str) -> String {
    format!("data: {json}\n\n")
}

/// `event: NAME\ndata: {json}\n\n`.
pub fn named(name: &str, json: &str) -> String {
    format!("event: {name}\ndata: {json}\n\n")
}

/// An event named after its own `type`, as Anthropic and OpenAI's Responses API send them.
pub fn typed(event: &serde_json::Value) -> String {
    named(
        event["type"].as_str().unwrap_or_default(),
        &event.to_string(),
    )
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    /// Path and query.
    pub path: String,
    pub headers: HeaderMap,
    pub body: serde_json::Value,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }
}

type Responder = dyn Fn(&Recorded) -> Reply + Send + Sync;

/// Counts a stalled body the client hung up on.
struct Hangup(Arc<AtomicUsize>);

impl Drop for Hangup {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[derive(Clone)]
struct Shared {
    hangups: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<Recorded>>>,
    responder: Arc<Responder>,
}

pub struct MockLlm {
    pub base_url: String,
    hangups: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<Recorded>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for MockLlm {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl MockLlm {
    /// Serves `replies` in order; requests beyond them get a 500 saying so.
    pub async fn start(replies: Vec<Reply>) -> Self {
        let queue = Mutex::new(VecDeque::from(replies));
        Self::with_responder(move |_| {
            queue.lock().unwrap().pop_front().unwrap_or_else(|| {
                Reply::status(500, r#"{"error":{"message":"no more scripted replies"}}"#)
            })
        })
        .await
    }

    /// Answers each request with whatever `responder` decides from it.
    pub async fn with_responder(
        responder: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let shared = Shared {
            hangups: Arc::default(),
            requests: Arc::default(),
            responder: Arc::new(responder),
        };
        let requests = Arc::clone(&shared.requests);
        let hangups = Arc::clone(&shared.hangups);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = axum::Router::new().fallback(handle).with_state(shared);
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Self {
            hangups,
            base_url: format!("http://{address}"),
            requests,
            server,
        }
    }

    /// How many stalled streams (`SseThenHang`) the client has closed.
    pub fn hangups(&self) -> usize {
        self.hangups.load(Ordering::SeqCst)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

async fn handle(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let recorded = Recorded {
        method: method.to_string(),
        path: uri
            .path_and_query()
            .map_or_else(|| uri.path().to_string(), ToString::to_string),
        headers,
        body: serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null),
    };
    let reply = (shared.responder)(&recorded);
    shared.requests.lock().unwrap().push(recorded);
    match reply {
        Reply::Hang => std::future::pending().await,
        Reply::Status {
            status,
            headers,
            body,
        } => {
            let mut response = Response::builder().status(StatusCode::from_u16(status).unwrap());
            for (name, value) in headers {
                response = response.header(name, value);
            }
            response.body(Body::from(body)).unwrap()
        }
        Reply::Sse(chunks) => {
            let stream = futures::stream::unfold(chunks.into_iter(), |mut chunks| async move {
                let (delay, chunk) = chunks.next()?;
                if !delay.is_zero() {
                    tokio::time::sleep(delay).await;
                }
                Some((Ok::<_, Infallible>(Bytes::from(chunk)), chunks))
            });
            event_stream(Body::from_stream(stream))
        }
        Reply::SseThenReset(chunks) => {
            let items: Vec<Result<Bytes, std::io::Error>> = chunks
                .into_iter()
                .map(|chunk| Ok(Bytes::from(chunk)))
                .chain([Err(std::io::Error::other("reset"))])
                .collect();
            event_stream(Body::from_stream(futures::stream::iter(items)))
        }
        Reply::SseThenHang(chunks) => {
            let head = futures::stream::iter(
                chunks
                    .into_iter()
                    .map(|chunk| Ok::<_, Infallible>(Bytes::from(chunk))),
            );
            // The guard lives as long as the body: hyper drops it when the client goes away.
            let guard = Hangup(Arc::clone(&shared.hangups));
            let stall = futures::stream::poll_fn(move |_| {
                let _ = &guard;
                std::task::Poll::<Option<Result<Bytes, Infallible>>>::Pending
            });
            event_stream(Body::from_stream(futures::StreamExt::chain(head, stall)))
        }
    }
}

fn event_stream(body: Body) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(body)
        .unwrap()
}
