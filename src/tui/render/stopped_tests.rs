//! Decomposition mode on screen: the subtasks, the criteria and each `stop` in the
//! timeline; a stopped card says "stopped" with its status, the consensus map and the
//! votes view never count a stop as a vote, and a peer's new answer wakes the agent.

use super::tests::{both_sizes, draw, modal_view, screen_text, view};
use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, AnswerLabel, CriteriaSource, EvalCriterion, Event, EventMsg,
    Mode, SubtaskSource,
};
use crate::tui::state::UiState;
use crate::tui::test_support::{event, fold};
use crate::tui::view::ModalKind;

const TEAM: [&str; 3] = ["scout", "scholar", "critic"];

fn roster() -> Vec<AgentInfo> {
    AgentInfo::roster(
        TEAM.iter()
            .map(|id| (AgentId::new(*id), "scripted".into(), "m".into())),
    )
}

/// `agent`'s `count`th answer, resetting the standing stops of `woken`.
fn answer(agent: &AgentInfo, count: usize, content: &str, woken: &[&str]) -> EventMsg {
    EventMsg::AnswerSubmitted {
        label: AnswerLabel::answer(&agent.anon_id, count),
        anon_id: agent.anon_id.clone(),
        content: content.into(),
        votes_reset: Some(woken.iter().map(|id| AgentId::new(*id)).collect()),
    }
}

/// A decomposition turn of three: the subtasks and the criteria are set, every agent
/// answers, then scout stops with its subtask complete and critic stops blocked.
pub(super) fn decomposition_turn() -> Vec<Event> {
    let roster = roster();
    let criterion = |id: &str, text: &str| EvalCriterion {
        id: id.into(),
        category: "standard".into(),
        text: text.into(),
    };
    let mut msgs: Vec<(Option<&str>, EventMsg)> = vec![
        (
            None,
            EventMsg::TurnStarted {
                options: Default::default(),
                question: "Write a guide to Paris".into(),
                mode: Mode::Normal,
                agents: roster.clone(),
                log_dir: None,
            },
        ),
        (
            None,
            EventMsg::SubtasksAssigned {
                subtasks: vec![
                    (AgentId::new("scout"), "Map the districts".into()),
                    (AgentId::new("scholar"), "Write the history".into()),
                    (AgentId::new("critic"), "Check every date".into()),
                ],
                source: SubtaskSource::Decomposer,
            },
        ),
        (
            None,
            EventMsg::CriteriaSet {
                source: CriteriaSource::Inline,
                criteria: vec![
                    criterion("E1", "Covers every district"),
                    criterion("E2", "Dates are right"),
                ],
            },
        ),
    ];
    for (info, content) in roster.iter().zip([
        "Twenty arrondissements, spiralling out from the Louvre.",
        "Paris grew from the Île de la Cité.",
        "The dates need sources I do not have.",
    ]) {
        let id = info.id.as_str();
        let status = AgentStatus::Answered;
        msgs.push((Some(id), answer(info, 1, content, &[])));
        msgs.push((Some(id), EventMsg::AgentStatus { status }));
    }
    for (id, status, summary) in [
        ("scout", "complete", "districts mapped"),
        ("critic", "blocked", "waiting for the history's sources"),
    ] {
        let stop = EventMsg::AgentStopped {
            summary: summary.into(),
            status: status.into(),
        };
        msgs.push((Some(id), stop));
        let status = AgentStatus::Voted;
        msgs.push((Some(id), EventMsg::AgentStatus { status }));
    }
    msgs.into_iter()
        .zip(1..)
        .map(|((agent, msg), seq)| event(seq, agent, msg))
        .collect()
}

fn open(state: &UiState, kind: ModalKind) -> String {
    screen_text(&draw(state, &modal_view(kind), 160, 48))
}

#[test]
fn a_stopped_card_says_stopped_and_the_timeline_lists_the_decomposition() {
    let state = fold(&decomposition_turn());
    assert_eq!(state.agents[0].stopped.as_deref(), Some("complete"));
    assert_eq!(state.agents[1].stopped, None);
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    for shown in [
        "stopped (complete)",
        "stopped (blocked)",
        "■ stopped (complete): districts mapped",
        "◆ subtasks (decomposer): scout: Map the districts",
        "criteria (inline): E1 E2",
    ] {
        assert!(screen.contains(shown), "{shown}: {screen}");
    }
    assert!(!screen.contains("voted"), "a stop is no vote: {screen}");
    both_sizes("stopped_cards", &state, &view());
}

