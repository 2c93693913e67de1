//! A card the fairness lead cap holds back: its footer says it waits for its peers with
//! the lead and the cap, the timeline says so, the consensus map counts it as waiting; the
//! release, or its next round, puts it back to work.

use super::tests::{FRANCE, both_sizes, draw, modal_view, screen_text, view};
use crate::protocol::{AgentStatus, EventMsg};
use crate::tui::test_support::{apply_as, demo_until, first_answer};
use crate::tui::view::ModalKind;

const HELD: &str = "held: waiting for peers (lead 2/2)";

#[tokio::test(start_paused = true)]
async fn a_held_card_says_it_waits_for_its_peers_until_released() {
    let mut state = demo_until(FRANCE, first_answer).await;
    let answered = state
        .agents
        .iter()
        .position(|card| card.answers > 0)
        .unwrap();
    apply_as(
        &mut state,
        answered,
        [
            EventMsg::AgentStatus {
                status: AgentStatus::Answered,
            },
            EventMsg::FairnessHold { lead: 2, cap: 2 },
        ],
    );
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(screen.contains(HELD), "the card's footer: {screen}");
    assert!(
        screen.contains(&format!("⏸ {HELD}")),
        "the timeline: {screen}"
    );
    both_sizes("fairness_held_card", &state, &view());
    let map = screen_text(&draw(&state, &modal_view(ModalKind::ConsensusMap), 160, 48));
    assert!(map.contains("held (lead 2/2)"), "{map}");

    apply_as(&mut state, answered, [EventMsg::FairnessReleased]);
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(
        screen.contains("▶ released: peers caught up or voted"),
        "{screen}"
    );
    assert_eq!(state.agents[answered].held, None);
    assert!(screen.contains("─ answered · 359 tok"), "{screen}");
}

#[tokio::test(start_paused = true)]
async fn the_next_round_ends_a_hold_the_release_of_which_was_not_seen() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        0,
        [
            EventMsg::FairnessHold { lead: 1, cap: 1 },
            EventMsg::RoundStarted {
                round: 2,
                answers_seen: Vec::new(),
                vote_only: false,
                time_limit: None,
            },
        ],
    );
    assert_eq!(state.agents[0].held, None);
}
