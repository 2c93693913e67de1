//! Defences against a hostile or misconfigured provider: the `limits:` caps on what one
//! response may stream, bounded reads of bodies, and clear errors for redirects and HTML
//! pages where an event stream was expected.

use std::collections::VecDeque;
use std::time::Duration;

use futures::StreamExt;
use reqwest::header::HeaderMap;

use super::CallSite;
use crate::backend::{BackendError, StreamEvent};
use crate::config::LimitsConfig;

/// The `limits:` caps one HTTP backend enforces, in bytes or counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// `limits.max_response_text_bytes`: text plus reasoning of one response.
    pub response_text: usize,
    /// `limits.max_tool_arguments_bytes`: all tool-call arguments of one response.
    pub tool_arguments: usize,
    /// `limits.max_tool_calls_per_response`.
    pub tool_calls: usize,
    /// `limits.max_error_body_bytes`: how much of an error reply is read.
    pub error_body: usize,
    /// `limits.max_sse_line_bytes`: one SSE event, or one non-streamed JSON body.
    pub sse_line: usize,
}

impl From<&LimitsConfig> for StreamLimits {
    fn from(limits: &LimitsConfig) -> Self {
        let size = |value: u64| usize::try_from(value).unwrap_or(usize::MAX);
        Self {
            response_text: size(limits.max_response_text_bytes),
            tool_arguments: size(limits.max_tool_arguments_bytes),
            tool_calls: size(limits.max_tool_calls_per_response),
            error_body: size(limits.max_error_body_bytes),
            sse_line: size(limits.max_sse_line_bytes),
        }
    }
}

impl Default for StreamLimits {
    fn default() -> Self {
        Self::from(&LimitsConfig::default())
    }
}

/// "4 MiB", "64 KiB", "300 bytes".
pub fn size(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// What one attempt has streamed so far, against the caps.
#[derive(Debug, Default)]
pub struct Tally {
    text: usize,
    arguments: usize,
    calls: usize,
}

impl Tally {
    /// Counts `events` (freshly decoded) and fails once a cap is passed.
    pub fn count(
        &mut self,
        limits: &StreamLimits,
        provider: &str,
        events: &VecDeque<StreamEvent>,
    ) -> Result<(), BackendError> {
        for event in events {
            match event {
                // Opaque reasoning state is kept to be sent back, so it counts as text.
                StreamEvent::TextDelta(text)
                | StreamEvent::ReasoningDelta(text)
                | StreamEvent::ReasoningSignature(text)
                | StreamEvent::RedactedReasoning(text)
                | StreamEvent::ToolCallSignature {
                    signature: text, ..
                } => {
                    self.text = self.text.saturating_add(text.len());
                }
                StreamEvent::ToolCallArgsDelta { fragment, .. } => {
                    self.arguments = self.arguments.saturating_add(fragment.len());
                }
                StreamEvent::ProviderTool(call) => {
                    let size = call.input.len() + call.output.len();
                    self.text = self.text.saturating_add(size);
                }
                StreamEvent::ProviderBlock { item, .. } => {
                    self.text = self.text.saturating_add(item.to_string().len());
                }
                StreamEvent::ToolCallStart { .. } => self.calls += 1,
                StreamEvent::Usage(_)
                | StreamEvent::ReportedCost(_)
                | StreamEvent::Finish(_)
                | StreamEvent::Retry { .. } => {}
            }
        }
        let over = |what: String, key: &str| BackendError::OverLimit {
            message: format!(
                "{provider} {what} in one response (limits.{key}); the response was dropped"
            ),
        };
        if self.text > limits.response_text {
            return Err(over(
                format!("streamed more than {} of text", size(limits.response_text)),
                "max_response_text_bytes",
            ));
        }
        if self.arguments > limits.tool_arguments {
            return Err(over(
                format!(
                    "streamed more than {} of tool-call arguments",
                    size(limits.tool_arguments)
                ),
                "max_tool_arguments_bytes",
            ));
        }
        if self.calls > limits.tool_calls {
            return Err(over(
                format!("made more than {} tool calls", limits.tool_calls),
                "max_tool_calls_per_response",
            ));
        }
        Ok(())
    }
}

/// How reading a body ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Complete,
    /// The connection broke.
    Broken,
    /// Nothing arrived for the idle timeout.
    Stalled,
    /// There was more than the cap; the rest was not read.
    OverCap,
}

