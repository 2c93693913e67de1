//! `coordination.persona_generator`: before the first round the first agent's model writes
//! each agent a persona, which leads its system message until it sees a peer's answer
//! (then `after_first_answer` drops, softens or keeps it); a failed call leaves stock
//! personas and a notice; `persist_across_turns` reuses the personas on the next turn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use massgen::backend::ChatRequest;
use massgen::protocol::{Event, EventMsg};

use crate::support::{Scenario, assert_completed, run_once};

/// Two agents; `a` writes the personas (it is first) and wins.
fn config(generator: &str, a_extra: &str) -> String {
    format!(
        "agents:\n  - id: a\n    system_message: \"Be brief.\"\n    backend: {{type: scripted, \
         tokens_per_second: 0, first_token_ms: 10, answer: \"A.\", vote_for: a{a_extra}}}\n  \
         - id: b\n    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 50, \
         answer: \"B.\", vote_for: a}}\norchestrator:\n  coordination:\n    persona_generator: \
         {{enabled: true{generator}}}\n"
    )
}

fn is_generator_request(request: &ChatRequest) -> bool {
    request.tools.is_empty()
        && request
            .messages
            .iter()
            .any(|message| message.content().contains("Agent IDs: "))
}

/// The system messages of an agent's coordination rounds, in order.
fn round_systems(scenario: &Scenario, agent: &str) -> Vec<String> {
    scenario
        .requests_of(agent)
        .iter()
        .filter(|request| request.tools.iter().any(|tool| tool.name == "vote"))
        .map(|request| request.messages[0].content().to_string())
        .collect()
}

fn assigned(events: &[Event]) -> Vec<(String, Option<String>, bool)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::PersonaAssigned {
                summary, reused, ..
            } => Some((event.agent.as_ref()?.to_string(), summary.clone(), *reused)),
            _ => None,
        })
        .collect()
}

fn warnings(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Warning { message } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn generated_personas_lead_each_agents_system_message_until_a_peer_answered() {
    let (events, scenario) = run_once(&config("", ""), "Plan a picnic").await;
    assert_completed(&events);
    assert_eq!(
        assigned(&events),
        vec![
            ("a".into(), Some("pragmatic lens".into()), false),
            ("b".into(), Some("meticulous lens".into()), false),
        ]
    );
    // One generator call, by the first agent, before any round; metered like any call.
    let a_requests = scenario.requests_of("a");
    assert!(is_generator_request(&a_requests[0]));
    let generator_prompt = a_requests[0].messages[0].content();
    assert!(
        generator_prompt.contains("## Task\nPlan a picnic"),
        "{generator_prompt}"
    );
    assert!(generator_prompt.contains("different PERSPECTIVE"));
    assert!(generator_prompt.contains("- a: has its own instruction: Be brief."));
    assert_eq!(
        a_requests
            .iter()
            .filter(|r| is_generator_request(r))
            .count(),
        1
    );
    assert!(!scenario.requests_of("b").iter().any(is_generator_request));
    let first_round = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::RoundStarted { .. }))
        .unwrap();
    assert!(
        events[..first_round].iter().any(|event| {
            event
                .agent
                .as_ref()
                .is_some_and(|agent| agent.as_str() == "a")
                && matches!(event.msg, EventMsg::Usage { .. })
        }),
        "the generator call's usage is reported before the first round"
    );

    let a_systems = round_systems(&scenario, "a");
    let b_systems = round_systems(&scenario, "b");
    assert!(
        a_systems[0].contains(
            "<agent_identity priority=\"critical\">\nApproach the whole task as the pragmatic \
             one"
        ) && a_systems[0].contains("complete answer.\n\nBe brief.\n"),
        "{}",
        a_systems[0]
    );
    assert!(
        b_systems[0].contains("as the meticulous one"),
        "{}",
        b_systems[0]
    );
    assert!(!b_systems[0].contains("pragmatic"), "{}", b_systems[0]);
    // after_first_answer: drop (MassGen's default) — gone once a peer's answer is visible.
    let later = b_systems.last().unwrap();
    assert!(
        b_systems.len() > 1 && !later.contains("meticulous"),
        "{later}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_diversity_mode_shapes_the_request_and_soften_keeps_a_preference() {
    let (events, scenario) = run_once(
        &config(
            ", diversity_mode: methodology, after_first_answer: soften",
            "",
        ),
        "Plan a picnic",
    )
    .await;
    assert_completed(&events);
    let generator_prompt = scenario.requests_of("a")[0].messages[0]
        .content()
        .to_string();
    assert!(
        generator_prompt.contains("different WORKING APPROACH"),
        "{generator_prompt}"
    );
    assert!(!generator_prompt.contains("different PERSPECTIVE"));
    let b_systems = round_systems(&scenario, "b");
    let later = b_systems.last().unwrap();
    assert!(
        later.contains(
            "You started from this perspective:\nApproach the whole task as the meticulous one"
        ),
        "{later}"
    );

    let (_, scenario) = run_once(&config(", diversity_mode: implementation", ""), "q").await;
    let generator_prompt = scenario.requests_of("a")[0].messages[0]
        .content()
        .to_string();
    assert!(generator_prompt.contains("different SOLUTION APPROACH"));
}

