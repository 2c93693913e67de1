//! One model call over HTTP: connect, stream, decode, and retry what can be retried,
//! announcing each retry in the stream so the user sees it.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;

use super::status;
use super::{Flow, RetryPolicy, SseDecoder, Wire, WireDecoder};
use crate::backend::{Backend, BackendError, ChatRequest, EventStream, StreamEvent};
use crate::config::{BackendKind, Secret};

/// Longest error body read to explain a failed request.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// A backend that speaks one wire protocol to one HTTP endpoint.
pub struct HttpBackend {
    kind: BackendKind,
    /// The API key, so that no error message can repeat it.
    secret: Option<Secret>,
    local: bool,
    provider: String,
    model: String,
    wire: Arc<dyn Wire>,
    client: reqwest::Client,
    policy: RetryPolicy,
    /// How long to wait for the response to start, and then for each next chunk.
    idle_timeout: Duration,
}

impl HttpBackend {
    pub fn new(
        kind: BackendKind,
        provider: impl Into<String>,
        model: impl Into<String>,
        wire: Arc<dyn Wire>,
        client: reqwest::Client,
        policy: RetryPolicy,
        idle_timeout: Duration,
    ) -> Self {
        Self {
            kind,
            secret: None,
            local: false,
            provider: provider.into(),
            model: model.into(),
            wire,
            client,
            policy,
            idle_timeout,
        }
    }

    /// Marks the server as local: its calls cost nothing.
    pub fn local(mut self, local: bool) -> Self {
        self.local = local;
        self
    }

    /// Keeps `secret` out of every error this backend reports.
    pub fn redacting(mut self, secret: Option<Secret>) -> Self {
        self.secret = secret;
        self
    }
}

impl Backend for HttpBackend {
    fn kind(&self) -> BackendKind {
        self.kind
    }

