//! Checklist-gated voting on screen (the example config's turn): each card's latest
//! checklist folded to its width, and the votes view naming the checklist that let each
//! voter vote or sent an agent back.

use super::tests::{both_sizes, draw, modal_view, screen_text, view};
use crate::protocol::EventMsg;
use crate::tui::state::UiState;
use crate::tui::test_support::{fold, scripted_turns};
use crate::tui::view::ModalKind;

const CHECKLIST_GATED: &str = include_str!("../../../configs/scripted/checklist_gated.yaml");

async fn turn() -> Vec<crate::protocol::Event> {
    scripted_turns(CHECKLIST_GATED, &["Plan a launch"]).await
}

/// The turn up to the reviewer's first checklist, which lets it vote; the analyst's, just
/// before, sent it back to improve its answer.
async fn after_both_checklists() -> UiState {
    let events = turn().await;
    let reviewers = events
        .iter()
        .position(|event| {
            matches!(event.msg, EventMsg::ChecklistSubmitted { .. })
                && event
                    .agent
                    .as_ref()
                    .is_some_and(|agent| agent.as_str() == "reviewer")
        })
        .unwrap();
    fold(&events[..=reviewers])
}

#[tokio::test(start_paused = true)]
async fn cards_show_their_latest_checklist_folded_to_fit() {
    let state = after_both_checklists().await;
    let wide = screen_text(&draw(&state, &view(), 160, 48));
    assert!(
        wide.contains("☑ 2/4 E1 8 · E2 4 · E3 5 · E4 8 → new answer"),
        "{wide}"
    );
    assert!(
        wide.contains("☑ 4/4 E1 9 · E2 9 · E3 8 · E4 8 → vote"),
        "{wide}"
    );
    let narrow = screen_text(&draw(&state, &view(), 80, 24));
    assert!(narrow.contains("☑ 2/4 → new answer"), "{narrow}");
    assert!(
        narrow.contains("☑ 4/4 E1 9 · E2 9 · E3 8 · E4 8 → vote"),
        "the shorter one still fits: {narrow}"
    );
    both_sizes("checklist_card", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn the_votes_view_names_who_the_checklist_sent_back() {
    let state = after_both_checklists().await;
    let votes = modal_view(ModalKind::Votes);
    let screen = screen_text(&draw(&state, &votes, 160, 48));
    assert!(screen.contains("Sent back by their checklist:"), "{screen}");
    assert!(
        screen.contains("Criteria (default): E1 E2 E3 E4"),
        "{screen}"
    );
    assert!(
        screen.contains("analyst ☑ 2/4 E1 8 · E2 4 · E3 5 · E4 8 → new answer"),
        "{screen}"
    );
    assert!(
        !screen.contains("reviewer ☑"),
        "cleared to vote, not sent back: {screen}"
    );
    both_sizes("modal_votes_sent_back", &state, &votes);
}

#[tokio::test(start_paused = true)]
async fn the_votes_view_shows_the_checklist_behind_each_vote() {
    let state = fold(&turn().await);
    let votes = modal_view(ModalKind::Votes);
    let screen = screen_text(&draw(&state, &votes, 160, 48));
    for voter in ["analyst → analyst", "reviewer → analyst"] {
        assert!(screen.contains(voter), "{voter}: {screen}");
    }
    // Under each of the two votes, and on each of the two cards behind the view.
    assert_eq!(
        screen
            .matches("☑ 4/4 E1 9 · E2 9 · E3 8 · E4 8 → vote")
            .count(),
        4,
        "{screen}"
    );
    assert!(!screen.contains("Sent back"), "{screen}");
    both_sizes("modal_votes_checklist", &state, &votes);
}
