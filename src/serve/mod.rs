//! `massgen serve`: an OpenAI-compatible HTTP API over axum, so any OpenAI client or chat
//! front end can use a team of agents as if it were one model. `POST /v1/chat/completions`
//! (streamed or not), `GET /v1/models`, `GET /health`. Each request is an isolated turn;
//! `POST /v1/chat/completions/{id}/steer` passes input to a running one.

mod access_log;
mod body;
mod connections;
mod errors;
mod gate;
mod listen;
mod request;
mod respond;
mod steer;
mod turn;
mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

pub use gate::{check_allowed_host, normalize_origin};
pub use turn::ServeContext;

use crate::config::Config;
use errors::ApiError;

/// The name `model` takes for the served config.
pub const MODEL: &str = "massgen";

/// The largest request body any config lets through.
pub const MAX_BODY_BYTES: usize = 64 << 20;

/// File descriptors kept free of connections: turns' logs, provider sockets, commands.
const RESERVED_DESCRIPTORS: u64 = 256;

pub struct ServeOptions {
    pub address: SocketAddr,
    /// Required (`Authorization: Bearer …`) when set.
    pub api_key: Option<String>,
    pub max_concurrent: usize,
    /// Largest request body accepted.
    pub max_body_bytes: usize,
    /// How long running turns may finish after SIGTERM before they are cancelled.
    pub grace: Duration,
    /// More names `Host` may carry (`NAME` or `NAME:PORT`, checked by [`check_allowed_host`]).
    pub allowed_hosts: Vec<String>,
    /// Web origins that may call from a browser (normalized by [`normalize_origin`]).
    pub allowed_origins: Vec<String>,
    /// Serve the shipped example configs as `massgen/<example>`.
    pub allow_examples: bool,
    /// Connections open at once (lowered to fit the open-file limit).
    pub max_connections: usize,
    /// How long a request's headers, and then its body, may take to arrive.
    pub read_timeout: Duration,
}

struct Server {
    config: Arc<Config>,
    /// More configs by name (`massgen serve --config research.yaml` serves `research`).
    named: Vec<(String, Arc<Config>)>,
    context: ServeContext,
    api_key: Option<String>,
    turns: Arc<Semaphore>,
    max_concurrent: usize,
    max_body_bytes: usize,
    read_timeout: Duration,
    allow_examples: bool,
    /// Cancelled when the grace period after SIGTERM is over.
    shutdown: CancellationToken,
    /// When the server started: the `created` of its models.
    created: i64,
    /// The turns running now, by completion id, for steering.
    running: steer::RunningTurns,
}

/// Serves until `stop` completes (SIGTERM, Ctrl+C): then stops accepting, lets running
/// turns finish for the grace period, cancels the rest and waits for them to be saved.
pub async fn run(
    config: Arc<Config>,
    named: Vec<(String, Arc<Config>)>,
    context: ServeContext,
    options: ServeOptions,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(options.address).await?;
    let address = listener.local_addr()?;
    let shutdown = CancellationToken::new();
    let server = Arc::new(Server {
        config,
        named,
        context,
        api_key: options.api_key,
        turns: Arc::new(Semaphore::new(options.max_concurrent)),
        max_concurrent: options.max_concurrent,
        max_body_bytes: options.max_body_bytes.min(MAX_BODY_BYTES),
        read_timeout: options.read_timeout,
        allow_examples: options.allow_examples,
        shutdown: shutdown.clone(),
        created: jiff::Timestamp::now().as_second(),
        running: steer::RunningTurns::default(),
    });
    let gate = Arc::new(gate::Gate::new(
        address,
        &options.allowed_hosts,
        &options.allowed_origins,
    ));
    let app = Router::new()
        .route("/health", get(health))
        .route("/v1/models", get(models))
        .route("/v1/chat/completions", post(chat))
        .route("/v1/chat/completions/{id}/steer", post(steer_turn))
        .fallback(not_found)
        .with_state(Arc::clone(&server))
        .layer(axum::middleware::from_fn_with_state(gate, gate::check))
        .layer(axum::middleware::from_fn(access_log::record));
    let connections = connections::Connections::new(connection_cap(options.max_connections));
    eprintln!(
        "massgen serve: listening on http://{address} ({}; up to {} at once, {} open{})",
        crate::text::plural(server.config.agents.len(), "agent"),
        crate::text::plural(options.max_concurrent, "turn"),
        crate::text::plural(connections.cap(), "connection"),
        if server.api_key.is_some() {
            "; API key required"
        } else {
            ""
        }
    );
    let grace = options.grace;
    let stopping = async move {
        stop.await;
        eprintln!(
            "massgen serve: stopping; running turns get {} s to finish",
            grace.as_secs()
        );
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            shutdown.cancel();
        });
    };
    listen::serve(listener, app, connections, options.read_timeout, stopping).await;
    // Turns cancelled at the deadline save themselves; wait for every permit to return.
    let _ = tokio::time::timeout(
        Duration::from_secs(30),
        server
            .turns
            .acquire_many(u32::try_from(server.max_concurrent).unwrap_or(u32::MAX)),
    )
    .await;
    Ok(())
}

