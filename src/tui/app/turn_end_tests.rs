//! When a turn ends: the winner's card is focused, the answers browser opens on the winning
//! answer, and input the agents never received is named.

use crossterm::event::KeyCode;

use super::tests::{agents, key, start_turn, top_modal, type_text};
use super::*;
use crate::protocol::{AgentId, EventMsg, TurnOutcome};
use crate::tui::test_support::event;
use crate::tui::view::ModalKind;

#[test]
fn the_winners_card_gets_the_focus_when_the_turn_ends() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    assert_eq!(app.view.cards.focused, 0);
    app.on_event(&event(
        2,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Completed,
            winner: Some(AgentId::new("c")),
            duration_ms: 10,
        },
    ));
    assert_eq!(app.view.cards.focused, 2, "c's card, with the final answer");
}

#[test]
fn the_answers_browser_opens_on_the_winning_answer_and_crowns_only_it() {
    let json = |text: &str| serde_json::json!(text);
    let mut app = App::new(agents());
    start_turn(&mut app);
    let answer = |seq, agent: &str, label: &str| {
        event(
            seq,
            Some(agent),
            EventMsg::AnswerSubmitted {
                label: serde_json::from_value(json(label)).unwrap(),
                anon_id: serde_json::from_value(json(&label[..6])).unwrap(),
                content: format!("answer {label}"),
                votes_reset: None,
            },
        )
    };
    app.on_event(&answer(2, "a", "agent1.1"));
    app.on_event(&answer(3, "a", "agent1.2"));
    app.on_event(&answer(4, "b", "agent2.1"));
    app.on_event(&event(
        5,
        Some("a"),
        EventMsg::WinnerSelected {
            winner: AgentId::new("a"),
            winner_anon: serde_json::from_value(json("agent1")).unwrap(),
            tally: Vec::new(),
            is_tie: false,
            basis: crate::protocol::WinnerBasis::Votes,
        },
    ));
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('a')));
    let Some(ModalKind::Answers { selected }) = top_modal(&app) else {
        panic!("the answers browser is open");
    };
    assert_eq!(selected, 1, "a's latest answer, agent1.2, won");
    let screen = crate::tui::render::tests::screen_text(&crate::tui::render::tests::draw(
        &app.state, &app.view, 160, 48,
    ));
    assert!(screen.contains("agent1.2 🏆"), "{screen}");
    assert!(!screen.contains("agent1.1 🏆"), "superseded: {screen}");
}

#[test]
fn input_the_agents_never_received_is_named_when_the_turn_ends_and_kept() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "hurry up");
    assert!(matches!(
        app.on_key(key(KeyCode::Enter)).as_slice(),
        [Effect::Send(Op::InjectHumanInput { .. })]
    ));
    app.on_event(&event(
        2,
        None,
        EventMsg::HumanInputQueued {
            text: "hurry up".into(),
            targets: Vec::new(),
        },
    ));
    app.on_event(&event(
        3,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Completed,
            winner: None,
            duration_ms: 10,
        },
    ));
    let notice = app.view.notice.clone().unwrap_or_default();
    assert!(
        notice.contains("not delivered") && notice.contains("hurry up"),
        "{notice}"
    );
    assert!(app.state.timeline.iter().any(|entry| matches!(
        &entry.kind,
        crate::tui::state::EntryKind::HumanInput {
            text,
            delivery: crate::tui::state::Delivery::NotDelivered,
        } if text == "hurry up"
    )));
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.input.composer.text(), "hurry up");
}
