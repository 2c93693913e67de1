//! `final_answer_strategy`: `winner_reuse` ends on the winner's answer without a
//! presentation call, `winner_present` has the winner present, `synthesize` has the
//! presenter merge every answer; and MassGen's ensemble pattern end to end.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::coordination_keys::common::count;
use crate::support::{Scenario, assert_completed, final_answer, run_once, transcript, winner};
use massgen::backend::ChatRequest;
use massgen::protocol::{Event, EventMsg, FinalAnswerStrategy};

/// Three agents, one answer each; every vote goes to `b`, the presenter's text is fixed.
fn three_agents(orchestrator: &str) -> String {
    let agent = |id: &str, first_token_ms: u32| {
        format!(
            "  - {{id: {id}, backend: {{type: scripted, tokens_per_second: 0, first_token_ms: \
             {first_token_ms}, answer: \"answer of {id}\", final_answer: \"{id} presents\", \
             vote_for: b}}}}\n"
        )
    };
    format!(
        "agents:\n{}{}{}orchestrator:\n  max_new_answers_per_agent: 1\n{orchestrator}",
        agent("a", 10),
        agent("b", 300),
        agent("c", 600)
    )
}

/// The strategy the turn's `FinalPresentationStarted` names.
fn strategy(events: &[Event]) -> Option<FinalAnswerStrategy> {
    events.iter().find_map(|event| match &event.msg {
        EventMsg::FinalPresentationStarted { strategy, .. } => Some(*strategy),
        _ => None,
    })
}

/// `agent`'s presentation requests: the ones offering no `vote` tool.
fn presentations(scenario: &Scenario, agent: &str) -> Vec<ChatRequest> {
    scenario
        .requests_of(agent)
        .into_iter()
        .filter(|request| !request.tools.iter().any(|tool| tool.name == "vote"))
        .collect()
}

fn user_text(request: &ChatRequest) -> String {
    request
        .messages
        .iter()
        .map(|message| message.content().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn votes(events: &[Event]) -> usize {
    count(events, |msg| matches!(msg, EventMsg::VoteCast { .. }))
}

#[tokio::test(start_paused = true)]
async fn winner_reuse_ends_on_the_winners_answer_without_a_presentation_call() {
    let (events, scenario) = run_once(
        &three_agents("  final_answer_strategy: winner_reuse\n"),
        "q",
    )
    .await;
    assert_completed(&events);
    assert_eq!(winner(&events).as_deref(), Some("b"));
    assert_eq!(
        final_answer(&events),
        Some(("answer of b".to_string(), false))
    );
    assert!(presentations(&scenario, "b").is_empty());
    assert_eq!(strategy(&events), Some(FinalAnswerStrategy::WinnerReuse));
}

#[tokio::test(start_paused = true)]
async fn winner_present_is_the_default_and_overrides_skip_final_presentation() {
    for orchestrator in [
        "",
        "  final_answer_strategy: winner_present\n",
        "  skip_final_presentation: true\n  final_answer_strategy: winner_present\n",
    ] {
        let (events, scenario) = run_once(&three_agents(orchestrator), "q").await;
        assert_completed(&events);
        assert_eq!(
            final_answer(&events).map(|answer| answer.0).as_deref(),
            Some("b presents"),
            "{orchestrator}"
        );
        let presented = presentations(&scenario, "b");
        assert_eq!(presented.len(), 1, "{orchestrator}");
        assert!(user_text(&presented[0]).contains("building on the best of the answers above"));
        assert_eq!(strategy(&events), Some(FinalAnswerStrategy::WinnerPresent));
    }
}

#[tokio::test(start_paused = true)]
async fn synthesize_gives_the_presenter_every_answer_and_ends_on_its_synthesis() {
    let (events, scenario) =
        run_once(&three_agents("  final_answer_strategy: synthesize\n"), "q").await;
    assert_completed(&events);
    // One answer each and no deferred vote: MassGen synthesizes as soon as all answered.
    assert_eq!(votes(&events), 0, "{:#?}", transcript(&events));
    assert_eq!(winner(&events).as_deref(), Some("a"));
    let presented = presentations(&scenario, "a");
    assert_eq!(presented.len(), 1);
    let request = user_text(&presented[0]);
    for answer in ["answer of a", "answer of b", "answer of c"] {
        assert!(request.contains(answer), "{answer} in {request}");
    }
    assert!(request.contains("No voting round was run"), "{request}");
    assert!(request.contains("Synthesize the strongest relevant parts"));
    assert!(!request.contains("YOUR ANSWER"));
    assert_eq!(
        final_answer(&events),
        Some(("a presents".to_string(), false))
    );
    assert_eq!(strategy(&events), Some(FinalAnswerStrategy::Synthesize));
}

#[tokio::test(start_paused = true)]
async fn the_ensemble_pattern_answers_once_each_votes_then_the_winner_synthesizes() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/scripted/ensemble_synthesize.yaml"
    );
    let yaml = std::fs::read_to_string(path).unwrap();
    let (events, scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    let lines = transcript(&events);
    let answers = count(&events, |msg| {
        matches!(msg, EventMsg::AnswerSubmitted { .. })
    });
    assert_eq!(answers, 3, "{lines:#?}");
    assert_eq!(votes(&events), 3, "{lines:#?}");
    let last_answer = lines
        .iter()
        .rposition(|line| line.contains(" answers "))
        .unwrap();
    let first_vote = lines
        .iter()
        .position(|line| line.contains(" votes "))
        .unwrap();
    assert!(
        last_answer < first_vote,
        "votes wait for every answer: {lines:#?}"
    );
    let winner = winner(&events).unwrap();
    let presented = presentations(&scenario, &winner);
    assert_eq!(presented.len(), 1);
    let request = user_text(&presented[0]);
    for agent in ["analyst", "critic", "pragmatist"] {
        assert!(
            request.contains(&format!("{agent}: \"")),
            "{agent} in {request}"
        );
    }
    assert!(
        request.contains("selected as the best by your peers"),
        "{request}"
    );
    let (text, fallback) = final_answer(&events).unwrap();
    assert!(!fallback);
    assert!(text.starts_with("Synthesis:"), "{text}");
    assert_eq!(strategy(&events), Some(FinalAnswerStrategy::Synthesize));
}