#[test]
fn the_map_and_the_votes_view_count_a_stop_as_no_vote() {
    let state = fold(&decomposition_turn());
    let map = open(&state, ModalKind::ConsensusMap);
    assert!(map.contains("stopped (complete)"), "{map}");
    assert!(map.contains("stopped (blocked)"), "{map}");
    assert!(!map.contains("voted"), "{map}");
    assert!(map.contains("No standing votes."), "{map}");
    assert!(map.contains("done (1): scout"), "{map}");
    assert!(map.contains("waiting (2): scholar, critic"), "{map}");
    both_sizes("stopped_map", &state, &modal_view(ModalKind::ConsensusMap));

    let votes = open(&state, ModalKind::Votes);
    assert!(votes.contains("No standing votes."), "{votes}");
    assert!(
        votes.contains("■ scout stopped (complete): no vote"),
        "{votes}"
    );
    assert!(
        votes.contains("■ critic stopped (blocked): no vote"),
        "{votes}"
    );
    assert!(!votes.contains('→'), "no arrow to anyone: {votes}");

    let table = open(&state, ModalKind::Coordination);
    assert!(table.contains("■ stopped complete"), "{table}");
    assert!(table.contains("■ stopped blocked"), "{table}");
    assert!(table.contains("1 answer, 0 votes"), "{table}");
}

#[test]
fn a_peers_new_answer_wakes_the_stopped_agents_it_names() {
    let mut events = decomposition_turn();
    let scholar = roster().remove(1);
    let seq = events.len() as u64 + 1;
    let second = answer(&scholar, 2, "With sources.", &["scout"]);
    events.push(event(seq, Some("scholar"), second));
    let state = fold(&events);
    assert_eq!(state.agents[0].stopped, None, "scout's stop was reset");
    assert_eq!(state.agents[2].stopped.as_deref(), Some("blocked"));
    let map = open(&state, ModalKind::ConsensusMap);
    assert!(!map.contains("stopped (complete)"), "{map}");
    assert!(map.contains("stopped (blocked)"), "{map}");
}

#[test]
fn the_next_round_ends_a_stop_whose_reset_was_not_seen() {
    let mut events = decomposition_turn();
    let round = EventMsg::RoundStarted {
        round: 2,
        answers_seen: Vec::new(),
        vote_only: false,
        time_limit: None,
    };
    events.push(event(99, Some("scout"), round));
    assert_eq!(fold(&events).agents[0].stopped, None);
}

/// The offline decomposition example, run: its subtasks and every agent's `stop` reach the
/// timeline, and no card reads "voted".
#[tokio::test(start_paused = true)]
async fn the_decomposition_example_shows_stops_never_votes() {
    let yaml = include_str!("../../../configs/scripted/decomposition.yaml");
    let events = crate::tui::test_support::timed_turns(yaml, &["Build a todo app"]).await;
    let state = fold(&events);
    let stops = state
        .timeline
        .iter()
        .filter(|entry| matches!(entry.kind, crate::tui::state::EntryKind::Stopped { .. }))
        .count();
    assert!(stops >= 2, "{:#?}", state.timeline);
    assert!(
        state
            .timeline
            .iter()
            .any(|entry| matches!(entry.kind, crate::tui::state::EntryKind::Subtasks { .. }))
    );
    let stopped: Vec<&str> = state
        .agents
        .iter()
        .filter(|card| card.stopped.is_some())
        .map(|card| card.info.id.as_str())
        .collect();
    assert_eq!(stopped, ["backend_dev", "frontend_dev"]);
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(screen.contains("stopped (complete)"), "{screen}");
    assert!(!screen.contains("voted"), "{screen}");
    // The presenter is chosen by the config, not by votes, and the map says so.
    let map = open(&state, ModalKind::ConsensusMap);
    assert!(
        map.contains("integrator presents: it integrates every subtask"),
        "{map}"
    );
    assert!(!map.contains("wins with 0 votes"), "{map}");
    assert!(screen.contains("integrator presents"), "{screen}");
}