/// Reads at most `cap` bytes of a body, chunk by chunk, never holding more than `cap`.
pub async fn read_capped(
    response: reqwest::Response,
    idle_timeout: Duration,
    cap: usize,
) -> (Vec<u8>, End) {
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    loop {
        match tokio::time::timeout(idle_timeout, chunks.next()).await {
            Ok(Some(Ok(bytes))) => {
                let room = cap.saturating_sub(body.len());
                if bytes.len() > room {
                    body.extend_from_slice(&bytes[..room]);
                    return (body, End::OverCap);
                }
                body.extend_from_slice(&bytes);
            }
            Ok(None) => return (body, End::Complete),
            Ok(Some(Err(_))) => return (body, End::Broken),
            Err(_) => return (body, End::Stalled),
        }
    }
}

/// A 3xx reply: massgen follows no redirect, so the key is never sent to another host.
pub fn redirect(site: &CallSite, status: u16, headers: &HeaderMap) -> BackendError {
    let target = headers
        .get(reqwest::header::LOCATION)
        .and_then(|value| value.to_str().ok())
        .map(|location| {
            // The query may carry secrets; the address is what the user needs.
            let address = location.split(['?', '#']).next().unwrap_or_default();
            format!(" to {}", snippet(address.as_bytes(), 200))
        })
        .unwrap_or_default();
    BackendError::Failed {
        message: format!(
            "{} answered with a redirect ({status}){target}; massgen does not follow redirects \
             on model calls so your key never leaves for another host — set base_url to the \
             final address",
            site.provider
        ),
    }
}

/// Whether a 2xx reply is an HTML page: by its content type or its first byte.
pub fn is_html(content_type: &str, start: &[u8]) -> bool {
    content_type.to_ascii_lowercase().contains("html")
        || start.trim_ascii_start().first() == Some(&b'<')
}

/// A web page where an event stream was expected (a proxy, a login page, a wrong URL).
pub fn html_page(site: &CallSite, status: u16, content_type: &str, start: &[u8]) -> BackendError {
    let content_type = if content_type.is_empty() {
        "none"
    } else {
        content_type
    };
    BackendError::Failed {
        message: format!(
            "{} answered with an HTML page (status {status}, content-type {}) instead of an \
             event stream — check base_url (the API's address, often ending in /v1): {}",
            site.provider,
            snippet(content_type.as_bytes(), 80),
            snippet(start, 200)
        ),
    }
}

/// At most `limit` characters of `bytes` on one line, for a message.
pub fn snippet(bytes: &[u8], limit: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let line: String = line
        .chars()
        .filter(|char| !char.is_control())
        .take(limit + 1)
        .collect();
    if line.chars().count() > limit {
        format!("{}…", line.chars().take(limit - 1).collect::<String>())
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_are_one_short_line() {
        let page = format!("<html>\n<body>\r\n{}</body>\u{1b}[2J", "x".repeat(500));
        let line = snippet(page.as_bytes(), 200);
        assert!(line.chars().count() <= 200, "{line}");
        assert!(!line.contains(['\n', '\r', '\u{1b}']), "{line}");
        assert_eq!(snippet(b"<p>hi</p>", 200), "<p>hi</p>");
    }

    #[test]
    fn caps_name_their_limit_key() {
        let limits = StreamLimits {
            tool_calls: 1,
            ..StreamLimits::default()
        };
        let start = |index| StreamEvent::ToolCallStart {
            index,
            id: String::new(),
            name: String::new(),
        };
        let mut tally = Tally::default();
        let events = VecDeque::from([start(0)]);
        assert_eq!(tally.count(&limits, "X", &events), Ok(()));
        let error = tally.count(&limits, "X", &VecDeque::from([start(1)]));
        let error = error
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            error.contains("limits.max_tool_calls_per_response"),
            "{error}"
        );
        assert_eq!(size(4 << 20), "4 MiB");
    }
}
