//! Typing and sending: submitting (with the mode and attached paths), history, paste,
//! completions, Ctrl+C's three meanings; and the helpers the app's other tests share.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::interrupt::{NOTICE_TTL, QUIT_WINDOW};
use super::*;
use crate::protocol::{AgentId, EventMsg, Mode, TurnOutcome};
use crate::tui::test_support::event;
use crate::tui::view::ModalKind;

pub(super) fn agents() -> Vec<AgentInfo> {
    AgentInfo::roster(
        ["a", "b", "c"].map(|id| (AgentId::new(id), "scripted".to_string(), "m".to_string())),
    )
}

pub(super) fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

pub(super) fn type_text(app: &mut App, text: &str) {
    for ch in text.chars() {
        assert!(app.on_key(key(KeyCode::Char(ch))).is_empty());
    }
}

pub(super) fn start_turn(app: &mut App) {
    app.on_event(&event(
        1,
        None,
        EventMsg::TurnStarted {
            options: Default::default(),
            question: "q".into(),
            mode: Mode::Normal,
            agents: agents(),
            log_dir: None,
        },
    ));
}

pub(super) fn finish_turn(app: &mut App, seq: u64, duration_ms: u64) {
    app.on_event(&event(
        seq,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Cancelled,
            winner: None,
            duration_ms,
        },
    ));
}

/// The kind of the modal on top, if one is open.
pub(super) fn top_modal(app: &App) -> Option<ModalKind> {
    app.view.modals.top()
}

#[test]
fn enter_submits_the_question_with_the_chosen_mode() {
    let mut app = App::new(agents());
    app.on_key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
    assert_eq!(app.next.mode, Mode::Planning);
    type_text(&mut app, "Why?");
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::SHIFT));
    type_text(&mut app, "Really");
    let effects = app.on_key(key(KeyCode::Enter));
    assert_eq!(
        effects,
        [Effect::Send(Op::Submit {
            // Planning asks the user by default (human feedback "Enabled").
            options: crate::protocol::TurnOptions {
                broadcast: Some(crate::protocol::BroadcastTarget::Human),
                ..Default::default()
            },
            text: "Why?\nReally".into(),
            mode: Mode::Planning,
            context_paths: Vec::new(),
        })]
    );
    assert!(app.view.input.composer.is_empty());
    assert!(
        app.on_key(key(KeyCode::Enter)).is_empty(),
        "empty text is not sent"
    );
}

#[test]
fn text_sent_during_a_turn_is_human_input_and_the_mode_is_locked() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "focus on cost");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::InjectHumanInput {
            text: "focus on cost".into(),
            targets: Vec::new(),
        })]
    );
    app.on_key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
    assert_eq!(app.next.mode, Mode::Normal);
    assert_eq!(app.view.notice.as_deref(), Some(super::plan::MODE_LOCKED));
}

#[test]
fn ctrl_c_cancels_a_running_turn_at_once_and_a_second_press_within_2_s_quits() {
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "draft");
    assert_eq!(
        app.on_key(ctrl_c),
        [Effect::Send(Op::Cancel)],
        "one press cancels, whatever the composer holds"
    );
    assert_eq!(app.view.input.composer.text(), "draft", "the draft is kept");
    assert_eq!(app.on_key(ctrl_c), [Effect::Quit]);

    // Past the window, a second press does not quit; a third one soon after does.
    let mut slow = App::new(agents());
    start_turn(&mut slow);
    assert_eq!(slow.on_key(ctrl_c), [Effect::Send(Op::Cancel)]);
    slow.interrupt.arm(Instant::now() - QUIT_WINDOW);
    assert!(slow.on_key(ctrl_c).is_empty());
    assert_eq!(slow.on_key(ctrl_c), [Effect::Quit]);

    // Idle: the composer is cleared first (its text one Up away), then quit is asked.
    let mut idle = App::new(agents());
    type_text(&mut idle, "draft");
    assert!(idle.on_key(ctrl_c).is_empty());
    assert!(idle.view.input.composer.is_empty());
    idle.on_key(key(KeyCode::Up));
    assert_eq!(
        idle.view.input.composer.text(),
        "draft",
        "cleared text is not lost"
    );
    let mut idle = App::new(agents());
    assert!(idle.on_key(ctrl_c).is_empty());
    assert_eq!(
        idle.view.notice.as_deref(),
        Some("press Ctrl+C again to quit")
    );
    assert_eq!(idle.on_key(ctrl_c), [Effect::Quit]);
    // Any other key disarms it.
    let mut idle = App::new(agents());
    idle.on_key(ctrl_c);
    idle.on_key(key(KeyCode::Char('x')));
    idle.on_key(key(KeyCode::Backspace));
    assert!(idle.on_key(ctrl_c).is_empty());
}

