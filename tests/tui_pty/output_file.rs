//! `--output-file` in the full-screen display: once the app is left, the file holds the
//! session's newest final answer, as the plain display writes it after each turn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::Pty;

#[test]
fn the_full_screen_display_writes_the_final_answer_to_the_output_file() {
    let home = tempfile::tempdir().unwrap();
    let answer_file = home.path().join("answer.txt");
    let shown = answer_file.to_str().unwrap();
    let mut pty = Pty::start(
        home.path(),
        &["--output-file", shown, "What is the capital of France?"],
    );
    pty.wait_for(&["Final answer ·"], "the first turn's final answer");
    pty.press(b"Name a river in Paris\r");
    pty.wait_for(&["Turn 2"], "the second turn started");
    let screen = pty.wait_for(&["Final answer ·"], "the second turn's final answer");
    assert!(
        !answer_file.exists(),
        "written when the app is left, not over it:\n{screen}"
    );
    pty.quit();
    let written = std::fs::read_to_string(&answer_file).expect("--output-file was written");
    assert!(written.contains("Answer."), "{written}");
    assert!(
        written.contains("river") || written.contains("Name a river"),
        "the newest turn's answer, not the first one's:\n{written}"
    );
}
