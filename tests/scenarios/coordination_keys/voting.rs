//! The voting and presentation keys: `defer_voting_until_all_answered` holds votes until
//! everyone answered, `skip_voting` settles without a vote, `skip_final_presentation`
//! uses the winner's answer as it stands.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::coordination_keys::common::{count, two_agents};
use crate::support::{Scenario, assert_completed, final_answer, run_once, transcript};
use massgen::protocol::{Event, EventMsg};

#[tokio::test(start_paused = true)]
async fn defer_voting_until_all_answered_holds_the_vote_until_everyone_answered() {
    let position = |lines: &[String], wanted: &str| {
        lines
            .iter()
            .position(|line| line == wanted)
            .unwrap_or_else(|| panic!("{wanted} in {lines:#?}"))
    };
    let deferred = two_agents(
        "",
        "  max_new_answers_per_agent: 1\n  defer_voting_until_all_answered: true",
    );
    let (events, _scenario) = run_once(&deferred, "q").await;
    let lines = transcript(&events);
    assert!(
        position(&lines, "b answers agent2.1") < position(&lines, "a votes a (agent1.1)"),
        "{lines:#?}"
    );

    let eager = two_agents("", "  max_new_answers_per_agent: 1");
    let (events, _scenario) = run_once(&eager, "q").await;
    let lines = transcript(&events);
    assert!(
        position(&lines, "a votes a (agent1.1)") < position(&lines, "b answers agent2.1"),
        "without the key a votes before b answers: {lines:#?}"
    );
}

/// `a` answers at once and may answer only once; `b` answers after 500 ms.
fn fast_and_slow(orchestrator: &str) -> String {
    format!(
        "agents:\n\
         \x20 - {{id: a, backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: \"from a\", vote_for: b}}}}\n\
         \x20 - {{id: b, backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 500, answer: \"from b\", final_answer: \"b presents\", vote_for: b}}}}\n\
         orchestrator:\n  max_new_answers_per_agent: 1\n{orchestrator}"
    )
}

#[tokio::test(start_paused = true)]
async fn defer_voting_until_all_answered_holds_votes_until_everyone_answered() {
    // Lines of a up to b's answer.
    let before_b = |lines: &[String]| -> Vec<String> {
        let b = lines
            .iter()
            .position(|line| line == "b answers agent2.1")
            .unwrap();
        lines[..b]
            .iter()
            .filter(|line| line.starts_with("a "))
            .cloned()
            .collect()
    };
    let yaml = fast_and_slow("  defer_voting_until_all_answered: true\n");
    let (events, _scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    let lines = transcript(&events);
    assert_eq!(
        before_b(&lines),
        ["a round 1 sees []", "a answers agent1.1"],
        "{lines:?}"
    );
    assert!(
        lines.contains(&"a votes b (agent2.1)".to_string()),
        "{lines:?}"
    );

    let (events, _scenario) = run_once(&fast_and_slow(""), "q").await;
    let lines = transcript(&events);
    assert!(
        before_b(&lines)
            .iter()
            .any(|line| line.starts_with("a votes")),
        "{lines:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn skip_voting_settles_on_the_answers_without_a_vote() {
    let votes = |events: &[Event]| count(events, |msg| matches!(msg, EventMsg::VoteCast { .. }));
    let yaml = fast_and_slow("  skip_voting: true\n");
    let (events, scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    assert_eq!(votes(&events), 0, "{:?}", transcript(&events));
    assert!(crate::support::winner(&events).is_some());
    let offered_vote = scenario
        .requests_of("a")
        .iter()
        .filter(|request| request.tools.iter().any(|tool| tool.name == "vote"))
        .count();
    assert_eq!(offered_vote, 1, "only a's answering round; no vote round");

    let (events, _scenario) = run_once(&fast_and_slow(""), "q").await;
    assert!(votes(&events) >= 2, "{:?}", transcript(&events));
}

#[tokio::test(start_paused = true)]
async fn skip_final_presentation_uses_the_winners_answer_as_it_stands() {
    let yaml = fast_and_slow("  skip_final_presentation: true\n");
    let (events, scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    assert_eq!(crate::support::winner(&events).as_deref(), Some("b"));
    assert_eq!(
        final_answer(&events).map(|answer| answer.0).as_deref(),
        Some("from b")
    );
    let presentations = |scenario: &Scenario| {
        scenario
            .requests_of("b")
            .iter()
            .filter(|request| !request.tools.iter().any(|tool| tool.name == "vote"))
            .count()
    };
    assert_eq!(presentations(&scenario), 0);

    let (events, scenario) = run_once(&fast_and_slow(""), "q").await;
    assert_eq!(
        final_answer(&events).map(|answer| answer.0).as_deref(),
        Some("b presents")
    );
    assert_eq!(presentations(&scenario), 1);
}
