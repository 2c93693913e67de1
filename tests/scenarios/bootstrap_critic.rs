//! `criteria_mode: bootstrap_subagent`: once per new set of latest answers a critic (one
//! call to the first agent's model, the scripted model's `critic_reply`) proposes criteria
//! the answers miss; the next round start merges them after the turn's own criteria and
//! announces them with `CriteriaSet` (source bootstrap). A failed critic leaves the
//! criteria as they are, with a warning.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::criteria_events::{announced, scored_ids};
use crate::support::run_once;
use massgen::protocol::{CriteriaSource, Event, EventMsg, TurnOutcome};

const CRITIC_REQUEST: &str = "You are a discriminative critic";

fn warnings(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Warning { message } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

fn outcome(events: &[Event]) -> Option<TurnOutcome> {
    events.iter().find_map(|event| match &event.msg {
        EventMsg::TurnFinished { outcome, .. } => Some(*outcome),
        _ => None,
    })
}

const CRITIC: &str = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["Paris.", "Paris, on the Seine."]
    checklist:
      - {E1: 3, E2: 3, E3: 3}
      - {E1: 9, E2: 9, E3: 9, E4: 9}
    critic_reply:
      - '{"criteria": [{"text": "Names the river", "category": "primary"}]}'
      - 'Gaps: {"criteria": [{"text": "Mentions a landmark", "category": "could"}]}'
orchestrator:
  voting_sensitivity: checklist_gated
  coordination:
    checklist_criteria_inline:
      - {text: "Answers the question", category: primary}
      - {text: "Is one sentence"}
    criteria_mode: bootstrap_subagent
"#;

#[tokio::test(start_paused = true)]
async fn the_critic_judges_each_new_answer_set_once_and_its_criteria_are_scored_next_round() {
    let (events, scenario) = run_once(CRITIC, "Capital of France?").await;
    let set = announced(&events);
    assert_eq!(set.len(), 3, "{set:#?}");
    assert_eq!(set[0].0, CriteriaSource::Inline);
    assert_eq!(
        set[1],
        (
            CriteriaSource::Bootstrap,
            vec![
                "E1 primary Answers the question".to_string(),
                "E2 standard Is one sentence".to_string(),
                "E3 primary Names the river".to_string(),
            ]
        )
    );
    assert_eq!(set[2].0, CriteriaSource::Bootstrap);
    assert_eq!(set[2].1[3], "E4 stretch Mentions a landmark");
    assert_eq!(
        scored_ids(&events),
        [vec!["E1", "E2", "E3"], vec!["E1", "E2", "E3", "E4"]]
    );
    assert!(
        events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::VoteCast { .. }))
    );
    assert!(warnings(&events).is_empty(), "{:?}", warnings(&events));
    // Two answers, two answer sets: three rounds started, but the critic was asked twice,
    // each time about the latest answer and with the criteria it proposed before.
    let critic_requests: Vec<String> = scenario
        .requests_of("solo")
        .iter()
        .map(|request| request.messages[0].content().to_string())
        .filter(|text| text.starts_with(CRITIC_REQUEST))
        .collect();
    assert_eq!(critic_requests.len(), 2, "{critic_requests:#?}");
    assert!(critic_requests[0].contains("# Task\nCapital of France?"));
    assert!(critic_requests[0].contains("## solo\nParis."));
    assert!(!critic_requests[0].contains("already proposed"));
    assert!(critic_requests[1].contains("## solo\nParis, on the Seine."));
    assert!(critic_requests[1].contains("(do not repeat)\n- Names the river"));
}

#[tokio::test(start_paused = true)]
async fn an_unreadable_critic_reply_warns_and_the_turn_goes_on_with_its_criteria() {
    let yaml = CRITIC
        .replace(
            "      - '{\"criteria\": [{\"text\": \"Names the river\", \"category\": \"primary\"}]}'\n",
            "",
        )
        .replace(
            "'Gaps: {\"criteria\": [{\"text\": \"Mentions a landmark\", \"category\": \"could\"}]}'",
            "'I see no gaps.'",
        )
        .replace("{E1: 3, E2: 3, E3: 3}", "{E1: 3, E2: 3}")
        .replace("{E1: 9, E2: 9, E3: 9, E4: 9}", "{E1: 9, E2: 9}");
    let (events, _scenario) = run_once(&yaml, "Capital of France?").await;
    let set = announced(&events);
    assert_eq!(set.len(), 1, "{set:#?}");
    assert_eq!(scored_ids(&events), [vec!["E1", "E2"], vec!["E1", "E2"]]);
    let warned = warnings(&events);
    assert_eq!(warned.len(), 2, "{warned:?}");
    assert!(
        warned[0].contains("the critic proposed no criteria (its reply held no list"),
        "{warned:?}"
    );
    assert_eq!(outcome(&events), Some(TurnOutcome::Completed));
}

#[tokio::test(start_paused = true)]
async fn the_example_config_grows_its_criteria_from_the_critic_offline() {
    let yaml = include_str!("../../configs/scripted/bootstrap_critic.yaml");
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    let set = announced(&events);
    assert_eq!(set.len(), 3, "{set:#?}");
    assert_eq!(set[2].0, CriteriaSource::Bootstrap);
    assert_eq!(set[2].1.len(), 5, "{set:#?}");
    assert_eq!(
        scored_ids(&events),
        [
            vec!["E1", "E2", "E3", "E4"],
            vec!["E1", "E2", "E3", "E4", "E5"]
        ]
    );
    assert!(warnings(&events).is_empty(), "{:?}", warnings(&events));
    assert_eq!(outcome(&events), Some(TurnOutcome::Completed));
}