#[tokio::test(start_paused = true)]
async fn a_failed_generator_call_leaves_stock_personas_and_a_notice() {
    let (events, scenario) = run_once(
        &config(
            "",
            ", fail: {mode: error, times: 1, message: \"provider down\"}",
        ),
        "Plan a picnic",
    )
    .await;
    assert_completed(&events);
    let notices = warnings(&events);
    assert!(
        notices.iter().any(
            |notice| notice.contains("persona generator: the call failed")
                && notice.contains("provider down")
                && notice.contains("the turn goes on")
        ),
        "{notices:?}"
    );
    assert_eq!(
        assigned(&events),
        vec![
            ("a".into(), Some("analytical".into()), false),
            ("b".into(), Some("creative".into()), false),
        ]
    );
    assert!(round_systems(&scenario, "a")[0].contains("Take the problem apart"));

    let (events, _) = run_once(
        &config(", persona_guidelines: x", ", personas: \"no idea\""),
        "q",
    )
    .await;
    assert_completed(&events);
    assert!(
        warnings(&events)
            .iter()
            .any(|notice| notice.contains("its reply held no readable personas")),
        "{:?}",
        warnings(&events)
    );
}

#[tokio::test(start_paused = true)]
async fn persist_across_turns_reuses_the_personas_on_the_next_turn() {
    for persist in [true, false] {
        let generator = format!(", persist_across_turns: {persist}");
        let mut scenario = Scenario::start(&config(&generator, ""));
        let first = scenario.handle.run_turn("Plan a picnic").await;
        let second = scenario.handle.run_turn("Now a dinner").await;
        assert_completed(&second);
        let calls = scenario
            .requests_of("a")
            .iter()
            .filter(|request| is_generator_request(request))
            .count();
        let reused: Vec<bool> = assigned(&second)
            .iter()
            .map(|(_, _, reused)| *reused)
            .collect();
        if persist {
            assert_eq!(calls, 1, "the second turn asks no model");
            assert_eq!(reused, vec![true, true]);
            let summaries = |events: &[Event]| {
                assigned(events)
                    .into_iter()
                    .map(|(agent, summary, _)| (agent, summary))
                    .collect::<Vec<_>>()
            };
            assert_eq!(summaries(&first), summaries(&second));
        } else {
            assert_eq!(calls, 2, "each turn generates its own");
            assert_eq!(reused, vec![false, false]);
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_example_config_gives_every_agent_a_persona() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/scripted/personas.yaml"
    );
    let yaml = std::fs::read_to_string(path).unwrap();
    let (events, scenario) = run_once(&yaml, "Plan a picnic").await;
    assert_completed(&events);
    let agents: Vec<String> = assigned(&events)
        .into_iter()
        .map(|(agent, ..)| agent)
        .collect();
    assert_eq!(agents, ["planner", "critic", "maker"]);
    assert!(warnings(&events).is_empty(), "{:?}", warnings(&events));
    let generator_prompt = scenario.requests_of("planner")[0].messages[0]
        .content()
        .to_string();
    assert!(generator_prompt.contains("different WORKING APPROACH"));
}
