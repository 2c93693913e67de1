//! A `base_url` without the path an OpenAI-compatible server serves under
//! (`http://host:1234` for `http://host:1234/v1`): the server answers 404, 405, a web page
//! or LM Studio's "Unexpected endpoint". The error names the URL that was POSTed, the
//! answer, and the `base_url` to write, after one short GET of `{base}/v1/models`.

use std::time::Duration;

use super::{Wire, guard, status};
use crate::backend::BackendError;
use crate::config::masked_url;

/// The longest the `/v1/models` probe may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// Where a call went, and the base that would likely have worked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Misroute {
    /// The URL that was POSTed.
    pub url: String,
    /// The configured base, without a trailing slash.
    pub base: String,
}

impl Misroute {
    /// For a call to `url` under `base`: `None` when the base's path already names an API
    /// version (`/v1`, `/api/paas/v4`, `/openai/v1beta`…), so a 404 means something else.
    pub fn for_base(base: &str, url: &str) -> Option<Self> {
        let base = base.trim_end_matches('/');
        let path = base
            .split_once("://")
            .map_or(base, |(_, rest)| rest)
            .split_once('/')
            .map_or("", |(_, path)| path);
        let versioned = path.split('/').any(|segment| {
            segment
                .strip_prefix('v')
                .and_then(|rest| rest.chars().next())
                .is_some_and(|first| first.is_ascii_digit())
        });
        (!versioned).then(|| Self {
            url: url.to_string(),
            base: base.to_string(),
        })
    }

    /// The base a user should write.
    pub fn suggested(&self) -> String {
        format!("{}/v1", self.base)
    }
}

/// Whether an answer with this status and body looks like a wrong path rather than a real
/// refusal: 404, 405, a web page, or LM Studio's unknown-endpoint reply.
pub fn looks_misrouted(status: u16, content_type: &str, body: &[u8]) -> bool {
    matches!(status, 404 | 405)
        || guard::is_html(content_type, body)
        || String::from_utf8_lossy(body)
            .to_ascii_lowercase()
            .contains("unexpected endpoint")
}

/// The error for a misrouted call, after asking `{base}/v1/models` whether the server
/// lives there. `answer` describes what came back ("404", "200 with an HTML page").
pub async fn explain(
    client: &reqwest::Client,
    route: &Misroute,
    provider: &str,
    answer: &str,
    detail: &str,
) -> BackendError {
    let models = format!("{}/models", route.suggested());
    let confirmed = matches!(
        tokio::time::timeout(PROBE_TIMEOUT, client.get(&models).send()).await,
        Ok(Ok(response)) if response.status().is_success()
            || matches!(response.status().as_u16(), 401 | 403)
    );
    let tried = format!("{provider} answered {answer} at {}", masked_url(&route.url));
    let fix = format!("set `base_url: {}`", masked_url(&route.suggested()));
    let because = if confirmed {
        format!(
            "; the server does answer at {} — {fix}",
            masked_url(&models)
        )
    } else {
        format!("; OpenAI-compatible servers usually serve under /v1 — {fix}")
    };
    let said = if detail.is_empty() {
        String::new()
    } else {
        format!(" (the server said: {detail})")
    };
    BackendError::Failed {
        message: format!("{tried}{because}{said}"),
    }
}

/// The wrong-`base_url` explanation for this answer, when the wire can give one and the
/// answer looks like a path the server does not serve.
pub async fn for_answer(
    wire: &dyn Wire,
    client: &reqwest::Client,
    status: u16,
    content_type: &str,
    body: &[u8],
) -> Option<BackendError> {
    let route = wire.misroute()?;
    if !looks_misrouted(status, content_type, body) {
        return None;
    }
    let (answer, detail) = if guard::is_html(content_type, body) {
        (
            format!("{status} with a web page"),
            guard::snippet(body, 120),
        )
    } else {
        (status.to_string(), status::error_message(body))
    };
    Some(explain(client, route, &wire.site().provider, &answer, &detail).await)
}

pub fn content_type(headers: &reqwest::header::HeaderMap) -> &str {
    headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_base_without_a_version_segment_is_suspect() {
        let route = Misroute::for_base(
            "http://127.0.0.1:1234/",
            "http://127.0.0.1:1234/chat/completions",
        )
        .unwrap();
        assert_eq!(route.base, "http://127.0.0.1:1234");
        assert_eq!(route.suggested(), "http://127.0.0.1:1234/v1");
        assert!(Misroute::for_base("http://h/proxy", "u").is_some());
        for base in [
            "http://localhost:8000/v1",
            "https://api.z.ai/api/paas/v4",
            "https://generativelanguage.googleapis.com/v1beta/openai",
        ] {
            assert_eq!(Misroute::for_base(base, "u"), None, "{base}");
        }
    }

    #[test]
    fn not_found_pages_and_unknown_endpoints_look_misrouted() {
        assert!(looks_misrouted(404, "application/json", b"{}"));
        assert!(looks_misrouted(405, "", b""));
        assert!(looks_misrouted(200, "text/html; charset=utf-8", b"<html>"));
        assert!(looks_misrouted(
            200,
            "application/json",
            br#"{"error":"Unexpected endpoint or method. (POST /chat/completions)"}"#
        ));
        assert!(!looks_misrouted(
            400,
            "application/json",
            br#"{"error":"bad"}"#
        ));
    }
}
