//! MassGen 0.1.90's position-bias calibration and answer budget: each voter sees the
//! answers in its own rotated order with its own answer last, equal votes go to the first
//! agent in config order, and `max_new_answers_global` caps the team's answers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::coordination_keys::common::count;
use crate::support::{Scenario, assert_completed, run_once, transcript, winner};
use massgen::protocol::{EventMsg, WinnerBasis};

/// Three agents answer once each, then vote once everyone has answered.
fn three_voters(orchestrator: &str) -> String {
    let agent = |id: &str, delay: u32, vote_for: &str| {
        format!(
            "  - {{id: {id}, backend: {{type: scripted, tokens_per_second: 0, first_token_ms: \
             {delay}, answer: \"answer of {id}\", vote_for: {vote_for}}}}}\n"
        )
    };
    format!(
        "agents:\n{}{}{}orchestrator:\n{orchestrator}",
        agent("a", 10, "b"),
        agent("b", 20, "b"),
        agent("c", 30, "b"),
    )
}

/// The anonymous ids in the order `<CURRENT ANSWERS>` lists them, in `agent`'s last
/// coordination request.
fn answer_order_seen(scenario: &Scenario, agent: &str) -> Vec<String> {
    let requests = scenario.requests_of(agent);
    let request = requests
        .iter()
        .rev()
        .find(|request| request.tools.iter().any(|tool| tool.name == "vote"))
        .expect("a coordination request");
    let user = request.messages[1].content();
    let start = user.find("<CURRENT ANSWERS").expect("answers block");
    let end = user
        .find("<END OF CURRENT ANSWERS>")
        .expect("answers block end");
    user[start..end]
        .lines()
        .skip(1)
        .filter_map(|line| {
            let rest = line.strip_prefix('<')?;
            Some(rest[..rest.find('>')?].to_string())
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn each_voter_sees_the_answers_in_its_own_order_with_its_own_last() {
    let yaml =
        three_voters("  max_new_answers_per_agent: 1\n  defer_voting_until_all_answered: true\n");
    let (events, scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    assert_eq!(
        answer_order_seen(&scenario, "a"),
        ["agent2", "agent3", "agent1"]
    );
    assert_eq!(
        answer_order_seen(&scenario, "b"),
        ["agent3", "agent1", "agent2"]
    );
    assert_eq!(
        answer_order_seen(&scenario, "c"),
        ["agent1", "agent2", "agent3"]
    );
    // The round's event keeps listing what was seen in anonymous order.
    let lines = transcript(&events);
    assert!(
        lines.contains(&"a round 2 sees [agent1.1,agent2.1,agent3.1] vote-only".to_string()),
        "{lines:#?}"
    );
    assert_eq!(winner(&events).as_deref(), Some("b"));
}

#[tokio::test(start_paused = true)]
async fn equal_votes_go_to_the_first_agent_in_config_order() {
    // zed comes first in the config though not in the alphabet; each votes for the other.
    let yaml = "agents:\n\
        \x20 - {id: zed, backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: \"from zed\", vote_for: amy}}\n\
        \x20 - {id: amy, backend: {type: scripted, tokens_per_second: 0, first_token_ms: 20, answer: \"from amy\", vote_for: zed}}\n\
        orchestrator:\n  max_new_answers_per_agent: 1\n  defer_voting_until_all_answered: true\n";
    let (events, _scenario) = run_once(yaml, "q").await;
    assert_completed(&events);
    let decided = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::WinnerSelected {
                winner,
                is_tie,
                basis,
                ..
            } => Some((winner.to_string(), *is_tie, *basis)),
            _ => None,
        })
        .expect("a winner");
    assert_eq!(
        decided,
        ("zed".to_string(), true, WinnerBasis::TieBrokenByConfigOrder),
        "{:#?}",
        transcript(&events)
    );
}

#[tokio::test(start_paused = true)]
async fn max_new_answers_global_caps_the_answers_of_all_agents_together() {
    let answers = |events: &[massgen::protocol::Event]| {
        count(events, |msg| {
            matches!(msg, EventMsg::AnswerSubmitted { .. })
        })
    };
    let capped = three_voters("  max_new_answers_global: 2\n");
    let (events, scenario) = run_once(&capped, "q").await;
    assert_completed(&events);
    assert_eq!(answers(&events), 2, "{:#?}", transcript(&events));
    // c, the slowest, never got to answer: its round was vote-only.
    let lines = transcript(&events);
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("c round") && line.ends_with("vote-only")),
        "{lines:#?}"
    );
    assert!(
        !scenario.requests_of("c").is_empty(),
        "c still takes part and votes"
    );

    let (events, _scenario) = run_once(&three_voters(""), "q").await;
    assert_completed(&events);
    assert!(answers(&events) >= 3, "{:#?}", transcript(&events));
}
