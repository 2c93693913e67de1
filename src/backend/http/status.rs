//! Turns a provider's error reply (an HTTP status, its headers and body, or an error event
//! inside a stream) into a [`BackendError`] that says what happened and what to do.

use std::time::Duration;

use reqwest::header::HeaderMap;
use serde_json::Value;

use super::context_error;
use crate::backend::BackendError;

/// Who was called, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// Display name: "OpenAI", "Anthropic", "Groq", ….
    pub provider: String,
    pub model: String,
    /// How to fix a rejected key: "set OPENAI_API_KEY".
    pub key_fix: String,
}

impl CallSite {
    pub fn new(
        provider: impl Into<String>,
        model: impl Into<String>,
        key_fix: impl Into<String>,
    ) -> Self {
        Self {
            provider: provider.into(),
            model: model.into(),
            key_fix: key_fix.into(),
        }
    }
}

/// Classifies a non-success HTTP reply.
pub fn from_reply(site: &CallSite, status: u16, headers: &HeaderMap, body: &[u8]) -> BackendError {
    let detail = error_message(body);
    let retry_after = retry_after(headers).or_else(|| retry_delay_in_body(body));
    classify(site, status, detail, retry_after)
}

/// Classifies an error object a provider sent inside a stream (or as a whole reply): the
/// object itself or one nested under `error`. Its kind is the first of `kind_keys` that
/// holds a string (other than the bare tag `"error"`) or a number.
pub fn from_error_value(site: &CallSite, value: &Value, kind_keys: &[&str]) -> BackendError {
    let error = value
        .get("error")
        .filter(|error| error.is_object())
        .unwrap_or(value);
    let kind = kind_keys
        .iter()
        .find_map(|key| match error.get(*key)? {
            Value::String(text) if !text.is_empty() && text != "error" => Some(text.clone()),
            Value::Number(number) => Some(number.to_string()),
            Value::Null
            | Value::Bool(_)
            | Value::String(_)
            | Value::Array(_)
            | Value::Object(_) => None,
        })
        .unwrap_or_default();
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .or_else(|| error.as_str())
        .filter(|message| !message.is_empty())
        .unwrap_or("the provider reported an error");
    from_stream_error(site, &kind, message)
}

/// Classifies an error reported inside an otherwise successful stream, given its message
/// and the provider's error type or code (`overloaded_error`, `rate_limit_exceeded`, …).
pub fn from_stream_error(site: &CallSite, kind: &str, message: &str) -> BackendError {
    let kind_lower = kind.to_ascii_lowercase();
    let status = if kind_lower.contains("overloaded") {
        529
    } else if kind_lower.contains("unavailable") {
        503
    } else if kind_lower.contains("deadline_exceeded") || kind_lower.contains("timeout") {
        504
    } else if kind_lower.contains("rate_limit") || kind_lower.contains("resource_exhausted") {
        429
    } else if kind_lower.contains("server") || kind_lower.contains("internal") {
        500
    } else if kind_lower.contains("authenticat") || kind_lower.contains("permission") {
        401
    } else if kind_lower.contains("not_found") {
        404
    } else {
        400
    };
    let detail = if kind.is_empty() {
        message.to_string()
    } else {
        format!("{kind}: {message}")
    };
    classify(site, status, detail, None)
}

