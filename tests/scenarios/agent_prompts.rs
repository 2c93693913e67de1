//! What one agent's coordination prompt holds when the config sets `voting_sensitivity` or
//! `persona` for that agent: whole turns with scripted agents, reading the requests each
//! agent's model received.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::run_once;

/// massgen's wording per voting mode (src/orchestrator/prompts).
const LENIENT: &str = "If the best current answer already addresses the original message well";
const STRICT: &str = "hold the answers to a reference standard";

#[tokio::test(start_paused = true)]
async fn an_agents_own_voting_sensitivity_and_persona_reach_its_prompt_only() {
    // The orchestrator's checklist_gated (a MassGen 0.1.9x mode) runs as strict; agent `a`
    // overrides it with lenient and has a persona, agent `b` has neither.
    let yaml = r#"
agents:
  - id: a
    voting_sensitivity: lenient
    persona: "You are a cautious auditor."
    system_message: "Be brief."
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: "A."}
  - id: b
    system_message: "Be thorough."
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 50, answer: "B.", vote_for: a}
orchestrator:
  voting_sensitivity: checklist_gated
"#;
    let (_events, scenario) = run_once(yaml, "q").await;
    let a = scenario.requests_of("a");
    let b = scenario.requests_of("b");
    let a_first = a[0].messages[0].content();
    let b_first = b[0].messages[0].content();

    assert!(
        a_first.contains(LENIENT) && !a_first.contains(STRICT),
        "{a_first}"
    );
    assert!(
        b_first.contains(STRICT) && !b_first.contains(LENIENT),
        "{b_first}"
    );

    assert!(
        a_first.contains(
            "<agent_identity priority=\"critical\">\nYou are a cautious auditor.\n\nBe brief.\n"
        ),
        "{a_first}"
    );
    assert!(
        b_first.contains("<agent_identity priority=\"critical\">\nBe thorough.\n"),
        "{b_first}"
    );
    assert!(!b_first.contains("cautious auditor"), "{b_first}");

    // Once `a` sees `b`'s answer, its persona is a preference to weigh, not a position.
    let a_later = a
        .iter()
        .map(|request| request.messages[0].content())
        .find(|system| system.contains("You have now seen other agents' answers"))
        .unwrap_or_else(|| panic!("a never saw b's answer: {a:#?}"));
    assert!(
        a_later.contains("You started from this perspective:\nYou are a cautious auditor."),
        "{a_later}"
    );
}