    fn provider(&self) -> &str {
        &self.provider
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn is_local(&self) -> bool {
        self.local
    }

    fn stream(&self, request: ChatRequest) -> EventStream {
        let call = HttpCall {
            secret: self.secret.clone(),
            failure: None,
            decoder: self.wire.decoder(),
            wire: Arc::clone(&self.wire),
            client: self.client.clone(),
            request,
            policy: self.policy,
            idle_timeout: self.idle_timeout,
            state: State::Connect,
            sse: SseDecoder::default(),
            pending: VecDeque::new(),
            retries: 0,
        };
        futures::stream::unfold(call, |mut call| async move {
            call.next().await.map(|item| (item, call))
        })
        .boxed()
    }
}

enum State {
    Connect,
    /// Backing off before the next attempt.
    Wait(Duration),
    Body(BoxStream<'static, reqwest::Result<Bytes>>),
    Done,
}

struct HttpCall {
    /// Removed from every error message, should a provider echo it back.
    secret: Option<Secret>,
    /// The error that ends the call, reported after the events decoded before it.
    failure: Option<BackendError>,
    wire: Arc<dyn Wire>,
    client: reqwest::Client,
    request: ChatRequest,
    policy: RetryPolicy,
    idle_timeout: Duration,
    state: State,
    sse: SseDecoder,
    decoder: Box<dyn WireDecoder>,
    pending: VecDeque<StreamEvent>,
    retries: u32,
}

impl HttpCall {
    async fn next(&mut self) -> Option<Result<StreamEvent, BackendError>> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(Ok(event));
            }
            if let Some(error) = self.failure.take() {
                return Some(Err(error));
            }
            match self.step().await {
                Ok(true) => {}
                Ok(false) => return None,
                Err(error) => {
                    let error = match &self.secret {
                        Some(secret) => error.redact(secret.expose()),
                        None => error,
                    };
                    let retry = self.retries + 1;
                    match self.policy.delay_before(retry, &error) {
                        Some(delay) => {
                            // What the failed attempt decoded is void: the retry starts over.
                            self.pending.clear();
                            self.retries = retry;
                            self.state = State::Wait(delay);
                            return Some(Ok(StreamEvent::Retry {
                                attempt: retry,
                                max_retries: self.policy.max_retries,
                                delay,
                                reason: error.short_reason(),
                            }));
                        }
                        None => {
                            self.state = State::Done;
                            self.failure = Some(error);
                        }
                    }
                }
            }
        }
    }

    /// Advances the call by one step; `Ok(false)` once the response is complete.
    async fn step(&mut self) -> Result<bool, BackendError> {
        match &mut self.state {
            State::Done => Ok(false),
            State::Wait(delay) => {
                tokio::time::sleep(*delay).await;
                // A retry reads its response from scratch.
                self.sse = SseDecoder::default();
                self.decoder = self.wire.decoder();
                self.state = State::Connect;
                Ok(true)
            }
            State::Connect => {
                self.connect().await?;
                Ok(true)
            }
            State::Body(body) => {
                let chunk = tokio::time::timeout(self.idle_timeout, body.next()).await;
                match chunk {
                    Err(_) => Err(self.timed_out()),
                    Ok(None) => match self.decoder.end(&mut self.pending)? {
                        Flow::Finished => {
                            self.state = State::Done;
                            Ok(true)
                        }
                        Flow::Continue => Err(BackendError::Truncated),
                    },
                    Ok(Some(Err(_))) => Err(BackendError::Truncated),
                    Ok(Some(Ok(bytes))) => {
                        self.sse.push(&bytes);
                        while let Some(event) = self.sse.next_event() {
                            let event = event.map_err(|error| BackendError::Failed {
                                message: format!("{}: {error}", self.wire.site().provider),
                            })?;
                            if self.decoder.event(event, &mut self.pending)? == Flow::Finished {
                                self.state = State::Done;
                                break;
                            }
                        }
                        Ok(true)
                    }
                }
            }
        }
    }

    async fn connect(&mut self) -> Result<(), BackendError> {
        let send = self.wire.request(&self.client, &self.request).send();
        let response = match tokio::time::timeout(self.idle_timeout, send).await {
            Err(_) => return Err(self.timed_out()),
            Ok(Err(error)) => {
                return Err(BackendError::Connection {
                    provider: self.wire.site().provider.clone(),
                    detail: describe(&error),
                });
            }
            Ok(Ok(response)) => response,
        };
        let status = response.status();
        if !status.is_success() {
            let headers = response.headers().clone();
            let body = read_limited(response, self.idle_timeout).await;
            return Err(status::from_reply(
                self.wire.site(),
                status.as_u16(),
                &headers,
                &body,
            ));
        }
        let is_json = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("application/json"));
        if is_json {
            let body = match tokio::time::timeout(self.idle_timeout, response.bytes()).await {
                Err(_) => return Err(self.timed_out()),
                Ok(Err(_)) => return Err(BackendError::Truncated),
                Ok(Ok(body)) => body,
            };
            match self
                .decoder
                .whole_body(&String::from_utf8_lossy(&body), &mut self.pending)?
            {
                Flow::Finished => self.state = State::Done,
                Flow::Continue => return Err(BackendError::Truncated),
            }
        } else {
            self.state = State::Body(response.bytes_stream().boxed());
        }
        Ok(())
    }

    fn timed_out(&self) -> BackendError {
        BackendError::Timeout {
            provider: self.wire.site().provider.clone(),
            after: self.idle_timeout,
        }
    }
}

/// The start of an error reply's body; a reply that stalls gives what arrived.
async fn read_limited(response: reqwest::Response, idle_timeout: Duration) -> Vec<u8> {
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while body.len() < ERROR_BODY_LIMIT {
        match tokio::time::timeout(idle_timeout, chunks.next()).await {
            Ok(Some(Ok(bytes))) => body.extend_from_slice(&bytes),
            Ok(Some(Err(_)) | None) | Err(_) => break,
        }
    }
    body.truncate(ERROR_BODY_LIMIT);
    body
}

/// A transport error in words, without the URL (which a user may have put a key into).
fn describe(error: &reqwest::Error) -> String {
    let mut text = if error.is_connect() {
        "connection refused or unreachable".to_string()
    } else if error.is_timeout() {
        "timed out".to_string()
    } else {
        "request failed".to_string()
    };
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text = format!("{text}: {cause}");
        source = cause.source();
    }
    text
}
