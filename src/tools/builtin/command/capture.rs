//! A command's output kept within a cap: its first and last bytes, and how much was cut.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt};

/// Bytes kept of each stream: half from its start, half from its end.
pub(super) const STREAM_CAP: usize = 32 * 1024;

#[derive(Debug, Default)]
pub(super) struct Capped {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    total: usize,
}

impl Capped {
    pub(super) fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len();
        let half = STREAM_CAP / 2;
        let room = half.saturating_sub(self.head.len());
        let (into_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(into_head);
        bytes = rest;
        if bytes.len() >= half {
            self.tail.clear();
            bytes = &bytes[bytes.len() - half..];
        }
        self.tail.extend(bytes);
        let excess = self.tail.len().saturating_sub(half);
        self.tail.drain(..excess);
    }

    /// The text, with `… N bytes cut …` where the middle was dropped.
    pub(super) fn render(&self) -> String {
        let kept = self.head.len() + self.tail.len();
        let tail: Vec<u8> = self.tail.iter().copied().collect();
        let head = String::from_utf8_lossy(&self.head);
        let tail = String::from_utf8_lossy(&tail);
        if kept == self.total {
            format!("{head}{tail}")
        } else {
            format!("{head}\n… {} bytes cut …\n{tail}", self.total - kept)
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.total == 0
    }
}

/// Reads `stream` to its end into `into`, which stays readable if this is aborted.
pub(super) async fn collect(mut stream: impl AsyncRead + Unpin, into: Arc<Mutex<Capped>>) {
    let mut buffer = vec![0; 8192];
    loop {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(read) => into
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(&buffer[..read]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_kept_whole() {
        let mut capped = Capped::default();
        capped.push(b"hello ");
        capped.push(b"world");
        assert_eq!(capped.render(), "hello world");
        assert!(Capped::default().is_empty());
    }

    #[test]
    fn long_output_keeps_head_and_tail_with_the_cut_counted() {
        let mut capped = Capped::default();
        let chunk: Vec<u8> = (0..1000u32).map(|i| b'a' + (i % 26) as u8).collect();
        for _ in 0..100 {
            capped.push(&chunk);
        }
        capped.push(b"THE END");
        let text = capped.render();
        assert!(text.starts_with("abcdef"));
        assert!(text.ends_with("THE END"));
        assert!(text.contains(&format!("\n… {} bytes cut …\n", 100_007 - STREAM_CAP)));
    }

    #[test]
    fn one_huge_push_is_capped_too() {
        let mut capped = Capped::default();
        capped.push(&vec![b'x'; 10 * STREAM_CAP]);
        assert!(capped.render().len() < STREAM_CAP + 64);
    }
}
