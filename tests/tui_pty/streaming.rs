//! The real binary in a pseudo-terminal (issue 19): a paragraph streamed without a line
//! break is on screen word by word, wrapping as it grows, long before the agent's answer
//! completes, at 80×24 and at 160×48.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use crate::support::pty::{Launch, Pty};

/// Words in the paragraph: `z01` … `z80`, one line of text with no line break.
const WORDS: usize = 80;

/// The highest-numbered paragraph word on `screen` (`z01`…), if any.
fn newest_word(screen: &str) -> Option<usize> {
    let chars: Vec<char> = screen.chars().collect();
    (0..chars.len().saturating_sub(2))
        .filter(|&at| chars[at] == 'z' && (at == 0 || !chars[at - 1].is_alphanumeric()))
        .filter(|&at| chars[at + 1].is_ascii_digit() && chars[at + 2].is_ascii_digit())
        .filter(|&at| chars.get(at + 3).is_none_or(|next| !next.is_alphanumeric()))
        .filter_map(|at| format!("{}{}", chars[at + 1], chars[at + 2]).parse().ok())
        .max()
}

fn streams_word_by_word(rows: u16, cols: u16) {
    let home = tempfile::tempdir().unwrap();
    let paragraph: Vec<String> = (1..=WORDS).map(|word| format!("z{word:02}")).collect();
    let config = format!(
        "agents:\n  - id: solo\n    backend: {{type: scripted, model: scripted-slow, \
         tokens_per_second: 12, text: \"{}\", answer: \"Done.\"}}\n",
        paragraph.join(" ")
    );
    std::fs::write(home.path().join("slow.yaml"), config).unwrap();
    let mut pty = Pty::launch(
        home.path(),
        &["--config", "slow.yaml"],
        Launch::sized(rows, cols),
    );
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"Stream a long paragraph\r");
    pty.wait_for(&["Turn 1"], "turn started");

    // Every newest word seen before the paragraph's last one arrives.
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let screen = pty.text();
        match newest_word(&screen) {
            Some(WORDS) => break,
            Some(word) if seen.last() != Some(&word) => seen.push(word),
            Some(_) | None => {}
        }
        assert!(
            Instant::now() < deadline,
            "{cols}x{rows}: the paragraph never completed; seen {seen:?}; the screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        seen.len() >= 10 && seen.windows(2).all(|pair| pair[0] < pair[1]),
        "{cols}x{rows}: the paragraph did not grow word by word before it ended: {seen:?}"
    );
    let wrapped = seen.iter().any(|&word| word * 4 > usize::from(cols));
    assert!(
        wrapped,
        "{cols}x{rows}: it was seen growing past one line: {seen:?}"
    );
    pty.press(b"\x03"); // Ctrl+C: cancel the turn
    pty.wait_for(&["Idle"], "the turn was cancelled");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish_with(4);
}

#[test]
fn a_streamed_paragraph_is_on_screen_word_by_word_at_80x24() {
    streams_word_by_word(24, 80);
}

#[test]
fn a_streamed_paragraph_is_on_screen_word_by_word_at_160x48() {
    streams_word_by_word(48, 160);
}
