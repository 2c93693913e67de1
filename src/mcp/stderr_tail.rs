//! The last lines an MCP server wrote to stderr, kept to explain why it stopped while the
//! rest goes to the debug log.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::ChildStderr;
use tokio_util::sync::CancellationToken;

/// Lines of a server's stderr kept to explain why it stopped.
const TAIL_LINES: usize = 5;
/// Longer stderr lines are cut (a server may write megabytes without a newline).
const MAX_LINE: usize = 2000;

/// The server's last stderr lines, kept while the rest goes to the debug log.
#[derive(Clone, Default)]
pub(super) struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    ended: CancellationToken,
}

impl StderrTail {
    /// Reads stderr to its end so the pipe never fills and blocks the server.
    pub(super) async fn drain(self, server: String, stderr: ChildStderr) {
        let mut reader = BufReader::new(stderr);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match read_line_capped(&mut reader, &mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf).trim_end().to_owned();
            if line.is_empty() {
                continue;
            }
            tracing::debug!(target: "massgen::mcp", server = %server, "{line}");
            let mut lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
            if lines.len() == TAIL_LINES {
                lines.pop_front();
            }
            lines.push_back(line);
        }
        self.ended.cancel();
    }

    /// The last line, after giving a server that is exiting a moment to finish writing.
    pub(super) async fn last_line_after_exit(&self) -> Option<String> {
        let _ = tokio::time::timeout(Duration::from_millis(500), self.ended.cancelled()).await;
        let lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        lines.back().cloned()
    }
}

/// Reads up to a newline, keeping at most [`MAX_LINE`] bytes of it; returns bytes consumed.
async fn read_line_capped(
    reader: &mut BufReader<ChildStderr>,
    buf: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(consumed);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..=end], true),
            None => (available, false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        reader.consume(used);
        consumed += used;
        if done {
            return Ok(consumed);
        }
    }
}
