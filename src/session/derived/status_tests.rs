//! The status tracker through a real demo turn and hand-made events.

use jiff::{SignedDuration, Timestamp};

use super::*;
use crate::protocol::{AgentInfo, AnonId, AnonymousMapping, AnswerLabel, Mode};
use crate::tui::test_support::{demo_turns, event};
use crate::tui::test_votes;

/// The tracker after the demo turn's events up to and including the first `stop` one.
async fn until(stop: fn(&EventMsg) -> bool) -> (StatusTracker, Vec<Event>) {
    let events = demo_turns(&["What is the capital of France?"]).await;
    let at = events.iter().position(|event| stop(&event.msg)).unwrap();
    let mut tracker = StatusTracker::default();
    for event in &events[..=at] {
        tracker.apply(event);
    }
    (tracker, events)
}

fn now() -> Timestamp {
    Timestamp::UNIX_EPOCH
}

#[tokio::test(start_paused = true)]
async fn the_first_answer_leaves_the_turn_in_its_initial_phase() {
    let (tracker, _) = until(|msg| matches!(msg, EventMsg::AnswerSubmitted { .. })).await;
    let status = tracker.to_json(now());
    assert_eq!(status["meta"]["question"], "What is the capital of France?");
    assert_eq!(status["coordination"]["phase"], "initial_answer");
    assert_eq!(status["coordination"]["completion_percentage"], 16);
    assert_eq!(status["coordination"]["is_final_presentation"], false);
    let scout = &status["agents"]["scout"];
    assert_eq!(scout["answer_count"], 1);
    assert_eq!(scout["latest_answer_label"], "agent1.1");
    assert_eq!(scout["vote_cast"], Value::Null);
    assert_eq!(status["agents"]["scholar"]["answer_count"], 0);
    assert!(status["agents"]["scholar"]["last_activity"].is_number());
    assert_eq!(status["results"]["winner"], Value::Null);
}

#[tokio::test(start_paused = true)]
async fn a_vote_counts_until_a_new_answer_clears_it() {
    let (mut tracker, events) = until(|msg| matches!(msg, EventMsg::VoteCast { .. })).await;
    let status = tracker.to_json(now());
    assert_eq!(status["coordination"]["phase"], "enforcement");
    let voter = events
        .iter()
        .find(|event| matches!(event.msg, EventMsg::VoteCast { .. }))
        .and_then(|event| event.agent.clone())
        .unwrap();
    let vote = &status["agents"][voter.as_str()]["vote_cast"];
    let label = vote["voted_for_label"].as_str().unwrap();
    assert_eq!(status["results"]["votes"], json!({label: 1}));
    assert!(vote["voted_for_agent"].is_string());
    assert!(vote["reason_preview"].is_string());

    let answer = event(
        9999,
        Some("critic"),
        EventMsg::AnswerSubmitted {
            label: AnswerLabel::answer(&events_anon(&events, "critic"), 1),
            anon_id: events_anon(&events, "critic"),
            content: "Paris.".into(),
            votes_reset: None,
        },
    );
    tracker.apply(&answer);
    let status = tracker.to_json(now());
    assert_eq!(status["results"]["votes"], json!({}));
    assert_eq!(status["agents"][voter.as_str()]["vote_cast"], Value::Null);
}

fn events_anon(events: &[Event], agent: &str) -> AnonId {
    events
        .iter()
        .find_map(|event| {
            let EventMsg::TurnStarted { agents, .. } = &event.msg else {
                return None;
            };
            agents
                .iter()
                .find(|info| info.id.as_str() == agent)
                .map(|info| info.anon_id.clone())
        })
        .unwrap()
}

#[tokio::test(start_paused = true)]
async fn the_final_state_names_the_winner_and_adds_up_the_costs() {
    let events = demo_turns(&["q"]).await;
    let turn: Vec<Event> = events.into_iter().filter(|event| event.turn == 1).collect();
    let last = turn.last().unwrap().at;
    let status = StatusTracker::from_events(&turn).to_json(last);
    assert_eq!(status["coordination"]["phase"], "presentation");
    assert_eq!(status["coordination"]["completion_percentage"], 100);
    assert_eq!(status["coordination"]["is_final_presentation"], true);
    assert_eq!(status["coordination"]["active_agent"], Value::Null);
    assert_eq!(status["results"]["winner"], "scholar");
    assert_eq!(status["agents"]["scholar"]["status"], "completed");
    let preview = status["results"]["final_answer_preview"].as_str().unwrap();
    assert!(!preview.is_empty() && preview.chars().count() <= 200);
    let input: u64 = turn
        .iter()
        .filter_map(|event| {
            let EventMsg::Usage { usage, .. } = &event.msg else {
                return None;
            };
            Some(usage.input_tokens)
        })
        .sum();
    assert!(input > 0);
    assert_eq!(status["costs"]["total_input_tokens"], input);
    assert_eq!(status["meta"]["last_updated"], unix(last));
}

