//! The app during a replay: single keys from the start, nothing sent that needs a model,
//! `n` steps, `q` quits while the recorded turn plays.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tests::{finish_turn, key, start_turn, type_text};
use super::*;
use crate::protocol::Mode;
use crate::tui::test_support::event;

fn replaying(step: bool) -> App {
    let mut app = App::new(Vec::new());
    app.on_event(&event(
        0,
        None,
        EventMsg::ReplayStarted {
            source: PathBuf::from(".massgen/sessions/session_x"),
            speed: 1.0,
            step,
        },
    ));
    start_turn(&mut app);
    app
}

fn notice(app: &App) -> &str {
    app.view.notice.as_deref().unwrap_or_default()
}

fn ctrl_c() -> KeyEvent {
    KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
}

#[test]
fn a_replay_starts_on_single_keys_and_q_quits_while_the_turn_plays() {
    let mut app = replaying(false);
    assert!(app.is_replay());
    assert!(!app.view.input.focused);
    assert!(app.state.is_running());
    assert_eq!(app.on_key(key(KeyCode::Char('q'))), vec![Effect::Quit]);
}

#[test]
fn questions_human_input_and_clear_never_leave_a_replay() {
    let mut app = replaying(false);
    app.on_key(key(KeyCode::Char('i')));
    type_text(&mut app, "a new question");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert!(notice(&app).contains("nothing is sent to a model"));

    finish_turn(&mut app, 2, 10);
    type_text(&mut app, "/clear");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert!(notice(&app).contains("as recorded"));
}

#[test]
fn ctrl_c_cancels_nothing_in_a_replay_and_a_second_press_quits() {
    let mut app = replaying(false);
    assert!(app.on_key(ctrl_c()).is_empty());
    assert!(notice(&app).contains("nothing to cancel"));
    assert_eq!(app.on_key(ctrl_c()), vec![Effect::Quit]);
}

#[test]
fn n_and_space_step_a_step_replay_until_it_has_finished() {
    let mut app = replaying(true);
    assert_eq!(
        app.on_key(key(KeyCode::Char('n'))),
        vec![Effect::Send(Op::Step)]
    );
    assert_eq!(
        app.on_key(key(KeyCode::Char(' '))),
        vec![Effect::Send(Op::Step)]
    );
    app.on_event(&event(0, None, EventMsg::ReplayFinished { events: 2 }));
    assert!(app.on_key(key(KeyCode::Char('n'))).is_empty());
    assert!(notice(&app).contains("every event"));

    let mut paced = replaying(false);
    assert!(paced.on_key(key(KeyCode::Char('n'))).is_empty());
    assert!(notice(&paced).contains("--step"));
}

#[test]
fn mode_agents_refinement_and_plans_stay_as_recorded() {
    let mut app = replaying(false);
    for finished in [false, true] {
        if finished {
            finish_turn(&mut app, 2, 10);
        }
        let keys = [
            KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT),
            KeyEvent::new(KeyCode::Char('P'), KeyModifiers::SHIFT),
            KeyEvent::new(KeyCode::Char('A'), KeyModifiers::SHIFT),
            KeyEvent::new(KeyCode::Char('R'), KeyModifiers::SHIFT),
        ];
        for pressed in keys {
            app.view.notice = None;
            assert!(app.on_key(pressed).is_empty(), "{pressed:?}");
            assert_eq!(notice(&app), super::replay::REPLAY_CHOICES, "{pressed:?}");
        }
    }
    assert_eq!(app.next.mode, Mode::Normal);
    assert_eq!(app.next.choices, crate::tui::choices::Choices::default());
    assert!(app.view.modals.is_empty());
    let kept = app.keep_replay_effects(vec![Effect::Send(Op::ListPlans)]);
    assert!(kept.is_empty(), "the plans are never listed in a replay");
}
