//! One line per request on standard error, as a server's access log: method, path (never
//! the query or a header, so never a key), status, how long it took to the last byte, and
//! for a turn its model, request id and log directory. Also gives the router's bare 405s
//! an OpenAI-shaped body.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, SizeHint};

use super::errors::ApiError;

/// Longest path written: a path is the client's text.
const MAX_PATH_CHARS: usize = 200;

/// What a request's turn adds to its line; set on the response by the handler.
#[derive(Clone, Debug)]
pub struct TurnNote {
    pub model: String,
    pub request_id: String,
    pub log_dir: Option<PathBuf>,
}

/// The middleware: runs the request, then logs its line once the response body is sent
/// (a streamed turn's line comes when its stream ends) or dropped.
pub async fn record(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path: String = request.uri().path().chars().take(MAX_PATH_CHARS).collect();
    let response = next.run(request).await;
    let response = if response.status() == StatusCode::METHOD_NOT_ALLOWED {
        explain_method_not_allowed(&method, &path, response)
    } else {
        response
    };
    let (parts, body) = response.into_parts();
    let line = Line {
        method,
        path,
        status: parts.status,
        turn: parts.extensions.get::<TurnNote>().cloned(),
        started,
    };
    Response::from_parts(
        parts,
        Body::new(LoggedBody {
            inner: body,
            line: Some(line),
            finished: false,
        }),
    )
}

/// The router's 405 has no body (its `Allow` header is added after every layer, from the
/// same routes as [`super::allowed_methods`]): give it one naming the methods.
fn explain_method_not_allowed(method: &Method, path: &str, response: Response) -> Response {
    let Some(allowed) = super::allowed_methods(path) else {
        return response;
    };
    ApiError::method_not_allowed(method.as_str(), path, allowed).into_response()
}

struct Line {
    method: Method,
    path: String,
    status: StatusCode,
    turn: Option<TurnNote>,
    started: Instant,
}

impl Line {
    fn text(&self, finished: bool) -> String {
        let mut text = format!(
            "massgen serve: {} {} {} {} ms",
            self.method,
            self.path,
            self.status.as_u16(),
            self.started.elapsed().as_millis()
        );
        if let Some(turn) = &self.turn {
            let _ = write!(text, " model={} id={}", turn.model, turn.request_id);
            if let Some(dir) = &turn.log_dir {
                let _ = write!(text, " log={}", dir.display());
            }
        }
        if !finished {
            text.push_str(" (client gone before the end)");
        }
        text
    }
}

struct LoggedBody {
    inner: Body,
    line: Option<Line>,
    finished: bool,
}

impl HttpBody for LoggedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        if let Poll::Ready(None) = polled {
            this.finished = true;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for LoggedBody {
    fn drop(&mut self) {
        if let Some(line) = self.line.take() {
            let finished = self.finished || self.inner.is_end_stream();
            eprintln!("{}", line.text(finished));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_line_names_its_model_request_and_log_directory() {
        let line = Line {
            method: Method::POST,
            path: "/v1/chat/completions".into(),
            status: StatusCode::OK,
            turn: Some(TurnNote {
                model: "massgen".into(),
                request_id: "chatcmpl-1-1".into(),
                log_dir: Some(PathBuf::from(".massgen/massgen_logs/log_x")),
            }),
            started: Instant::now(),
        };
        let text = line.text(true);
        assert!(
            text.starts_with("massgen serve: POST /v1/chat/completions 200 ")
                && text
                    .ends_with(" ms model=massgen id=chatcmpl-1-1 log=.massgen/massgen_logs/log_x"),
            "{text}"
        );
        assert!(line.text(false).ends_with("(client gone before the end)"));
    }
}
