//! The real binary in a pseudo-terminal, for issue 28's item 10: a turn cancelled while the
//! winner presents its final answer does not say that it won, and `/` completions say what
//! each command does.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::Pty;

/// Quick answers and votes, then a final answer of some 200 words at 20 a second: the
/// presentation runs for seconds, time enough to cancel it.
fn slow_presentation() -> String {
    let long = "Paris is the capital of France, and the answer explains why in detail. ".repeat(15);
    format!(
        r#"
agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 20
      answer: "Paris."
      vote_for: a
      final_answer: "{long}"
  - id: b
    backend:
      type: scripted
      tokens_per_second: 20
      answer: "Paris, France."
      vote_for: a
      final_answer: "{long}"
"#
    )
}

/// The status bar: the screen's last row.
fn status_bar(screen: &str) -> String {
    screen.lines().last().unwrap_or_default().to_string()
}

#[test]
fn cancelling_the_final_answer_does_not_report_a_win() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("slow.yaml"), slow_presentation()).unwrap();
    let mut pty = Pty::start(home.path(), &["--config", "slow.yaml"]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"What is the capital of France?\r");
    pty.wait_until(
        |screen| status_bar(screen).contains("Presenting"),
        "the winner presents",
    );
    pty.press(b"\x03");
    let screen = pty.wait_until(
        |screen| status_bar(screen).contains("Idle"),
        "the cancelled turn ends",
    );
    let status = status_bar(&screen);
    assert!(!status.contains("wins"), "no win is claimed: {status}");
    assert!(
        status.contains("cancelled · a's final answer incomplete"),
        "the bar says what happened: {status}"
    );
    // The session's last turn was cancelled: it ends as interrupted (exit code 4).
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish_with(4);
}

#[test]
fn slash_completions_describe_each_command() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"/ex");
    let screen = pty.wait_for(&["Tab to complete", "/export"], "the popup opens");
    let export = screen
        .lines()
        .find(|line| line.contains("/export"))
        .unwrap();
    assert!(
        export.contains("a finished turn as Markdown"),
        "described beside the command: {export}"
    );
    let exit = screen.lines().find(|line| line.contains("/exit")).unwrap();
    assert!(exit.contains("the same as /quit"), "{exit}");
    pty.press(b"\x15");
    pty.quit();
}
