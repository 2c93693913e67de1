//! The last lines a child process (an MCP server, the Python tool worker) wrote to stderr,
//! kept to explain why it stopped; every line also goes to the caller (its debug log), and
//! the pipe is drained so it never fills and blocks the child.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, BufReader};
use tokio::process::ChildStderr;
use tokio_util::sync::CancellationToken;

/// Longer stderr lines are cut (a child may write megabytes without a newline).
const MAX_LINE: usize = 2000;

/// A child's last stderr lines.
#[derive(Clone)]
pub struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    keep: usize,
    ended: CancellationToken,
}

impl StderrTail {
    /// Keeps the last `keep` non-empty lines.
    pub fn new(keep: usize) -> Self {
        Self {
            lines: Arc::default(),
            keep: keep.max(1),
            ended: CancellationToken::new(),
        }
    }

    /// Reads stderr to its end, handing each non-empty line to `each_line` too.
    pub async fn drain(self, stderr: ChildStderr, each_line: impl Fn(&str)) {
        let mut reader = BufReader::new(stderr);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match read_line_capped(&mut reader, &mut buf, MAX_LINE).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf).trim_end().to_owned();
            if line.is_empty() {
                continue;
            }
            each_line(&line);
            let mut lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
            if lines.len() == self.keep {
                lines.pop_front();
            }
            lines.push_back(line);
        }
        self.ended.cancel();
    }

    /// The lines kept so far, oldest first.
    pub fn lines(&self) -> Vec<String> {
        let lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        lines.iter().cloned().collect()
    }

    /// The last line, after giving a child that is exiting a moment to finish writing.
    pub async fn last_line_after_exit(&self) -> Option<String> {
        let _ = tokio::time::timeout(Duration::from_millis(500), self.ended.cancelled()).await;
        let lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        lines.back().cloned()
    }
}

/// Reads up to a newline, keeping at most `max` bytes of it; returns bytes consumed.
pub async fn read_line_capped<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
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
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        reader.consume(used);
        consumed += used;
        if done {
            return Ok(consumed);
        }
    }
}
