//! The real binary in a pseudo-terminal: after a turn, pressing the keys the screen hints,
//! as it shows them, never types into the composer or runs a mistyped question; closing a
//! view with Esc leaves the composer empty, and the next question goes as it was typed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::Pty;

const QUESTION: &str = "What is the capital of France?";

/// The bytes a terminal sends for a hinted key name; `None` for Shift+Tab, which works in
/// every focus and would change the next turn's mode.
fn bytes_for(name: &str) -> Option<Vec<u8>> {
    let bytes: &[u8] = match name {
        "Shift+Tab" => return None,
        "Esc" => b"\x1b",
        "Enter" => b"\r",
        "↑↓" => b"\x1b[A",
        "PgUp/PgDn" => b"\x1b[6~",
        single if single.chars().count() == 1 => single.as_bytes(),
        other => panic!("the screen hints {other:?}: this test cannot press it"),
    };
    Some(bytes.to_vec())
}

/// Presses every key a row of hints names, as the row shows it: `Esc → y copy · f cards` is
/// Esc, then `y`, then `f`.
fn press_hints(pty: &mut Pty, hints: &str) {
    for hint in hints.split(" · ") {
        let mut hint = hint.trim();
        if let Some(rest) = hint.strip_prefix("Esc → ") {
            pty.press(b"\x1b");
            hint = rest;
        }
        let name = hint
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_end_matches(':');
        if let Some(bytes) = bytes_for(name) {
            pty.press(&bytes);
        }
    }
}

/// The final view's footer: the text after the last run of `─` in its bottom border.
fn final_view_footer(pty: &Pty) -> String {
    let (_, row) = pty.row_with("f cards");
    let inner = row.trim_end().trim_end_matches('╯');
    inner.rsplit("──").next().unwrap().trim().to_string()
}

/// The mode bar's key hints, from `Shift+Tab` on.
fn mode_bar_hints(pty: &Pty) -> String {
    let (_, row) = pty.row_with("Shift+Tab mode");
    let at = row.find("Shift+Tab mode").unwrap();
    row[at..].trim().to_string()
}

/// The status bar's key hints: what follows its last run of two or more spaces.
fn status_hints(pty: &Pty) -> String {
    let screen = pty.text();
    let row = screen.lines().last().unwrap_or("").trim_end().to_string();
    let start = row.rfind("  ").map_or(0, |at| at + 2);
    row[start..].to_string()
}

/// The composer shows its placeholder (focused or not): nothing is typed in it.
fn composer_is_empty(screen: &str) -> bool {
    screen.contains("│ Ask a question") || screen.contains("│ i: type here")
}

#[test]
fn the_keys_hinted_after_a_turn_type_nothing_and_closing_a_view_leaves_the_composer_empty() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(format!("{QUESTION}\r").as_bytes());
    pty.wait_for(&["Final answer ·", "Idle", "wins"], "turn 1 done");

    // The mode bar's and the final view's hints, pressed as shown.
    let mode_bar = mode_bar_hints(&pty);
    let footer = final_view_footer(&pty);
    press_hints(&mut pty, &mode_bar);
    press_hints(&mut pty, &footer);
    let screen = pty.text();
    assert!(
        composer_is_empty(&screen),
        "pressing {mode_bar:?} and {footer:?} typed into the composer:\n{screen}"
    );

    // A view opened with a hinted key and closed with Esc; then the hinted way back.
    let hints = status_hints(&pty);
    assert!(hints.contains("v votes"), "{hints:?}");
    pty.press(b"v");
    let open = pty.wait_for(&["Esc close ╯"], "the votes view");
    let hints = status_hints(&pty);
    assert!(hints.starts_with("Esc: close"), "{hints:?}\n{open}");
    pty.press(b"\x1b");
    pty.wait_until(|text| !text.contains("Esc close ╯"), "votes closed");
    let hints = status_hints(&pty);
    assert!(hints.contains("i: type"), "{hints:?}");
    pty.press(b"i");
    let screen = pty.wait_for(&["│ Ask a question"], "typing again");
    assert!(composer_is_empty(&screen), "{screen}");

    // Help opened while typing: Esc goes back to typing, and no `i` is hinted there.
    pty.press(b"?");
    pty.wait_for(&["Keys and commands"], "help");
    let hints = status_hints(&pty);
    assert!(hints.contains("back to typing"), "{hints:?}");
    pty.press(b"\x1b");
    let screen = pty.wait_until(|text| !text.contains("Keys and commands"), "help closed");
    assert!(
        !screen.contains("i: type"),
        "typing: no `i` hinted\n{screen}"
    );
    assert!(screen.contains("│ Ask a question"), "{screen}");

    // The next question goes as typed: no stray letter in front of it.
    pty.press(b"cpu test\r");
    let screen = pty.wait_for(&["Turn 2"], "turn 2");
    let (_, header) = pty.row_with("Turn 2");
    assert!(header.contains("Turn 2 cpu test"), "{header:?}\n{screen}");
    pty.wait_for(&["Final answer ·", "Idle"], "turn 2 done");
    pty.quit();
}

#[test]
fn the_cursor_shows_only_while_the_composer_has_focus() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    let (row, _) = pty.row_with("│ Ask a question");
    assert_eq!(pty.reversed(row).len(), 1, "typing: the cursor shows");
    // The composer stays on its row; only what it shows changes.
    pty.press(b"\x1b");
    assert!(pty.reversed(row).is_empty(), "keys are commands: no cursor");
    let (_, composer) = pty.row_with("i: type here");
    assert!(composer.starts_with('│'), "{composer:?}");
    pty.press(b"i");
    assert_eq!(pty.reversed(row).len(), 1, "typing again");
    pty.quit();
}
