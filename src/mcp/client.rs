//! The [`McpClient`] trait: one connected MCP server as the rest of massgen sees it,
//! whatever SDK sits underneath.

use std::time::Duration;

use futures::future::BoxFuture;

/// A tool as the server lists it (bare name, before `mcp__<server>__` is added).
#[derive(Clone, Debug, PartialEq)]
pub struct RemoteTool {
    pub name: String,
    pub description: String,
    /// A JSON schema for the tool's arguments.
    pub input_schema: serde_json::Value,
}

/// What one tool call returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallResult {
    /// The tool itself reported a failure (the server is fine).
    pub is_error: bool,
    /// Text blocks joined by newlines; other blocks described (`[image/png, 12 KB]`).
    pub text: String,
}

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum McpError {
    #[error("could not start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("could not connect: {0}")]
    Connect(String),
    #[error("no answer within {}", seconds(*.0))]
    Timeout(Duration),
    #[error("the server closed the connection (it exited or crashed){}", last_output_note(.last_output))]
    Closed {
        /// The last line the server wrote to stderr, when there was one.
        last_output: Option<String>,
    },
    #[error("the server answered with an error: {0}")]
    Protocol(String),
}

/// One connected MCP server.
pub trait McpClient: Send + Sync {
    /// Every tool the server offers, all pages.
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<RemoteTool>, McpError>>;

    /// Calls the tool by its bare name. Dropping the future abandons the call.
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> BoxFuture<'a, Result<CallResult, McpError>>;

    /// Ends the session and stops the server if we started it; later calls fail `Closed`.
    fn close(&self) -> BoxFuture<'_, ()>;
}

/// `12 s`, or `1.5 s` when the duration is not whole seconds.
pub fn seconds(duration: Duration) -> String {
    if duration.subsec_millis() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}

pub(super) fn last_output_note(last_output: &Option<String>) -> String {
    match last_output {
        Some(line) => format!("; its last output: {line}"),
        None => String::new(),
    }
}

/// How a non-text content block reads in a tool result: `[image/png, 12 KB]`.
/// `base64_len` is the length of the block's base64 data.
pub fn describe_binary(mime_type: &str, base64_len: usize) -> String {
    let bytes = base64_len / 4 * 3;
    format!("[{mime_type}, {}]", human_size(bytes))
}

fn human_size(bytes: usize) -> String {
    const KB: usize = 1000;
    const MB: usize = 1000 * KB;
    if bytes >= MB {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    } else if bytes >= KB {
        format!("{} KB", bytes.div_ceil(KB))
    } else {
        format!("{bytes} B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_blocks_are_described_by_type_and_decoded_size() {
        assert_eq!(describe_binary("image/png", 16_000), "[image/png, 12 KB]");
        assert_eq!(describe_binary("audio/wav", 8), "[audio/wav, 6 B]");
        assert_eq!(
            describe_binary("video/mp4", 4_000_000),
            "[video/mp4, 3.0 MB]"
        );
    }

    #[test]
    fn errors_read_as_sentences_for_the_user() {
        assert_eq!(
            McpError::Timeout(Duration::from_millis(1500)).to_string(),
            "no answer within 1.5 s"
        );
        assert_eq!(
            McpError::Closed {
                last_output: Some("Traceback: boom".into())
            }
            .to_string(),
            "the server closed the connection (it exited or crashed); its last output: \
             Traceback: boom"
        );
    }
}
