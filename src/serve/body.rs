//! A request body as the API takes it: declared JSON (`Content-Type: application/json`,
//! UTF-8), no larger than the limit, arrived within the read timeout.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::HeaderMap;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use bytes::BytesMut;
use futures::StreamExt as _;

use super::errors::ApiError;

/// Refuses a body not declared as JSON. Browsers let any page send text, forms and
/// multipart to another site without asking it first; `application/json` they do not.
pub fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(value) = headers.get(CONTENT_TYPE) else {
        return Err(ApiError::not_json("missing"));
    };
    let text = value.to_str().unwrap_or_default();
    let mut parts = text.split(';');
    let essence = parts.next().unwrap_or_default().trim();
    let utf8 = parts.all(|parameter| match parameter.split_once('=') {
        Some((name, value)) if name.trim().eq_ignore_ascii_case("charset") => {
            let charset = value.trim().trim_matches('"');
            charset.eq_ignore_ascii_case("utf-8") || charset.eq_ignore_ascii_case("utf8")
        }
        _ => true,
    });
    if essence.eq_ignore_ascii_case("application/json") && utf8 {
        return Ok(());
    }
    let shown: String = text.chars().take(80).collect();
    Err(ApiError::not_json(&format!("`{shown}`")))
}

/// The whole body, refused as soon as it is larger than `limit` or slower than `timeout`.
pub async fn read(
    body: Body,
    headers: &HeaderMap,
    limit: usize,
    timeout: Duration,
) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    let mut stream = body.into_data_stream();
    if declared.is_some_and(|length| length > u64::try_from(limit).unwrap_or(u64::MAX)) {
        drain(&mut stream, timeout).await;
        return Err(ApiError::too_large(limit));
    }
    let mut collected = BytesMut::new();
    let reading = async {
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|error| {
                ApiError::bad_request(format!("the request body broke off: {error}"), None)
            })?;
            if collected.len() + chunk.len() > limit {
                return Err(ApiError::too_large(limit));
            }
            collected.extend_from_slice(&chunk);
        }
        Ok(())
    };
    match tokio::time::timeout(timeout, reading).await {
        Ok(Ok(())) => Ok(collected.freeze()),
        Ok(Err(error)) => {
            drop(collected);
            drain(&mut stream, timeout).await;
            Err(error)
        }
        Err(_) => Err(ApiError::slow_body(timeout.as_secs())),
    }
}

/// Reads and drops what is left of a refused body (at most the largest body any config
/// takes, within `timeout`), so the client, still sending, reads the refusal instead of a
/// reset connection.
async fn drain(stream: &mut axum::body::BodyDataStream, timeout: Duration) {
    let mut left = super::MAX_BODY_BYTES;
    let _ = tokio::time::timeout(timeout, async {
        while let Some(Ok(chunk)) = stream.next().await {
            left = left.saturating_sub(chunk.len());
            if left == 0 {
                break;
            }
        }
    })
    .await;
}
