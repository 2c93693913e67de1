//! The tally pane's counts: coordination's standing tally when the events carry it, the
//! votes counted here in logs from before they did; resets and dropped voters either way.

use super::*;
use crate::protocol::{AnonymousMapping, Event};
use crate::tui::state::UiState;
use crate::tui::test_support::fold;
use crate::tui::test_votes;

/// Each bar's candidate, votes and lead; how many votes stand; (voter, target) of each.
type Shown = (Vec<(String, u32, bool)>, usize, Vec<(String, String)>);

fn shown(state: &UiState) -> Shown {
    let bars = state.votes.bars();
    let votes = state.votes.votes.iter();
    (
        bars.into_iter()
            .map(|bar| (bar.candidate.to_string(), bar.votes, bar.leader))
            .collect(),
        state.votes.standing_votes(),
        votes
            .map(|(voter, target, _)| (voter.to_string(), target.to_string()))
            .collect(),
    )
}

fn pair(voter: &str, target: &str) -> (String, String) {
    (voter.to_string(), target.to_string())
}

#[test]
fn an_answer_takes_away_only_the_votes_coordination_says_it_reset() {
    let events = test_votes::partial_reset();
    let bars = |counts: [(&str, u32, bool); 3]| -> Vec<(String, u32, bool)> {
        counts
            .into_iter()
            .map(|(candidate, votes, leader)| (candidate.to_string(), votes, leader))
            .collect()
    };
    // c's answer resets a's vote for b; c's own vote for a stands.
    assert_eq!(
        shown(&fold(&events[..6])),
        (
            bars([("a", 1, true), ("b", 0, false), ("c", 0, false)]),
            1,
            vec![pair("c", "a")]
        )
    );
    // b votes for a as well, then is dropped, and its vote with it.
    assert_eq!(shown(&fold(&events[..7])).1, 2);
    assert_eq!(
        shown(&fold(&events)),
        (
            bars([("a", 1, true), ("b", 0, false), ("c", 0, false)]),
            1,
            vec![pair("c", "a")]
        )
    );
}

#[test]
fn the_bars_show_coordinations_count_not_the_votes_seen_here() {
    let (a, b) = (AgentId::new("a"), AgentId::new("b"));
    let mapping = AnonymousMapping::new([&a, &b]);
    let count = |agent: &AgentId, voters: &[&AgentId]| VoteCount {
        agent: agent.clone(),
        anon_id: mapping.anon(agent).cloned().unwrap(),
        votes: u32::try_from(voters.len()).unwrap(),
        voters: voters.iter().map(|voter| (*voter).clone()).collect(),
    };
    let mut tally = VoteTally::default();
    tally.answer(&a, &[a.clone(), b.clone()], Some(&[]));
    tally.answer(&b, &[a.clone(), b.clone()], Some(&[]));
    // Only b's vote arrived here, but coordination counts a's vote for b too.
    let standing = [count(&a, &[]), count(&b, &[&a, &b])];
    tally.vote(&b, &b, "mine", Some(&standing));
    let votes: Vec<u32> = tally.bars().iter().map(|bar| bar.votes).collect();
    assert_eq!(votes, [0, 2]);
    assert_eq!(tally.standing_votes(), 2);
    tally.withdraw(std::slice::from_ref(&a));
    let votes: Vec<u32> = tally.bars().iter().map(|bar| bar.votes).collect();
    assert_eq!(votes, [0, 1]);
}

#[tokio::test(start_paused = true)]
async fn logs_from_before_votes_carried_the_tally_show_the_same_bars() {
    let events: Vec<Event> = test_votes::events().await;
    let no_tally = test_votes::without(&events, &["standing"]);
    let oldest = test_votes::without(&events, &["standing", "votes_reset"]);
    assert_ne!(no_tally, events);
    let mut states = [UiState::default(), UiState::default(), UiState::default()];
    for end in 0..events.len() {
        for (state, log) in states.iter_mut().zip([&events, &no_tally, &oldest]) {
            state.apply(&log[end]);
        }
        let [new, no_tally, oldest] = &states;
        assert_eq!(shown(no_tally), shown(new), "after event {end}");
        assert_eq!(shown(oldest), shown(new), "after event {end}");
        assert_eq!(no_tally.votes.standing, None);
    }
    assert!(states[0].votes.final_tally.is_some());
}
