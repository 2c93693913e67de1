//! The final view: it opens on the final answer when a turn ends, `f` toggles it, `y`
//! copies the answer, the arrows scroll it from its top, and focusing a card leaves it.

use crossterm::event::KeyCode;

use super::tests::{agents, key, start_turn, type_text};
use super::*;
use crate::protocol::{AgentId, AnswerLabel, EventMsg, FinalAnswerStrategy, TurnOutcome};
use crate::tui::test_support::event;
use crate::tui::view::FOLLOW_THE_END;

fn label() -> AnswerLabel {
    serde_json::from_value(serde_json::json!("agent3.final")).unwrap()
}

const ANSWER: &str = "# Paris\n\nThe capital of France is **Paris**.\n- one\n- two\n";

/// A turn that `c` won and presented `ANSWER` in; the turn has not ended.
fn presented(app: &mut App) {
    start_turn(app);
    app.on_event(&event(
        2,
        Some("c"),
        EventMsg::FinalPresentationStarted {
            label: label(),
            strategy: FinalAnswerStrategy::WinnerPresent,
        },
    ));
    app.on_event(&event(
        3,
        Some("c"),
        EventMsg::FinalPresentationDone {
            label: label(),
            content: ANSWER.into(),
            fallback: false,
        },
    ));
}

fn finished(app: &mut App, seq: u64) {
    app.on_event(&event(
        seq,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Completed,
            winner: Some(AgentId::new("c")),
            duration_ms: 10,
        },
    ));
}

#[test]
fn a_finished_turn_shows_its_final_answer_from_the_top_and_the_next_turn_shows_cards() {
    let mut app = App::new(agents());
    presented(&mut app);
    assert!(!app.view.final_view.shown, "not while the turn runs");
    app.view.final_view.scroll = 7;
    finished(&mut app, 4);
    assert!(app.view.final_view.shown);
    assert_eq!(app.view.final_view.scroll, 0);
    assert_eq!(app.view.cards.focused, 2);
    start_turn(&mut app);
    assert!(!app.view.final_view.shown);
}

#[test]
fn a_turn_without_a_final_answer_keeps_the_cards() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    super::tests::finish_turn(&mut app, 2, 10);
    assert!(!app.view.final_view.shown);
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('f')));
    assert!(!app.view.final_view.shown);
    assert!(
        app.view
            .notice
            .as_deref()
            .is_some_and(|notice| notice.contains("no final answer yet")),
        "{:?}",
        app.view.notice
    );
    assert!(app.on_key(key(KeyCode::Char('y'))).is_empty());
}

#[test]
fn f_toggles_the_view_and_focusing_a_card_leaves_it() {
    let mut app = App::new(agents());
    presented(&mut app);
    finished(&mut app, 4);
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('f')));
    assert!(!app.view.final_view.shown);
    app.on_key(key(KeyCode::Char('f')));
    assert!(app.view.final_view.shown);
    app.on_key(key(KeyCode::Char('1')));
    assert!(!app.view.final_view.shown);
    assert_eq!(app.view.cards.focused, 0);
    app.on_key(key(KeyCode::Char('f')));
    app.on_key(key(KeyCode::Tab));
    assert!(!app.view.final_view.shown);
    // `z` from the final view maximizes the card instead.
    app.on_key(key(KeyCode::Char('f')));
    app.on_key(key(KeyCode::Char('z')));
    assert!(!app.view.final_view.shown && app.view.cards.maximized);
}

#[test]
fn y_and_copy_put_the_whole_answer_on_the_clipboard() {
    let mut app = App::new(agents());
    presented(&mut app);
    finished(&mut app, 4);
    app.on_key(key(KeyCode::Esc));
    let effects = app.on_key(key(KeyCode::Char('y')));
    assert!(
        matches!(effects.as_slice(), [Effect::Copy(text)] if text == ANSWER),
        "{effects:?}"
    );
    assert!(
        app.view
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("5 lines"))
    );
    app.on_key(key(KeyCode::Char('i')));
    type_text(&mut app, "/copy");
    let effects = app.on_key(key(KeyCode::Enter));
    assert!(matches!(effects.as_slice(), [Effect::Copy(text)] if text == ANSWER));
}

#[test]
fn slash_final_opens_the_view_after_cards_were_chosen() {
    let mut app = App::new(agents());
    presented(&mut app);
    finished(&mut app, 4);
    app.view.final_view.shown = false;
    type_text(&mut app, "/final");
    app.on_key(key(KeyCode::Enter));
    assert!(app.view.final_view.shown);
}

#[test]
fn arrows_scroll_the_answer_within_what_the_last_frame_allowed() {
    let mut app = App::new(agents());
    presented(&mut app);
    finished(&mut app, 4);
    app.on_key(key(KeyCode::Esc));
    app.view.final_view.scroll_max.set(3);
    app.on_key(key(KeyCode::Down));
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.final_view.scroll, 2);
    app.on_key(key(KeyCode::PageDown));
    let shown_top = |app: &App| {
        app.view
            .final_view
            .scroll
            .min(app.view.final_view.scroll_max.get())
    };
    assert_eq!(shown_top(&app), 3, "never past the end");
    assert_eq!(
        app.view.final_view.scroll, FOLLOW_THE_END,
        "at the end, it follows"
    );
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.final_view.scroll, 2);
    app.on_key(key(KeyCode::Home));
    assert_eq!(app.view.final_view.scroll, 0);
    app.on_key(key(KeyCode::End));
    assert_eq!(shown_top(&app), 3);
    assert_eq!(app.view.cards.scroll, 0, "the cards did not move");
    // The presentation grows: the view stays on its end.
    app.view.final_view.scroll_max.set(9);
    assert_eq!(shown_top(&app), 9);
    app.on_key(key(KeyCode::Up));
    assert_eq!(
        app.view.final_view.scroll, 8,
        "up from the end is one line up"
    );
}
