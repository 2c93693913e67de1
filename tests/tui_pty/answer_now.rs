//! The real binary in a pseudo-terminal: Ctrl+G ("answer now") while one agent still
//! thinks ends refinement, and the vote leader's final answer is shown.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::Pty;

/// The status bar: the screen's last row.
fn status_bar(screen: &str) -> String {
    screen.lines().last().unwrap_or_default().to_string()
}

#[test]
fn ctrl_g_ends_refinement_and_the_leader_presents() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &["--config", "@examples/scripted/answer_now"]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"\x07"); // Ctrl+G before any turn
    pty.wait_for(&["answer now works while a turn runs"], "refused when idle");
    pty.press(b"What is the capital of France?\r");
    pty.wait_until(
        |screen| status_bar(screen).contains("Ctrl+G: answer now"),
        "the status bar offers answer now",
    );
    pty.wait_until(
        |screen| screen.matches("🗳 → steady").count() >= 2,
        "both quick agents voted for steady",
    );
    pty.press(b"\x07"); // Ctrl+G
    let screen = pty.wait_for(
        &["Answer now: the steady agent's final answer to What is the capital of France?"],
        "the leader's final answer",
    );
    assert!(!screen.contains("ten minutes later"), "{screen}");
    pty.wait_until(
        |screen| status_bar(screen).contains("Idle"),
        "the turn ends",
    );
    pty.press(b"\x1b");
    pty.press(b"f"); // the cards and the timeline
    pty.wait_for(
        &["⚡ answer now: refinement ended"],
        "the timeline records it",
    );
    pty.press(b"q");
    pty.finish();
}