fn classify(
    site: &CallSite,
    status: u16,
    detail: String,
    retry_after: Option<Duration>,
) -> BackendError {
    let provider = site.provider.clone();
    let lower = detail.to_ascii_lowercase();
    if context_error::is_context_length(status, &lower) {
        return BackendError::ContextLength {
            model: site.model.clone(),
            detail,
        };
    }
    let bad_key = lower.contains("api key not valid")
        || lower.contains("api_key_invalid")
        || lower.contains("invalid api key")
        || lower.contains("incorrect api key");
    match status {
        401 | 403 => BackendError::Auth {
            provider,
            fix: site.key_fix.clone(),
            detail,
        },
        _ if bad_key => BackendError::Auth {
            provider,
            fix: site.key_fix.clone(),
            detail,
        },
        404 => BackendError::ModelNotFound {
            provider,
            model: site.model.clone(),
            detail,
        },
        // A spent quota is a 429 that no amount of waiting fixes, unless the provider says
        // when to come back (Gemini's per-minute limits use the same words).
        429 if retry_after.is_none()
            && (lower.contains("insufficient_quota")
                || lower.contains("exceeded your current quota")) =>
        {
            BackendError::Failed {
                message: format!("{provider} quota exhausted: {detail}"),
            }
        }
        429 => BackendError::RateLimited {
            provider,
            retry_after,
            detail,
        },
        408 | 409 | 500..=599 => BackendError::Server {
            provider,
            status,
            retry_after,
            detail,
        },
        _ => BackendError::Failed {
            message: if detail.is_empty() {
                format!("{provider} refused the request (HTTP {status})")
            } else {
                format!("{provider} refused the request (HTTP {status}): {detail}")
            },
        },
    }
}

/// The provider's own words, from the usual error shapes: `{"error": {"message"}}`,
/// `{"error": "…"}`, `{"message"}`, Gemini's `[{"error": …}]`; else the body as text.
pub fn error_message(body: &[u8]) -> String {
    const LIMIT: usize = 500;
    let text = match serde_json::from_slice::<Value>(body) {
        Ok(value) => message_in(&value).unwrap_or_else(|| value.to_string()),
        Err(_) => String::from_utf8_lossy(body).trim().to_string(),
    };
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn message_in(value: &Value) -> Option<String> {
    match value {
        Value::Array(items) => items.iter().find_map(message_in),
        Value::Object(map) => {
            if let Some(error) = map.get("error") {
                if let Some(text) = error.as_str() {
                    return Some(text.to_string());
                }
                if let Some(found) = message_in(error) {
                    return Some(found);
                }
            }
            map.get("message")
                .or_else(|| map.get("detail"))
                .and_then(Value::as_str)
                .map(str::to_string)
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => None,
    }
}

/// `retry-after-ms` (OpenAI), then `Retry-After` in seconds or as an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let header = |name| headers.get(name).and_then(|value| value.to_str().ok());
    if let Some(millis) = header("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()) {
        return duration_from_secs(millis / 1000.0);
    }
    let value = header("retry-after")?.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return duration_from_secs(seconds);
    }
    let when = jiff::fmt::rfc2822::parse(value).ok()?.timestamp();
    let wait = when.duration_since(jiff::Timestamp::now());
    Some(Duration::try_from(wait).unwrap_or(Duration::ZERO))
}

/// Gemini puts the wait in the body: `"retryDelay": "32s"`.
fn retry_delay_in_body(body: &[u8]) -> Option<Duration> {
    let value: Value = serde_json::from_slice(body).ok()?;
    find_retry_delay(&value)
}

fn find_retry_delay(value: &Value) -> Option<Duration> {
    match value {
        Value::Object(map) => map
            .get("retryDelay")
            .and_then(Value::as_str)
            .and_then(|text| text.strip_suffix('s'))
            .and_then(|seconds| seconds.parse::<f64>().ok())
            .and_then(duration_from_secs)
            .or_else(|| map.values().find_map(find_retry_delay)),
        Value::Array(items) => items.iter().find_map(find_retry_delay),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => None,
    }
}

