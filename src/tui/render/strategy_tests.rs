//! Council and debate turns on screen: the rankings in the tally pane and the votes view
//! (a council of three, one ballot from the reply's text, one ranker missing), cards saying
//! their stage, the debate thread of two rounds, and the timeline's ranking entries.

use super::tests::{both_sizes, draw, modal_view, screen_text, view};
use crate::tui::state::UiState;
use crate::tui::test_strategy::{council_answered, council_turn, debate_turn};
use crate::tui::test_support::{event, fold};
use crate::tui::view::ModalKind;

fn council_ranking() -> UiState {
    let events: Vec<_> = council_answered()
        .into_iter()
        .enumerate()
        .map(|(seq, (agent, msg))| event(seq as u64 + 1, agent, msg))
        .collect();
    fold(&events)
}

#[test]
fn cards_say_the_stage_their_member_is_in() {
    let state = council_ranking();
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert_eq!(screen.matches("· ranking").count(), 3, "{screen}");
    both_sizes("council_ranking_stage", &state, &view());
}

#[test]
fn the_rankings_replace_the_tallies_in_a_council_turn() {
    let state = fold(&council_turn());
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(screen.contains("Rankings · final"), "{screen}");
    assert!(screen.contains("alpha > gamma · text"), "{screen}");
    assert!(screen.contains("✗ no ranking before"), "{screen}");
    assert!(screen.contains("chairman beta: ranked first"), "{screen}");
    assert!(
        screen.contains("ranked beta > gamma (tool)"),
        "the ballot's timeline entry: {screen}"
    );
    let table = screen_text(&draw(&state, &modal_view(ModalKind::Coordination), 160, 48));
    for cell in ["⚖ ranked", "✗ no ranking"] {
        assert!(
            table.contains(cell),
            "{cell} in the coordination table: {table}"
        );
    }
    both_sizes("council_rankings", &state, &view());
    both_sizes(
        "council_rankings_votes_view",
        &state,
        &modal_view(ModalKind::Votes),
    );
}

#[test]
fn a_vote_turn_keeps_its_tallies() {
    let mut events = council_turn();
    events.truncate(1);
    let mut state = fold(&events);
    state.turn.options.strategy = None;
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(screen.contains("Votes"), "{screen}");
    assert!(!screen.contains("Rankings"), "{screen}");
}

#[test]
fn the_debate_view_threads_each_round_critiques_then_revisions() {
    let state = fold(&debate_turn());
    let screen = screen_text(&draw(&state, &modal_view(ModalKind::Debate), 160, 48));
    for text in [
        "Round 1",
        "Round 2",
        "pro → con",
        "con's answer, revised in round 2.",
    ] {
        assert!(screen.contains(text), "{text}: {screen}");
    }
    both_sizes("debate_thread", &state, &modal_view(ModalKind::Debate));
    let empty = fold(&council_turn());
    let screen = screen_text(&draw(&empty, &modal_view(ModalKind::Debate), 80, 24));
    assert!(screen.contains("No debate in this turn"), "{screen}");
}

#[test]
fn the_status_bar_counts_ballots_not_votes_while_a_council_ranks() {
    let state = council_ranking();
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(screen.contains("ranking: 0 ballots"), "{screen}");
    assert!(!screen.contains("/3 votes"), "{screen}");
}
