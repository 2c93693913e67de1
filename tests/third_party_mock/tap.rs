//! A recording reverse proxy (axum on 127.0.0.1:0) between massgen and the mock server: it
//! passes every request on unchanged and keeps each response's bytes exactly as the mock
//! sent them, so the test reads the usage the mock reported rather than recomputing it.

use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, Uri, header};
use axum::response::Response;

/// One exchange as it went through the tap.
#[derive(Clone, Debug)]
pub struct Exchange {
    /// Path and query.
    pub path: String,
    pub status: u16,
    /// The response body, whole (a streamed reply ends with its connection).
    pub body: String,
}

#[derive(Clone)]
struct Shared {
    upstream: String,
    client: reqwest::Client,
    exchanges: Arc<Mutex<Vec<Exchange>>>,
}

pub struct Tap {
    pub url: String,
    exchanges: Arc<Mutex<Vec<Exchange>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Tap {
    /// Listens on a free loopback port and forwards to `upstream` (`http://host:port`).
    pub async fn start(upstream: &str) -> Self {
        let shared = Shared {
            upstream: upstream.to_string(),
            client: massgen::backend::http_client().unwrap(),
            exchanges: Arc::default(),
        };
        let exchanges = Arc::clone(&shared.exchanges);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = axum::Router::new().fallback(forward).with_state(shared);
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Self {
            url: format!("http://{address}"),
            exchanges,
            server,
        }
    }

    pub fn exchanges(&self) -> Vec<Exchange> {
        self.exchanges.lock().unwrap().clone()
    }
}

impl Drop for Tap {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn forward(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    mut headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_string(), ToString::to_string);
    headers.remove(header::HOST);
    headers.remove(header::CONTENT_LENGTH);
    let upstream = shared
        .client
        .request(method, format!("{}{path}", shared.upstream))
        .headers(headers)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = upstream.status();
    let content_type = upstream.headers().get(header::CONTENT_TYPE).cloned();
    let bytes = upstream.bytes().await.unwrap();
    shared.exchanges.lock().unwrap().push(Exchange {
        path,
        status: status.as_u16(),
        body: String::from_utf8_lossy(&bytes).into_owned(),
    });
    let mut response = Response::builder().status(status);
    if let Some(content_type) = content_type {
        response = response.header(header::CONTENT_TYPE, content_type);
    }
    response.body(Body::from(bytes)).unwrap()
}