fn duration_from_secs(seconds: f64) -> Option<Duration> {
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds.min(1e9)))
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    fn site() -> CallSite {
        CallSite::new("OpenAI", "gpt-5", "set OPENAI_API_KEY")
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn auth_failures_name_the_variable_to_set() {
        let error = from_reply(
            &site(),
            401,
            &HeaderMap::new(),
            br#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#,
        );
        assert_eq!(
            error.to_string(),
            "invalid key for OpenAI: set OPENAI_API_KEY (Incorrect API key provided)"
        );
        let gemini = from_reply(
            &site(),
            400,
            &HeaderMap::new(),
            br#"[{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]"#,
        );
        assert!(matches!(gemini, BackendError::Auth { .. }), "{gemini:?}");
    }

    #[test]
    fn unknown_models_and_long_prompts_are_recognised() {
        let missing = from_reply(
            &site(),
            404,
            &HeaderMap::new(),
            b"{\"error\":{\"message\":\"The model `gpt-9` does not exist\"}}",
        );
        assert!(
            missing
                .to_string()
                .starts_with("OpenAI has no model `gpt-5`"),
            "{missing}"
        );
        for body in [
            &br#"{"error":{"message":"This model's maximum context length is 128000 tokens.","code":"context_length_exceeded"}}"#[..],
            br#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
            br#"{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#,
        ] {
            let error = from_reply(&site(), 400, &HeaderMap::new(), body);
            assert!(matches!(error, BackendError::ContextLength { .. }), "{error:?}");
        }
    }

    #[test]
    fn rate_limits_carry_the_wait_from_headers_or_body() {
        let error = from_reply(&site(), 429, &headers(&[("retry-after", "4")]), b"{}");
        assert_eq!(error.retry_after(), Some(Duration::from_secs(4)));
        let error = from_reply(
            &site(),
            429,
            &headers(&[("retry-after-ms", "1500"), ("retry-after", "2")]),
            b"{}",
        );
        assert_eq!(error.retry_after(), Some(Duration::from_millis(1500)));
        let body = br#"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"32s"}]}}"#;
        let error = from_reply(&site(), 429, &HeaderMap::new(), body);
        assert_eq!(error.retry_after(), Some(Duration::from_secs(32)));
        let date = from_reply(
            &site(),
            503,
            &headers(&[("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")]),
            b"",
        );
        assert_eq!(date.retry_after(), Some(Duration::ZERO));
        assert!(date.is_retryable());
    }

    #[test]
    fn a_token_rate_limit_is_not_mistaken_for_a_long_prompt() {
        let error = from_reply(
            &site(),
            429,
            &HeaderMap::new(),
            br#"{"message":"Too many tokens processed this minute","type":"too_many_tokens_error"}"#,
        );
        assert!(error.is_retryable(), "{error:?}");
    }

    #[test]
    fn a_spent_quota_is_not_retried_unless_a_wait_is_given() {
        let body = br#"{"error":{"code":429,"message":"You exceeded your current quota, please check your plan.","status":"RESOURCE_EXHAUSTED","details":[{"retryDelay":"20s"}]}}"#;
        let error = from_reply(&site(), 429, &HeaderMap::new(), body);
        assert_eq!(
            error.retry_after(),
            Some(Duration::from_secs(20)),
            "{error:?}"
        );
        let error = from_reply(&site(), 429, &HeaderMap::new(), br#"{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}"#);
        assert!(!error.is_retryable(), "{error:?}");
    }

    #[test]
    fn stream_error_events_map_by_type() {
        let overloaded = from_stream_error(&site(), "overloaded_error", "Overloaded");
        assert!(overloaded.is_retryable());
        for (status, retryable) in [
            ("UNAUTHENTICATED", false),
            ("DEADLINE_EXCEEDED", true),
            ("UNAVAILABLE", true),
            ("RESOURCE_EXHAUSTED", true),
        ] {
            let error = from_stream_error(&site(), status, "x");
            assert_eq!(error.is_retryable(), retryable, "{status}: {error:?}");
        }
        assert!(matches!(
            from_stream_error(&site(), "UNAUTHENTICATED", "x"),
            BackendError::Auth { .. }
        ));
        let invalid = from_stream_error(&site(), "invalid_request_error", "bad");
        assert!(!invalid.is_retryable());
        assert_eq!(
            invalid.to_string(),
            "OpenAI refused the request (HTTP 400): invalid_request_error: bad"
        );
    }
}
