//! The real binary in a pseudo-terminal, for history: Up recalls a question ending in
//! `@path` without opening the path popup, and Up/Down go on walking the history.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::{Launch, Pty};

/// The title of the completion popup's frame.
const POPUP_TITLE: &str = "Tab to complete";
const FIRST: &str = "What is the capital of France?";
const SECOND: &str = "explain @README.md";
/// What the empty composer shows in the first place.
const PLACEHOLDER: &str =
    "Ask a question · Enter to submit · Alt+Enter for a newline · /help for help";

/// The composer's one text row (the last framed row on screen), as the terminal shows it;
/// the placeholder when it is empty.
fn composer_text(screen: &str) -> String {
    screen
        .lines()
        .rev()
        .find(|line| line.starts_with('│'))
        .unwrap_or_default()
        .trim_start_matches('│')
        .trim_end()
        .trim_end_matches('│')
        .trim()
        .to_string()
}

/// Presses `key` and waits until the composer shows `expected`; returns the screen.
fn press_until(pty: &mut Pty, key: &[u8], expected: &str) -> String {
    pty.press(key);
    pty.wait_until(
        |screen| composer_text(screen) == expected,
        &format!("the composer shows {expected:?}"),
    )
}

#[test]
fn up_and_down_walk_past_a_recalled_path_question() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("README.md"), "# A project\n").unwrap();
    let mut pty = Pty::launch(home.path(), &[], Launch::default().in_dir(project.path()));
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(format!("{FIRST}\r").as_bytes());
    pty.wait_for(&["Turn 1", "Idle", "wins"], "first turn done");
    pty.press(SECOND.as_bytes());
    pty.wait_for(&[POPUP_TITLE], "typing the path completes it");
    pty.press(b"\r");
    pty.wait_for(&["Turn 2", "Idle", "wins"], "second turn done");

    const UP: &[u8] = b"\x1b[A";
    const DOWN: &[u8] = b"\x1b[B";
    let recalled = press_until(&mut pty, UP, SECOND);
    assert!(
        !recalled.contains(POPUP_TITLE),
        "a recalled question opens no popup:\n{recalled}"
    );
    press_until(&mut pty, UP, FIRST);
    let back = press_until(&mut pty, DOWN, SECOND);
    assert!(!back.contains(POPUP_TITLE), "still no popup:\n{back}");
    let draft = press_until(&mut pty, DOWN, PLACEHOLDER);
    assert!(!draft.contains(POPUP_TITLE));
    pty.quit();
}
