//! The real binary in a pseudo-terminal, for input: the composer edits a flag, a ZWJ
//! emoji, CJK and a combining accent as whole clusters and shows exactly the typed text;
//! the mouse (SGR reports) focuses a card, scrolls the timeline and opens a timeline row;
//! mouse reporting is switched off on exit, and never switched on with `--no-mouse`; input
//! typed during a turn is queued, then delivered.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::{Launch, Pty};

/// The composer's text row (inside its frame), as the terminal shows it.
fn composer_row(pty: &Pty, needle: &str) -> String {
    let (_, row) = pty.row_with(needle);
    row.trim_end()
        .trim_start_matches('│')
        .trim_end_matches('│')
        .trim_end()
        .to_string()
}
const MOUSE_ON: &str = "\x1b[?1000h";

const FLAG: &str = "🇫🇷";
const FAMILY: &str = "👨\u{200d}👩\u{200d}👧";

#[test]
fn the_composer_edits_whole_clusters_and_shows_exactly_the_text() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    let typed = format!("{FLAG} ok {FAMILY} 漢字 e\u{301}!");
    pty.press(typed.as_bytes());
    pty.wait_for(&["ok"], "typed");
    assert_eq!(composer_row(&pty, " ok "), typed, "no ghost cells");
    let (row, _) = pty.row_with(" ok ");
    // Cursor after `!`: flag 2 + " ok " 4 + family 6 + " 漢字 é!" 8 = column 20 inside
    // the frame (21 on screen).
    assert_eq!(pty.reversed(row), [21]);
    // Seven clusters left: `!`, é, space, 字, 漢, space, then the family.
    for _ in 0..7 {
        pty.press(b"\x1b[D");
    }
    assert_eq!(
        composer_row(&pty, " ok "),
        typed,
        "moving leaves the text as it is"
    );
    assert_eq!(
        pty.reversed(row),
        [7, 9, 11],
        "the cursor covers the family's parts"
    );
    pty.press(b"\x1b[3~"); // Delete: the whole family
    let without_family = format!("{FLAG} ok  漢字 e\u{301}!");
    assert_eq!(composer_row(&pty, " ok "), without_family);
    for _ in 0..4 {
        pty.press(b"\x1b[D");
    }
    pty.press(b"\x7f"); // Backspace: the whole flag
    assert_eq!(composer_row(&pty, " ok "), " ok  漢字 e\u{301}!");
    assert_eq!(pty.reversed(row), [1]);
    pty.press(b"\x1b[F"); // End
    pty.press(b"\x7f\x7f"); // `!`, then é (e and its accent together)
    assert_eq!(composer_row(&pty, " ok "), " ok  漢字");
    pty.press(b"\x03"); // Ctrl+C clears the composer,
    pty.press(b"\x03"); // asks to quit,
    pty.press(b"\x03"); // and quits
    pty.finish();
}

#[test]
fn clicks_and_the_wheel_reach_cards_and_the_timeline_and_mouse_mode_ends_on_exit() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"What is the capital of France?\r");
    pty.wait_for(&["Idle", "wins", "Final answer"], "turn done");
    // The final answer fills the body; `f` brings the cards back.
    pty.press(b"\x1b");
    pty.press(b"f");
    pty.wait_for(&["final answer presented"], "the cards and the timeline");

    // Three cards side by side at 140 columns; the third is critic's. A click on it
    // focuses it and leaves the composer, so `o` opens its output.
    let (title, _) = pty.row_with("critic ·");
    pty.click(120, title + 3);
    pty.press(b"o");
    pty.wait_for(&["Output of critic"], "the clicked card is focused");
    pty.press(b"\x1b");

    // The wheel over the timeline scrolls it.
    let (timeline, _) = pty.row_with("Timeline ·");
    pty.wheel_up(10, timeline + 2);
    pty.wait_for(&["new ↓ (End)"], "the timeline scrolled");
    pty.press(b"\x1b[F"); // End: follow again
    pty.wait_for(&["turn done"], "following again");

    // A timeline row: one click selects it, a second opens it; the presentation's row
    // opens the final view.
    let (presenting, _) = pty.row_with("presenting agent");
    pty.click(20, presenting);
    pty.click(20, presenting);
    pty.wait_for(&["Final answer ·"], "the presented answer opened");
    pty.press(b"\x1b");
    pty.press(b"q");
    let output = pty.finish();
    let on = output.rfind(MOUSE_ON).expect("mouse reporting was on");
    assert!(
        output[on..].contains("\x1b[?1000l") && output[on..].contains("\x1b[?1006l"),
        "mouse reporting is switched off on exit"
    );
}

#[test]
fn no_mouse_leaves_the_mouse_to_the_terminal() {
    for (args, env) in [
        (&["--no-mouse"][..], &[][..]),
        (&[][..], &[("MASSGEN_NO_MOUSE", "1")][..]),
    ] {
        let home = tempfile::tempdir().unwrap();
        let launch = env.iter().fold(Launch::default(), |launch, (name, value)| {
            launch.with_env(name, value)
        });
        let mut pty = Pty::launch(home.path(), args, launch);
        pty.wait_for(&["Type a question below"], "welcome");
        pty.press(b"\x03");
        pty.press(b"\x03");
        let output = pty.finish();
        assert!(
            !output.contains(MOUSE_ON),
            "{args:?} {env:?}: mouse reporting stays off"
        );
    }
}

/// One agent that talks slowly, then calls a tool: input typed while it talks waits, and
/// reaches it with the tool's result.
const TALKS_THEN_LOOKS_UP: &str = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 3
    text: "Let me think about this for a few seconds before I look it up."
    tool_calls: [{name: lookup, arguments: {}}]
    answer: "Paris"
"#;

/// Enter during a turn queues the text for the agents (the status bar counts it, the
/// timeline says queued), the agent's card shows it once delivered and the timeline row
/// says delivered; the text is in the composer's history.
#[test]
fn input_typed_during_a_turn_is_queued_then_delivered() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("solo.yaml"), TALKS_THEN_LOOKS_UP).unwrap();
    let mut pty = Pty::start(home.path(), &["--config", "solo.yaml"]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"What is the capital of France?\r");
    pty.wait_for(&["Turn 1", "Let me"], "the agent talks");
    pty.press(b"Mention the Seine\r");
    pty.wait_for(&["1 queued", "queued: Mention the Seine"], "queued");
    pty.wait_for(
        &[
            "human input: Mention the Seine",
            "delivered to solo: Mention the Seine",
        ],
        "delivered",
    );
    pty.wait_for(&["Idle"], "the turn ended");
    let screen = pty.text();
    assert!(!screen.contains("queued"), "nothing waits:\n{screen}");
    pty.press(b"\x1b[A"); // Up: the input is in the history
    pty.wait_for(&["│Mention the Seine"], "recalled");
    pty.press(b"\x03"); // Ctrl+C clears the composer,
    pty.press(b"\x03"); // asks to quit,
    pty.press(b"\x03"); // and quits
    pty.finish();
}
