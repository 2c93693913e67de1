//! An agent's checklist on its card: set by `ChecklistSubmitted`, replaced by a later one,
//! and gone wherever coordination's gate resets it (the agent's new round, its own answer,
//! a new attempt, a new turn), while a peer's answer leaves it.

use super::tests::{info, started};
use super::*;
use crate::protocol::{AnswerLabel, ChecklistResult, ChecklistVerdict, CriterionScore, EventMsg};
use crate::tui::test_support::event;

fn checklist(verdict: ChecklistVerdict, scores: &[i64]) -> EventMsg {
    EventMsg::ChecklistSubmitted {
        result: ChecklistResult {
            verdict,
            passed: scores.iter().filter(|score| **score >= 6).count() as u32,
            required: 3,
            scores: scores
                .iter()
                .enumerate()
                .map(|(at, score)| CriterionScore {
                    id: format!("E{}", at + 1),
                    score: *score,
                    passed: *score >= 6,
                })
                .collect(),
            best_answer: None,
            explanation: "gap report".into(),
        },
    }
}

fn round(round: u32) -> EventMsg {
    EventMsg::RoundStarted {
        round,
        answers_seen: Vec::new(),
        vote_only: false,
        time_limit: None,
    }
}

fn answer(anon: &str) -> EventMsg {
    let mapping =
        crate::protocol::AnonymousMapping::new([AgentId::new("a"), AgentId::new("b")].iter());
    let anon_id = mapping.anon(&AgentId::new(anon)).cloned().unwrap();
    EventMsg::AnswerSubmitted {
        label: AnswerLabel::answer(&anon_id, 1),
        anon_id,
        content: "an answer".into(),
        votes_reset: None,
    }
}

fn start(state: &mut UiState) {
    state.apply(&started(&[info("a", "agent1"), info("b", "agent2")]));
}

fn latest(state: &UiState) -> Option<(ChecklistVerdict, Vec<i64>)> {
    let result = state.agents[0].checklist.as_ref()?;
    Some((
        result.verdict,
        result.scores.iter().map(|score| score.score).collect(),
    ))
}

/// A turn of `a` and `b`, `a` in round 1 with a checklist that sent it back.
fn turn() -> UiState {
    let mut state = UiState::default();
    start(&mut state);
    for (seq, msg) in [
        (1, round(1)),
        (2, checklist(ChecklistVerdict::NewAnswer, &[8, 4, 5, 8])),
    ] {
        state.apply(&event(seq, Some("a"), msg));
    }
    state
}

#[test]
fn a_checklist_shows_on_its_agents_card_only() {
    let state = turn();
    assert_eq!(
        latest(&state),
        Some((ChecklistVerdict::NewAnswer, vec![8, 4, 5, 8]))
    );
    assert_eq!(state.agents[1].checklist, None);
}

#[test]
fn a_later_checklist_replaces_the_earlier() {
    let mut state = turn();
    state.apply(&event(
        3,
        Some("a"),
        checklist(ChecklistVerdict::Vote, &[9, 9, 8, 8]),
    ));
    assert_eq!(
        latest(&state),
        Some((ChecklistVerdict::Vote, vec![9, 9, 8, 8]))
    );
}

#[test]
fn the_agents_new_round_clears_it() {
    let mut state = turn();
    state.apply(&event(3, Some("a"), round(2)));
    assert_eq!(latest(&state), None);
}

#[test]
fn the_agents_own_answer_clears_it_and_a_peers_answer_does_not() {
    let mut state = turn();
    state.apply(&event(3, Some("b"), answer("b")));
    assert!(
        latest(&state).is_some(),
        "the gate keeps it on a peer's answer"
    );
    state.apply(&event(4, Some("a"), answer("a")));
    assert_eq!(latest(&state), None);
}

#[test]
fn a_new_attempt_clears_it() {
    let mut state = turn();
    state.apply(&event(
        3,
        None,
        EventMsg::OrchestrationRestarted {
            attempt: 2,
            max_attempts: 2,
            reason: "incomplete".into(),
            instructions: String::new(),
            log_dir: None,
        },
    ));
    assert_eq!(latest(&state), None);
}

#[test]
fn a_new_turn_clears_it() {
    let mut state = turn();
    start(&mut state);
    assert_eq!(latest(&state), None);
}