fn started(agents: &[&str]) -> Event {
    let roster = AgentInfo::roster(
        agents
            .iter()
            .map(|id| (AgentId::new(*id), "scripted".to_string(), "m".to_string())),
    );
    event(
        1,
        None,
        EventMsg::TurnStarted {
            options: Default::default(),
            question: "q".into(),
            mode: Mode::Normal,
            agents: roster,
            log_dir: Some(PathBuf::from(
                "/p/.massgen/massgen_logs/log_20250101_000000_000001/turn_1/attempt_1",
            )),
        },
    )
}

#[test]
fn errors_time_and_the_run_directory_are_reported() {
    let mut tracker = StatusTracker::default();
    tracker.apply(&started(&["a", "b"]));
    tracker.apply(&event(
        2,
        Some("a"),
        EventMsg::AgentStatus {
            status: AgentStatus::Streaming,
        },
    ));
    let mut failed = event(
        3,
        Some("b"),
        EventMsg::AgentError {
            message: "rate limited".into(),
        },
    );
    failed.at = Timestamp::UNIX_EPOCH + SignedDuration::from_secs(3);
    tracker.apply(&failed);
    tracker.apply(&event(
        4,
        Some("b"),
        EventMsg::AgentStatus {
            status: AgentStatus::Error,
        },
    ));
    let status = tracker.to_json(Timestamp::UNIX_EPOCH + SignedDuration::from_millis(4500));
    assert_eq!(status["meta"]["elapsed_seconds"], 4.5);
    assert_eq!(status["meta"]["session_id"], "log_20250101_000000_000001");
    assert_eq!(status["coordination"]["active_agent"], "a");
    assert_eq!(status["agents"]["b"]["status"], "error");
    assert_eq!(
        status["agents"]["b"]["error"],
        json!({"type": "error", "message": "rate limited", "timestamp": 3.0})
    );
    assert_eq!(status["coordination"]["completion_percentage"], 0);
}

#[test]
fn a_long_reason_is_cut_to_a_hundred_characters() {
    let anon = AnonymousMapping::new([&AgentId::new("a")])
        .anon(&AgentId::new("a"))
        .unwrap()
        .clone();
    let mut tracker = StatusTracker::default();
    tracker.apply(&started(&["a"]));
    tracker.apply(&event(
        2,
        Some("a"),
        EventMsg::VoteCast {
            target: AgentId::new("a"),
            target_label: AnswerLabel::answer(&anon, 1),
            target_anon: anon,
            reason: "é".repeat(150),
            standing: None,
        },
    ));
    let status = tracker.to_json(now());
    let reason = status["agents"]["a"]["vote_cast"]["reason_preview"]
        .as_str()
        .unwrap();
    assert_eq!(reason.chars().count(), 100);
}

/// The `results` and `agents` of `status.json` after `events`.
fn votes_shown(events: &[Event]) -> (Value, Value) {
    let status = StatusTracker::from_events(events).to_json(now());
    (status["results"].clone(), status["agents"].clone())
}

#[test]
fn an_answer_takes_away_only_the_votes_coordination_says_it_reset() {
    let events = test_votes::partial_reset();
    // c's answer resets a's vote for b; c's own vote for a stands.
    let (results, agents) = votes_shown(&events[..6]);
    assert_eq!(results["votes"], json!({"agent1.1": 1}));
    assert_eq!(agents["a"]["vote_cast"], Value::Null);
    assert_eq!(agents["c"]["vote_cast"]["voted_for_label"], "agent1.1");
    // b votes for a as well, then is dropped, and its vote with it.
    assert_eq!(votes_shown(&events[..7]).0["votes"], json!({"agent1.1": 2}));
    let (results, agents) = votes_shown(&events);
    assert_eq!(results["votes"], json!({"agent1.1": 1}));
    assert_eq!(agents["b"]["vote_cast"], Value::Null);
    assert_eq!(agents["c"]["vote_cast"]["voted_for_agent"], "a");
}

#[tokio::test(start_paused = true)]
async fn logs_from_before_votes_carried_the_tally_show_the_same_votes() {
    let events = test_votes::events().await;
    let standing = |events: &[Event]| {
        events.iter().any(
            |event| matches!(&event.msg, EventMsg::VoteCast { standing, .. } if standing.is_some()),
        )
    };
    assert!(standing(&events));
    let no_tally = test_votes::without(&events, &["standing"]);
    let oldest = test_votes::without(&events, &["standing", "votes_reset"]);
    assert!(!standing(&no_tally) && !standing(&oldest));
    for end in 1..=events.len() {
        let shown = votes_shown(&events[..end]);
        assert_eq!(votes_shown(&no_tally[..end]), shown, "after event {end}");
        assert_eq!(votes_shown(&oldest[..end]), shown, "after event {end}");
    }
    let (results, _) = votes_shown(&events);
    assert_eq!(results["votes"], json!({"agent1.2": 2}));
}