#[test]
fn notices_go_away_after_a_while() {
    let mut app = App::new(agents());
    app.view.notice = Some("press Ctrl+C again to quit".into());
    let shown = Instant::now();
    let (expired, until) = app.expire_notice(shown);
    assert!(!expired);
    assert_eq!(
        until,
        Some(shown + NOTICE_TTL),
        "the screen is drawn again then"
    );
    assert_eq!(app.expire_notice(shown + NOTICE_TTL / 2), (false, until));
    assert_eq!(app.expire_notice(shown + NOTICE_TTL), (true, None));
    assert_eq!(app.view.notice, None);
    // A new notice starts its own time.
    app.view.notice = Some("cleared (Up brings it back)".into());
    let later = shown + NOTICE_TTL * 2;
    assert_eq!(app.expire_notice(later), (false, Some(later + NOTICE_TTL)));
}

#[test]
fn up_and_down_walk_the_history() {
    let mut app = App::new(agents());
    for question in ["first", "second"] {
        type_text(&mut app, question);
        app.on_key(key(KeyCode::Enter));
    }
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.input.composer.text(), "second");
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.input.composer.text(), "first");
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.input.composer.text(), "first");
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.input.composer.text(), "second");
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.input.composer.text(), "");
}

#[test]
fn q_does_not_quit_during_a_turn_and_paste_keeps_newlines() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_key(key(KeyCode::Esc));
    assert!(app.on_key(key(KeyCode::Char('q'))).is_empty());
    app.on_paste("line one\r\nline two");
    assert!(app.view.input.focused);
    assert_eq!(app.view.input.composer.text(), "line one\nline two");
}

#[test]
fn the_composer_edits_at_the_cursor_and_keeps_up_down_for_multi_line_text() {
    let mut app = App::new(agents());
    type_text(&mut app, "helo");
    app.on_key(key(KeyCode::Left));
    type_text(&mut app, "l");
    assert_eq!(app.view.input.composer.text(), "hello");
    app.on_key(key(KeyCode::End));
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT));
    type_text(&mut app, "world");
    assert_eq!(app.view.input.composer.text(), "hello\nworld");
    // With several lines, Up moves the cursor instead of recalling history.
    app.on_key(key(KeyCode::Up));
    type_text(&mut app, "!");
    assert_eq!(app.view.input.composer.text(), "hello!\nworld");
    app.on_key(key(KeyCode::Backspace));
    assert_eq!(app.view.input.composer.text(), "hello\nworld");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::Submit {
            options: Default::default(),
            text: "hello\nworld".into(),
            mode: Mode::Normal,
            context_paths: Vec::new(),
        })]
    );
}

#[test]
fn history_keeps_the_draft_and_down_never_erases_it() {
    let mut app = App::new(agents());
    type_text(&mut app, "old question");
    app.on_key(key(KeyCode::Enter));
    type_text(&mut app, "draft");
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.input.composer.text(), "draft");
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.input.composer.text(), "old question");
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.input.composer.text(), "draft");
}

#[test]
fn pasted_carriage_returns_become_line_breaks() {
    let mut app = App::new(agents());
    app.on_paste("one\rtwo\r\nthree");
    assert_eq!(app.view.input.composer.text(), "one\ntwo\nthree");
}

