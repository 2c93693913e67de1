//! Errors in OpenAI's shape (`{"error": {"message", "type", "param", "code"}}`) with the
//! status codes OpenAI clients know how to handle.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    kind: &'static str,
    pub param: Option<&'static str>,
    code: Option<&'static str>,
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>, param: Option<&'static str>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            kind: "invalid_request_error",
            param,
            code: None,
        }
    }

    pub fn unauthorized() -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            message: "missing or wrong API key: send `Authorization: Bearer <key>` with the key \
                      massgen serve was started with"
                .into(),
            kind: "invalid_request_error",
            param: None,
            code: Some("invalid_api_key"),
        }
    }

    pub fn not_found(message: impl Into<String>, code: &'static str) -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
            kind: "invalid_request_error",
            param: None,
            code: Some(code),
        }
    }

    /// A known path asked with a method it does not take; `allowed` lists those it does.
    pub fn method_not_allowed(method: &str, path: &str, allowed: &str) -> Self {
        Self {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: format!("{path} does not take {method}: use {allowed}"),
            kind: "invalid_request_error",
            param: None,
            code: Some("method_not_allowed"),
        }
    }

    pub fn too_large(limit: usize) -> Self {
        Self {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!(
                "the request body is larger than {limit} bytes, the most this server takes \
                 (four times the config's limits.max_question_bytes, at most {} MiB)",
                super::MAX_BODY_BYTES >> 20
            ),
            kind: "invalid_request_error",
            param: None,
            code: Some("request_too_large"),
        }
    }

    /// The id a request chose is taken by a running turn.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::CONFLICT,
            message: message.into(),
            kind: "invalid_request_error",
            param: None,
            code: Some("run_id_taken"),
        }
    }

    pub fn forbidden(message: impl Into<String>, code: &'static str) -> Self {
        Self {
            status: StatusCode::FORBIDDEN,
            message: message.into(),
            kind: "invalid_request_error",
            param: None,
            code: Some(code),
        }
    }

    /// A body that is not declared JSON: a web page can post text and forms to another
    /// site without the browser asking it first, never JSON.
    pub fn not_json(content_type: &str) -> Self {
        Self {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            message: format!(
                "the body must be JSON sent with `Content-Type: application/json` (this one \
                 is {content_type}); other types are refused so that no web page can post to \
                 massgen serve"
            ),
            kind: "invalid_request_error",
            param: None,
            code: Some("unsupported_media_type"),
        }
    }

    pub fn slow_body(seconds: u64) -> Self {
        Self {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!(
                "the request body did not arrive within {seconds} s (--read-timeout {seconds})"
            ),
            kind: "invalid_request_error",
            param: None,
            code: Some("request_timeout"),
        }
    }

    pub fn busy(max: usize) -> Self {
        Self {
            status: StatusCode::TOO_MANY_REQUESTS,
            message: format!(
                "{} already running (--max-concurrent {max}); retry shortly",
                if max == 1 {
                    "1 turn is".to_string()
                } else {
                    format!("{max} turns are")
                }
            ),
            kind: "rate_limit_error",
            param: None,
            code: Some("rate_limit_exceeded"),
        }
    }

    /// A failure on our side, with the request id to find it in the logs.
    pub fn internal(message: impl Into<String>, request_id: &str) -> Self {
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("{} (request {request_id})", message.into()),
            kind: "server_error",
            param: None,
            code: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {
            "message": self.message,
            "type": self.kind,
            "param": self.param,
            "code": self.code,
        }});
        (self.status, Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_server_counts_its_running_turns_in_words() {
        assert_eq!(
            ApiError::busy(1).message,
            "1 turn is already running (--max-concurrent 1); retry shortly"
        );
        assert_eq!(
            ApiError::busy(4).message,
            "4 turns are already running (--max-concurrent 4); retry shortly"
        );
    }
}
