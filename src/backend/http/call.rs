//! One model call over HTTP: connect, stream, decode, and retry what can be retried,
//! announcing each retry in the stream so the user sees it.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;

use super::guard::{self, End, StreamLimits, Tally};
use super::{Flow, RetryPolicy, SseDecoder, Wire, WireDecoder};
use super::{misroute, status};
use crate::backend::{Backend, BackendError, ChatRequest, EventStream, Message, StreamEvent};
use crate::config::{BackendKind, Secret};

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
    limits: StreamLimits,
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
            limits: StreamLimits::default(),
        }
    }

    /// Enforces `limits` (the config's `limits:`) on every response.
    pub fn limited(mut self, limits: StreamLimits) -> Self {
        self.limits = limits;
        self
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
            decoder: self.wire.decoder_for(&request),
            wire: Arc::clone(&self.wire),
            client: self.client.clone(),
            request,
            policy: self.policy,
            idle_timeout: self.idle_timeout,
            state: State::Connect,
            sse: SseDecoder::with_limit(self.limits.sse_line),
            limits: self.limits,
            tally: Tally::default(),
            sniff: None,
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
    limits: StreamLimits,
    /// What this attempt has streamed, against `limits`.
    tally: Tally,
    /// The status and content type of a body whose first chunk is still to come: that
    /// chunk is checked for an HTML page.
    sniff: Option<(u16, String)>,
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
            let step = self.step().await.and_then(|more| {
                let provider = &self.wire.site().provider;
                self.tally.count(&self.limits, provider, &self.pending)?;
                Ok(more)
            });
            match step {
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
                self.sse = SseDecoder::with_limit(self.limits.sse_line);
                self.tally = Tally::default();
                self.sniff = None;
                self.decoder = self.wire.decoder_for(&self.request);
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
                        if let Some((status, content_type)) =
                            self.sniff.take_if(|_| !bytes.is_empty())
                            && guard::is_html("", &bytes)
                        {
                            let site = self.wire.site();
                            return Err(guard::html_page(site, status, &content_type, &bytes));
                        }
                        self.sse.push(&bytes);
                        while let Some(event) = self.sse.next_event() {
                            let event = event.map_err(|error| BackendError::Malformed {
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

    /// Why an attachment of the request cannot go to this API; checked before sending.
    fn refused_attachments(&self) -> Option<String> {
        self.request
            .messages
            .iter()
            .find_map(|message| match message {
                Message::User { attachments, .. } => {
                    crate::config::attachment_limits::refusal(attachments, self.wire.api())
                }
                _ => None,
            })
    }

    async fn connect(&mut self) -> Result<(), BackendError> {
        if let Some(message) = self.refused_attachments() {
            return Err(BackendError::Failed { message });
        }
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
        if status.is_redirection() {
            return Err(guard::redirect(
                self.wire.site(),
                status.as_u16(),
                response.headers(),
            ));
        }
        if !status.is_success() {
            let headers = response.headers().clone();
            let (body, _) =
                guard::read_capped(response, self.idle_timeout, self.limits.error_body).await;
            let kind = misroute::content_type(&headers);
            if let Some(error) =
                misroute::for_answer(&*self.wire, &self.client, status.as_u16(), kind, &body).await
            {
                return Err(error);
            }
            return Err(status::from_reply(
                self.wire.site(),
                status.as_u16(),
                &headers,
                &body,
            ));
        }
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_string();
        if guard::is_html(&content_type, b"") {
            let (start, _) = guard::read_capped(response, self.idle_timeout, 1024).await;
            if let Some(error) = misroute::for_answer(
                &*self.wire,
                &self.client,
                status.as_u16(),
                &content_type,
                &start,
            )
            .await
            {
                return Err(error);
            }
            return Err(guard::html_page(
                self.wire.site(),
                status.as_u16(),
                &content_type,
                &start,
            ));
        }
        if content_type.starts_with("application/json") {
            let cap = self.limits.sse_line;
            let body = match guard::read_capped(response, self.idle_timeout, cap).await {
                (body, End::Complete) => body,
                (_, End::Broken) => return Err(BackendError::Truncated),
                (_, End::Stalled) => return Err(self.timed_out()),
                (_, End::OverCap) => {
                    return Err(BackendError::OverLimit {
                        message: format!(
                            "{} sent a JSON body of more than {} (limits.max_sse_line_bytes)",
                            self.wire.site().provider,
                            guard::size(cap)
                        ),
                    });
                }
            };
            let whole = self
                .decoder
                .whole_body(&String::from_utf8_lossy(&body), &mut self.pending);
            if whole.is_err()
                && let Some(error) = misroute::for_answer(
                    &*self.wire,
                    &self.client,
                    status.as_u16(),
                    &content_type,
                    &body,
                )
                .await
            {
                return Err(error);
            }
            match whole? {
                Flow::Finished => self.state = State::Done,
                Flow::Continue => return Err(BackendError::Truncated),
            }
        } else {
            self.sniff = Some((status.as_u16(), content_type));
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