/// The methods a known path takes, as its 405 names them (the router sets `Allow` from
/// the routes in [`run`]); `None` for an unknown path.
fn allowed_methods(path: &str) -> Option<&'static str> {
    match path {
        "/health" | "/v1/models" => Some("GET, HEAD"),
        "/v1/chat/completions" => Some("POST"),
        _ if path.starts_with("/v1/chat/completions/") && path.ends_with("/steer") => Some("POST"),
        _ => None,
    }
}

/// `requested`, lowered so that connections leave [`RESERVED_DESCRIPTORS`] of the
/// open-file limit free: past it, accepting fails and nobody gets in.
fn connection_cap(requested: usize) -> usize {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    let room = limit.map_or(usize::MAX, |limit| {
        usize::try_from(limit.saturating_sub(RESERVED_DESCRIPTORS)).unwrap_or(usize::MAX)
    });
    requested.min(room).max(16)
}

async fn health() -> Response {
    axum::Json(json!({"status": "ok"})).into_response()
}

async fn not_found() -> Response {
    ApiError::not_found("no such endpoint", "unknown_url").into_response()
}

async fn models(State(server): State<Arc<Server>>, headers: HeaderMap) -> Response {
    if let Err(error) = server.authorize(&headers) {
        return error.into_response();
    }
    let data: Vec<_> = server
        .model_names()
        .into_iter()
        .map(|id| json!({"id": id, "object": "model", "created": server.created, "owned_by": "massgen"}))
        .collect();
    axum::Json(json!({"object": "list", "data": data})).into_response()
}

async fn chat(State(server): State<Arc<Server>>, headers: HeaderMap, body: Body) -> Response {
    match server.chat(&headers, body).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    }
}

async fn steer_turn(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    match server.steer(&id, &headers, body).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    }
}

impl Server {
    async fn steer(&self, id: &str, headers: &HeaderMap, body: Body) -> Result<Response, ApiError> {
        self.authorize(headers)?;
        body::require_json(headers)?;
        let body = body::read(body, headers, self.max_body_bytes, self.read_timeout).await?;
        self.running.steer(id, &body).await
    }

    fn authorize(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let Some(expected) = &self.api_key else {
            return Ok(());
        };
        let given = headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
            .unwrap_or_default();
        if constant_time_eq(given.trim().as_bytes(), expected.as_bytes()) {
            Ok(())
        } else {
            Err(ApiError::unauthorized())
        }
    }

    /// `massgen`, the named configs, and with --allow-examples `massgen/<example>` for
    /// every shipped config.
    fn model_names(&self) -> Vec<String> {
        let examples = crate::config::examples::all()
            .filter(|_| self.allow_examples)
            .map(|example| format!("{MODEL}/{}", example.name()));
        std::iter::once(MODEL.to_string())
            .chain(self.named.iter().map(|(name, _)| name.clone()))
            .chain(examples)
            .collect()
    }

