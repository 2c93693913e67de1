//! Up/Down through earlier questions never gets stuck in a completion popup: a recalled
//! `@path` question, a recalled `/command` and a recalled multi-line question keep walking
//! the history; completion opens again on typing, and a dismissed popup stays closed.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tests::{agents, key, type_text};
use super::*;

/// An app completing paths in a directory holding `README.md`, and that directory.
fn app_with_readme() -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README.md"), "x").unwrap();
    let app = App::new(agents()).with_cwd(dir.path().to_path_buf());
    (app, dir)
}

/// Types `question` and sends it with Enter.
fn ask(app: &mut App, question: &str) {
    type_text(app, question);
    let effects = app.on_key(key(KeyCode::Enter));
    assert!(
        matches!(effects.as_slice(), [Effect::Send(Op::Submit { .. })]),
        "{question:?} was sent: {effects:?}"
    );
}

/// Presses `code` and returns what the composer then holds and whether a popup shows.
fn press(app: &mut App, code: KeyCode) -> (String, bool) {
    app.on_key(key(code));
    (
        app.view.input.composer.text(),
        app.view.input.popup.is_some(),
    )
}

#[test]
fn a_recalled_path_question_opens_no_popup_and_up_down_keep_walking() {
    let (mut app, _dir) = app_with_readme();
    ask(&mut app, "first question");
    type_text(&mut app, "explain @README.md");
    assert!(
        app.view.input.popup.is_some(),
        "typing the path completes it"
    );
    assert!(app.on_key(key(KeyCode::Enter)).len() == 1, "Enter sends it");
    type_text(&mut app, "draft");

    let recalled = "explain @README.md".to_string();
    assert_eq!(press(&mut app, KeyCode::Up), (recalled.clone(), false));
    assert_eq!(
        press(&mut app, KeyCode::Up),
        ("first question".into(), false)
    );
    assert_eq!(press(&mut app, KeyCode::Down), (recalled.clone(), false));
    assert_eq!(press(&mut app, KeyCode::Down), ("draft".into(), false));
    assert_eq!(press(&mut app, KeyCode::Up), (recalled, false));

    // Editing the recalled path is typing: completion is back.
    assert_eq!(
        press(&mut app, KeyCode::Backspace),
        ("explain @README.m".into(), true)
    );
}

#[test]
fn a_recalled_command_opens_no_popup() {
    let (mut app, _dir) = app_with_readme();
    type_text(&mut app, "/vo");
    assert!(app.view.input.popup.is_some());
    // Ctrl+C clears the composer, its popup with it, and keeps the text one Up away.
    app.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert_eq!(
        (
            app.view.input.composer.text(),
            app.view.input.popup.is_some()
        ),
        (String::new(), false)
    );
    ask(&mut app, "a question");

    assert_eq!(press(&mut app, KeyCode::Up), ("a question".into(), false));
    assert_eq!(press(&mut app, KeyCode::Up), ("/vo".into(), false));
    assert_eq!(press(&mut app, KeyCode::Down), ("a question".into(), false));
    assert_eq!(press(&mut app, KeyCode::Down), (String::new(), false));
}

#[test]
fn a_recalled_multi_line_question_is_walked_past_and_can_still_be_edited() {
    let (mut app, _dir) = app_with_readme();
    ask(&mut app, "first");
    app.on_paste("line one\nexplain @README.md");
    assert_eq!(app.on_key(key(KeyCode::Enter)).len(), 1);

    let recalled = "line one\nexplain @README.md".to_string();
    assert_eq!(press(&mut app, KeyCode::Up), (recalled.clone(), false));
    assert_eq!(press(&mut app, KeyCode::Up), ("first".into(), false));
    assert_eq!(press(&mut app, KeyCode::Down), (recalled.clone(), false));
    // Once the cursor is moved into it, Up/Down move in the text, to edit it.
    app.on_key(key(KeyCode::Left));
    assert_eq!(press(&mut app, KeyCode::Up), (recalled, false));
    type_text(&mut app, "!");
    assert_eq!(
        app.view.input.composer.text(),
        "line one!\nexplain @README.md"
    );
}

#[test]
fn a_dismissed_popup_stays_closed_until_the_text_changes() {
    let (mut app, _dir) = app_with_readme();
    type_text(&mut app, "look at @");
    assert!(app.view.input.popup.is_some());
    app.on_key(key(KeyCode::Esc));
    assert!(app.view.input.focused, "Esc closed the popup only");
    assert_eq!(press(&mut app, KeyCode::Left), ("look at @".into(), false));
    assert_eq!(press(&mut app, KeyCode::End), ("look at @".into(), false));
    assert_eq!(
        press(&mut app, KeyCode::Char('R')),
        ("look at @R".into(), true)
    );
}
