//! Ctrl+G, "answer now": sent while agents refine (from the composer or the body), refused
//! with a notice when no turn runs or the winner already presents; its hint in the status
//! bar while it applies; its timeline row.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::answer_now::ANSWER_NOW_SENT;
use super::tests::{agents, key, start_turn, type_text};
use super::*;
use crate::protocol::{AgentId, AnswerLabel, EventMsg, FinalAnswerStrategy};
use crate::tui::focus::ANSWER_NOW_HINT;
use crate::tui::render::tests::{draw, screen_text};
use crate::tui::test_support::event;

fn ctrl_g() -> KeyEvent {
    KeyEvent::new(KeyCode::Char('g'), KeyModifiers::CONTROL)
}

fn status_bar(app: &App) -> String {
    let screen = screen_text(&draw(&app.state, &app.view, 160, 48));
    screen.lines().last().unwrap_or_default().to_string()
}

fn presenting(app: &mut App) {
    let label: AnswerLabel = serde_json::from_value(serde_json::json!("agent1.final")).unwrap();
    app.on_event(&event(
        9,
        Some("a"),
        EventMsg::FinalPresentationStarted {
            label,
            strategy: FinalAnswerStrategy::WinnerPresent,
        },
    ));
}

#[test]
fn ctrl_g_while_agents_refine_sends_answer_now_and_keeps_the_draft() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "draft");
    assert_eq!(app.on_key(ctrl_g()), [Effect::Send(Op::AnswerNow)]);
    assert_eq!(app.view.notice.as_deref(), Some(ANSWER_NOW_SENT));
    assert_eq!(app.view.input.composer.text(), "draft");
    // From the body too.
    app.on_key(key(KeyCode::Esc));
    assert_eq!(app.on_key(ctrl_g()), [Effect::Send(Op::AnswerNow)]);
}

#[test]
fn ctrl_g_is_refused_with_a_notice_when_it_cannot_apply() {
    let mut idle = App::new(agents());
    assert!(idle.on_key(ctrl_g()).is_empty());
    assert_eq!(
        idle.view.notice.as_deref(),
        Some("answer now works while a turn runs")
    );
    let mut app = App::new(agents());
    start_turn(&mut app);
    presenting(&mut app);
    assert!(app.on_key(ctrl_g()).is_empty());
    assert_eq!(
        app.view.notice.as_deref(),
        Some("voting is done: the final answer is being presented")
    );
}

#[test]
fn the_status_bar_offers_answer_now_only_while_agents_refine() {
    let mut app = App::new(agents());
    assert!(!status_bar(&app).contains(ANSWER_NOW_HINT));
    start_turn(&mut app);
    let typing = status_bar(&app);
    assert!(typing.contains(ANSWER_NOW_HINT), "{typing}");
    app.on_key(key(KeyCode::Esc));
    let body = status_bar(&app);
    assert!(body.contains(ANSWER_NOW_HINT), "{body}");
    presenting(&mut app);
    let after = status_bar(&app);
    assert!(!after.contains(ANSWER_NOW_HINT), "{after}");
}

#[test]
fn the_timeline_names_whose_rounds_answer_now_stopped() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_event(&event(
        5,
        None,
        EventMsg::AnswerNow {
            stopped: vec![AgentId::new("c")],
        },
    ));
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('t')));
    let screen = screen_text(&draw(&app.state, &app.view, 160, 48));
    assert!(
        screen.contains("answer now: refinement ended, c stopped; the leader presents"),
        "{screen}"
    );
}
