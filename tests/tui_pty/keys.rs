//! The real binary in a pseudo-terminal, for keys no other test drives: `y` copies the
//! final answer through OSC 52, `?` opens help from an empty composer, the `/r` and `/c`
//! aliases open their views without asking anything, a second Ctrl+C mid-turn quits as an
//! interruption, `/quit` mid-turn asks to be typed again, and a notice goes away by itself.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::pty::Pty;
use base64::Engine;

const QUESTION: &str = "What is the capital of France?";

/// No turn ran in `home`: no turn's log directory exists.
fn no_turn_ran(home: &Path) -> bool {
    let logs = home.join(".massgen/massgen_logs");
    !logs.exists()
        || std::fs::read_dir(logs)
            .unwrap()
            .flatten()
            .all(|run| !run.path().join("turn_1").exists())
}

#[test]
fn y_copies_the_final_answer_to_the_clipboard_through_osc_52() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(format!("{QUESTION}\r").as_bytes());
    pty.wait_for(&["Final answer ·", "Idle", "wins"], "turn done");
    assert!(
        !pty.output().contains("\x1b]52;"),
        "nothing is copied before `y`"
    );
    pty.press(b"\x1b");
    pty.press(b"y");
    pty.wait_for(&["copied the final answer"], "the copy's notice");
    let output = pty.quit();
    let sessions: Vec<_> = std::fs::read_dir(home.path().join(".massgen/sessions"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    let answer = std::fs::read_to_string(sessions[0].join("turn_1/answer.txt")).unwrap();
    assert!(answer.contains("Answer."), "{answer}");
    let encoded = base64::engine::general_purpose::STANDARD.encode(&answer);
    let sequence = format!("\x1b]52;c;{encoded}\x07");
    assert_eq!(
        output.matches(&sequence).count(),
        1,
        "the final answer goes to the clipboard once, whole: {:?}",
        output
            .find("\x1b]52;")
            .map(|at| &output[at..(at + 120).min(output.len())])
    );
}

#[test]
fn question_mark_opens_help_and_the_r_and_c_aliases_open_their_views() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"?");
    let help = pty.wait_for(&["Keys and commands"], "? opens help");
    assert!(
        help.contains("Ask a question · Enter to submit"),
        "the composer stays empty:\n{help}"
    );
    pty.press(b"\x1b");
    let closed = pty.wait_until(|text| !text.contains("Keys and commands"), "help closed");
    assert!(
        closed.contains("Ask a question · Enter to submit"),
        "no `?` was typed:\n{closed}"
    );
    // Completion offers `/refine`, `/reset`, `/cost`, `/clear`…: Enter runs the exact alias.
    pty.press(b"/r");
    pty.press(b"\r");
    pty.wait_for(&["Coordination table"], "/r is the coordination table");
    pty.press(b"\x1b"); // closes the table; the composer keeps the focus
    pty.press(b"/c");
    pty.press(b"\r");
    let costs = pty.wait_for(&["Tokens and costs"], "/c is the costs view");
    assert!(!costs.contains("Turn 1"), "no question was sent:\n{costs}");
    pty.press(b"\x1b");
    pty.quit();
    assert!(no_turn_ran(home.path()), "no turn ran");
}

/// The first Ctrl+C cancels the turn; a second within 2 s quits, maybe before the cancelled
/// turn has ended, and the session exits 4 (interrupted), as after a cancelled turn.
#[test]
fn a_second_ctrl_c_mid_turn_quits_as_an_interruption() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = slow_turn_running(home.path());
    let pressed = Instant::now();
    pty.send(b"\x03");
    pty.send(b"\x03");
    pty.finish_with(4);
    assert!(
        pressed.elapsed() < Duration::from_secs(10),
        "it quit at once, not when the turn was over: {:?}",
        pressed.elapsed()
    );
}

#[test]
fn a_notice_goes_away_after_its_time_on_screen() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.send(b"/cancel\r");
    pty.wait_for(&["no turn is running"], "the notice");
    let shown = Instant::now();
    pty.wait_until(
        |text| !text.contains("no turn is running"),
        "the notice goes",
    );
    let lasted = shown.elapsed();
    assert!(
        (Duration::from_millis(5_500)..Duration::from_secs(9)).contains(&lasted),
        "a notice stays about 6 s: {lasted:?}"
    );
    pty.quit();
}

/// `/quit` mid-turn asks to be typed again; the turn goes on meanwhile. Typed again, it
/// cancels the turn (saved) and quits, exit 4 as after any interrupted turn.
#[test]
fn quit_mid_turn_asks_first_then_cancels_and_quits() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = slow_turn_running(home.path());
    pty.press(b"/quit\r");
    let asked = pty.wait_for(&["/quit again cancels it"], "asked to confirm");
    assert!(asked.contains("Coordinating"), "still running:\n{asked}");
    pty.press(b"/quit\r");
    pty.finish_with(4);
}

/// The binary in `home` with agents that stream a word a second, a turn asked and running.
fn slow_turn_running(home: &std::path::Path) -> Pty {
    std::fs::write(home.join("slow.yaml"), crate::support::pty::SLOW_AGENTS).unwrap();
    let mut pty = Pty::start(home, &["--config", "slow.yaml"]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(format!("{QUESTION}\r").as_bytes());
    pty.wait_for(&["Turn 1", "streaming"], "the turn runs");
    pty
}