#[test]
fn a_second_ctrl_c_while_cancelling_quits() {
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let mut app = App::new(agents());
    start_turn(&mut app);
    assert_eq!(app.on_key(ctrl_c), [Effect::Send(Op::Cancel)]);
    assert_eq!(app.on_key(ctrl_c), [Effect::Quit]);
}

#[test]
fn stray_coordination_events_after_a_turn_do_not_restart_it() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    finish_turn(&mut app, 2, 10);
    let info = &agents()[0];
    app.on_event(&event(
        3,
        Some(info.id.as_str()),
        EventMsg::AnswerSubmitted {
            label: crate::protocol::AnswerLabel::answer(&info.anon_id, 1),
            anon_id: info.anon_id.clone(),
            content: "late".into(),
            votes_reset: None,
        },
    ));
    assert!(!app.state.is_running());
}

#[test]
fn slash_and_path_popups_complete_with_tab_and_enter() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README.md"), "").unwrap();
    let mut app = App::new(agents()).with_cwd(dir.path().to_path_buf());
    type_text(&mut app, "/vo");
    let popup = app.view.input.popup.clone().unwrap();
    assert_eq!(popup.items, ["/vote"]);
    // Enter takes the command suggestion first, then runs it.
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert_eq!(app.view.input.composer.text(), "/vote ");
    assert!(app.view.input.popup.is_none());
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), Some(ModalKind::Votes));
    app.on_key(key(KeyCode::Esc));

    type_text(&mut app, "summarise @rea");
    assert_eq!(
        app.view
            .input
            .popup
            .as_ref()
            .map(|popup| popup.items.clone()),
        Some(vec!["@README.md".to_string()])
    );
    app.on_key(key(KeyCode::Tab));
    assert_eq!(app.view.input.composer.text(), "summarise @README.md ");
    // Esc closes a popup without leaving the composer.
    type_text(&mut app, "@");
    assert!(app.view.input.popup.is_some());
    app.on_key(key(KeyCode::Esc));
    assert!(app.view.input.popup.is_none());
    assert!(app.view.input.focused);
}

#[test]
fn attached_paths_travel_with_the_question_and_missing_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spec.md"), "x").unwrap();
    let mut app = App::new(agents()).with_cwd(dir.path().to_path_buf());
    type_text(&mut app, "Review @spec.md:w please");
    let effects = app.on_key(key(KeyCode::Enter));
    let [
        Effect::Send(Op::Submit {
            text,
            context_paths,
            ..
        }),
    ] = effects.as_slice()
    else {
        panic!("{effects:?}");
    };
    let spec = dir.path().canonicalize().unwrap().join("spec.md");
    assert_eq!(text, &format!("Review {} please", spec.display()));
    assert_eq!(context_paths.len(), 1);
    assert!(context_paths[0].writable && context_paths[0].path.ends_with("spec.md"));

    type_text(&mut app, "Fix @nothing.rs");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert_eq!(
        app.view.input.composer.text(),
        "Fix @nothing.rs",
        "the text is kept"
    );
    assert!(
        app.view
            .notice
            .as_deref()
            .is_some_and(|notice| notice.starts_with("not found: @nothing.rs"))
    );
}

#[test]
fn an_attached_system_directory_is_refused_unless_outside_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(agents()).with_cwd(dir.path().to_path_buf());
    type_text(&mut app, "Summarise @/etc");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert_eq!(
        app.view.input.composer.text(),
        "Summarise @/etc",
        "the text is kept"
    );
    let notice = app.view.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with("@/etc ") && notice.contains("--allow-outside-project"),
        "{notice}"
    );

    let mut app = App::new(agents())
        .with_cwd(dir.path().to_path_buf())
        .allowing_outside_project(true);
    type_text(&mut app, "Summarise @/etc");
    assert!(matches!(
        app.on_key(key(KeyCode::Enter)).as_slice(),
        [Effect::Send(Op::Submit { .. })]
    ));
}
