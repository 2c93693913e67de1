//! The answer a turn chose (the votes', or the user's by override) is the one the answers
//! browser and `/inspect` open on and the only one they crown; the final presentation, which
//! restates it, is not crowned.

use crossterm::event::KeyCode;
use insta::assert_snapshot;

use super::tests::{key, top_modal, type_text};
use super::*;
use crate::protocol::{AgentId, AnswerLabel};
use crate::tui::modal;
use crate::tui::render::tests::{draw, screen_text};
use crate::tui::state::{FinalAnswer, TurnRecord};
use crate::tui::test_support::demo_turns;
use crate::tui::view::ModalKind;

const FIRST: &str = "First question?";
const SECOND: &str = "Second question?";

fn label(text: &str) -> AnswerLabel {
    serde_json::from_value(serde_json::json!(text)).unwrap()
}

/// The app after the demo's turns on `questions`, a frame of `width` × `height` drawn.
async fn after(questions: &[&str], width: u16, height: u16) -> App {
    let mut app = App::new(Vec::new());
    for event in demo_turns(questions).await {
        app.on_event(&event);
    }
    draw(&app.state, &app.view, width, height);
    app
}

fn command(app: &mut App, text: &str) {
    type_text(app, text);
    app.on_key(key(KeyCode::Enter));
}

/// The modal's rows of a drawn screen, frame excluded: the first row inside it first.
fn modal_rows(app: &App, width: u16, height: u16) -> Vec<String> {
    let backend = draw(&app.state, &app.view, width, height);
    let area = app.view.hits.borrow().modal.unwrap();
    let buffer = backend.buffer();
    (area.y + 1..area.bottom() - 1)
        .map(|y| {
            (area.x + 1..area.right() - 1)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn the_answers_browser_opens_on_the_voted_answer_not_the_presentation() {
    let mut app = after(&[FIRST], 80, 24).await;
    // The demo's votes went to scholar's second answer; it then presented agent2.final.
    let voted = modal::answer_position(&app.state, 1, &label("agent2.2")).unwrap();
    let presented = modal::answer_position(&app.state, 1, &label("agent2.final")).unwrap();
    assert_ne!(voted, presented);
    command(&mut app, "/answers");
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::Answers { selected: voted })
    );
    let screen = screen_text(&draw(&app.state, &app.view, 160, 48));
    assert_eq!(screen.matches("agent2.2 🏆").count(), 1, "{screen}");
    assert!(!screen.contains("final 🏆"), "{screen}");
    assert_snapshot!(
        "answers_opened_on_the_chosen_80x24",
        draw(&app.state, &app.view, 80, 24)
    );
}

#[tokio::test(start_paused = true)]
async fn inspect_opens_on_the_chosen_answer_and_crowns_only_it() {
    let mut app = after(&[FIRST, SECOND], 80, 24).await;
    command(&mut app, "/inspect");
    assert_eq!(top_modal(&app), Some(ModalKind::Turns { selected: 1 }));
    assert!(
        app.view.modals.stack[0].scroll > 0,
        "scrolled down to it at 80×24"
    );
    let rows = modal_rows(&app, 80, 24);
    assert!(
        rows[0].starts_with("scholar · agent2.2 🏆"),
        "the chosen answer on top: {rows:#?}"
    );
    let all = modal::inspect_scroll(
        &app.state,
        &app.theme,
        ratatui::layout::Rect::new(0, 0, 80, 24),
        1,
    );
    assert_eq!(app.view.modals.stack[0].scroll, all);
    assert_snapshot!(
        "inspect_opened_on_the_chosen_80x24",
        draw(&app.state, &app.view, 80, 24)
    );
    // ← : the first turn, opened on its own chosen answer.
    app.on_key(key(KeyCode::Left));
    assert_eq!(top_modal(&app), Some(ModalKind::Turns { selected: 0 }));
    let rows = modal_rows(&app, 80, 24);
    assert!(rows[0].starts_with("scholar · agent2.2 🏆"), "{rows:#?}");
    // Every 🏆 of the detail, read from its top: one, on the chosen answer.
    app.view.modals.stack[0].scroll = 0;
    let mut text = String::new();
    for _ in 0..40 {
        text.push_str(&modal_rows(&app, 80, 24).join("\n"));
        app.view.modals.stack[0].scroll += 18;
    }
    let detail: Vec<&str> = text.lines().filter(|row| row.contains('🏆')).collect();
    assert!(
        detail
            .iter()
            .all(|row| row.contains("scholar · agent2.2 🏆")),
        "{detail:#?}"
    );
}

#[tokio::test(start_paused = true)]
async fn on_a_tall_screen_inspect_opens_at_the_top_with_the_chosen_answer_in_view() {
    let mut app = after(&[FIRST, SECOND], 160, 48).await;
    command(&mut app, "/inspect");
    assert_eq!(app.view.modals.stack[0].scroll, 0);
    let rows = modal_rows(&app, 160, 48);
    assert!(rows[0].starts_with("← → choose a turn"), "{rows:#?}");
    assert!(
        rows.iter()
            .any(|row| row.starts_with("scholar · agent2.2 🏆")),
        "{rows:#?}"
    );
}

#[test]
fn an_override_is_the_chosen_answer_else_the_winners_newest() {
    let part = |id: &str, labels: &[&str]| crate::tui::state::AgentTurn {
        id: AgentId::new(id),
        answers: labels
            .iter()
            .map(|text| (label(text), String::new()))
            .collect(),
        votes: Vec::new(),
        spend: Default::default(),
        persona: None,
    };
    let mut record = TurnRecord {
        turn: 1,
        question: "q".into(),
        outcome: crate::protocol::TurnOutcome::Completed,
        winner: Some(AgentId::new("b")),
        duration_ms: 0,
        spend: Default::default(),
        agents: vec![
            part("a", &["agent1.1"]),
            part("b", &["agent2.1", "agent2.2"]),
        ],
        final_answer: Some(FinalAnswer {
            agent: AgentId::new("b"),
            label: label("agent2.final"),
            content: String::new(),
        }),
    };
    let b = AgentId::new("b");
    assert_eq!(record.chosen_answer(), Some((&b, &label("agent2.2"))));
    record.final_answer = Some(FinalAnswer {
        agent: AgentId::new("a"),
        label: label("agent1.1"),
        content: String::new(),
    });
    record.winner = Some(AgentId::new("a"));
    let a = AgentId::new("a");
    assert_eq!(record.chosen_answer(), Some((&a, &label("agent1.1"))));
    record.final_answer = None;
    record.winner = None;
    assert_eq!(record.chosen_answer(), None, "no winner, no choice");
}
