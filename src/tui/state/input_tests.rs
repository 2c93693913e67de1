//! Input typed during a turn, as the state folds it: queued, delivered to each agent with
//! its next tool result, and marked not delivered when the turn ends before any agent got it.

use super::tests::{info, started};
use super::*;
use crate::protocol::{EventMsg, TurnOutcome};
use crate::tui::test_support::event;

fn queued(seq: u64, text: &str) -> Event {
    event(
        seq,
        None,
        EventMsg::HumanInputQueued {
            text: text.into(),
            targets: Vec::new(),
        },
    )
}

fn delivered(seq: u64, agent: &str, text: &str) -> Event {
    event(
        seq,
        Some(agent),
        EventMsg::HumanInputDelivered { text: text.into() },
    )
}

/// The delivery of every input row in the timeline, in order.
fn rows(state: &UiState) -> Vec<(String, Delivery)> {
    state
        .timeline
        .iter()
        .filter_map(|entry| {
            if let EntryKind::HumanInput { text, delivery } = &entry.kind {
                Some((text.clone(), delivery.clone()))
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn queued_human_input_clears_once_every_active_agent_has_it() {
    let mut state = UiState::default();
    state.apply(&started(&[info("a", "agent1"), info("b", "agent2")]));
    state.apply(&event(
        1,
        None,
        EventMsg::HumanInputQueued {
            text: "focus on cost".into(),
            targets: Vec::new(),
        },
    ));
    assert_eq!(state.queued_input.len(), 1);
    state.apply(&event(
        2,
        Some("a"),
        EventMsg::HumanInputDelivered {
            text: "focus on cost".into(),
        },
    ));
    assert_eq!(state.queued_input.len(), 1);
    state.apply(&event(
        3,
        Some("b"),
        EventMsg::AgentError {
            message: "boom".into(),
        },
    ));
    assert!(
        state.queued_input.is_empty(),
        "an errored agent will never take it"
    );
}

#[test]
fn an_input_row_goes_from_queued_to_delivered_or_not_delivered() {
    let mut state = UiState::default();
    state.apply(&started(&[info("a", "agent1"), info("b", "agent2")]));
    state.apply(&queued(1, "focus on cost"));
    state.apply(&queued(2, "and be brief"));
    assert_eq!(
        rows(&state),
        [
            ("focus on cost".into(), Delivery::Queued),
            ("and be brief".into(), Delivery::Queued)
        ]
    );
    state.apply(&delivered(3, "a", "focus on cost"));
    state.apply(&delivered(4, "a", "focus on cost"));
    assert_eq!(
        rows(&state)[0],
        (
            "focus on cost".into(),
            Delivery::Delivered(vec![AgentId::new("a")])
        ),
        "a delivery repeated for the same agent counts once"
    );
    state.apply(&delivered(5, "b", "focus on cost"));
    assert_eq!(
        rows(&state)[0].1,
        Delivery::Delivered(vec![AgentId::new("a"), AgentId::new("b")])
    );
    assert_eq!(state.queued_input.len(), 1, "only the second waits");
    let entries = state.timeline.len();
    state.apply(&event(
        6,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Completed,
            winner: None,
            duration_ms: 10,
        },
    ));
    assert_eq!(
        rows(&state),
        [
            (
                "focus on cost".into(),
                Delivery::Delivered(vec![AgentId::new("a"), AgentId::new("b")])
            ),
            ("and be brief".into(), Delivery::NotDelivered)
        ]
    );
    assert_eq!(
        state.timeline.len(),
        entries + 1,
        "the turn's end, and no row beside the one that changed"
    );
}

#[test]
fn the_same_text_typed_in_a_later_turn_is_its_own_row() {
    let mut state = UiState::default();
    state.apply(&started(&[info("a", "agent1")]));
    state.apply(&queued(1, "again"));
    state.apply(&delivered(2, "a", "again"));
    state.apply(&Event {
        turn: 2,
        ..started(&[info("a", "agent1")])
    });
    state.apply(&Event {
        turn: 2,
        ..queued(3, "again")
    });
    assert_eq!(
        rows(&state),
        [
            ("again".into(), Delivery::Delivered(vec![AgentId::new("a")])),
            ("again".into(), Delivery::Queued)
        ]
    );
}