    /// The config a request's `model` names.
    fn config_for(&self, model: &str) -> Result<Arc<Config>, ApiError> {
        if model == MODEL {
            return Ok(Arc::clone(&self.config));
        }
        if let Some((_, config)) = self.named.iter().find(|(name, _)| name == model) {
            return Ok(Arc::clone(config));
        }
        let unknown = || {
            ApiError::not_found(
                format!(
                    "no model `{model}`: use `{MODEL}` (the served config), a config served \
                     by name, or `{MODEL}/<example>` (GET /v1/models lists them)"
                ),
                "model_not_found",
            )
        };
        let name = model.strip_prefix("massgen/").ok_or_else(unknown)?;
        let example = crate::config::examples::find(name).ok_or_else(unknown)?;
        if !self.allow_examples {
            // A request picks only what the user chose to serve: some examples run
            // agents' commands in the project.
            return Err(ApiError::not_found(
                format!(
                    "model `{model}` is a shipped example, and examples are not served: use \
                     `{MODEL}` or a config served by name, or start massgen serve with \
                     --allow-examples"
                ),
                "model_not_found",
            ));
        }
        let (config, _warnings) = crate::config::from_text(
            example.text,
            &format!("@examples/{name}"),
            &self.context.env,
        )
        .and_then(crate::config::Loaded::into_runnable)
        .map_err(|error| ApiError::bad_request(error.to_string(), Some("model")))?;
        Ok(Arc::new(config))
    }

    async fn chat(&self, headers: &HeaderMap, body: Body) -> Result<Response, ApiError> {
        self.authorize(headers)?;
        body::require_json(headers)?;
        // Taken before the body is read: at most --max-concurrent bodies are held at once.
        let permit = Arc::clone(&self.turns)
            .try_acquire_owned()
            .map_err(|_| ApiError::busy(self.max_concurrent))?;
        let body = body::read(body, headers, self.max_body_bytes, self.read_timeout).await?;
        let request = request::parse(&body)?;
        drop(body);
        let config = self.config_for(&request.model)?;
        let id = steer::chosen_id(headers)?.unwrap_or_else(respond::completion_id);
        let registration = self.running.register(&id)?;
        let created = jiff::Timestamp::now().as_second();
        let shutdown = self.shutdown.child_token();
        let started = turn::start(&self.context, config, &request, shutdown, registration)
            .map_err(|error| ApiError::internal(error, &id))?;
        let note = access_log::TurnNote {
            model: request.model.clone(),
            request_id: id.clone(),
            log_dir: started.log_dir,
        };
        let mut response = if request.stream {
            respond::stream(id, &request, created, started.chunks, permit)
        } else {
            respond::whole(id, &request, created, started.chunks, permit)
                .await
                .unwrap_or_else(IntoResponse::into_response)
        };
        response.extensions_mut().insert(note);
        Ok(response)
    }
}

/// Compares every byte whatever the first difference, so timing does not reveal how much
/// of a guessed key was right.
fn constant_time_eq(given: &[u8], expected: &[u8]) -> bool {
    let mut difference = given.len() ^ expected.len();
    for (index, byte) in expected.iter().enumerate() {
        let other = given.get(index).copied().unwrap_or(0);
        difference |= usize::from(byte ^ other);
    }
    difference == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_compare_whole() {
        assert!(constant_time_eq(b"sk-abc", b"sk-abc"));
        assert!(!constant_time_eq(b"sk-ab", b"sk-abc"));
        assert!(!constant_time_eq(b"sk-abcd", b"sk-abc"));
        assert!(!constant_time_eq(b"", b"sk-abc"));
        assert!(!constant_time_eq(b"sk-abd", b"sk-abc"));
    }
}
