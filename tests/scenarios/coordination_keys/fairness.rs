//! MassGen's fairness knobs: the lead cap holds a fast agent back until a slow one
//! answers (its round is not started, and a `new_answer` over the cap is refused),
//! `max_midstream_injections_per_round` caps the peers' answers injected into one round,
//! and `defer_peer_updates_until_restart` keeps them for the agent's next round.

use crate::support::{assert_completed, run_once, transcript, transcript_of};
use massgen::protocol::{EnforcementReason, EventMsg};

/// a answers four times, fast; b answers once, slowly.
fn fast_and_slow(orchestrator: &str) -> String {
    format!(
        r#"
agents:
  - id: a
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 100, answers: ["a one", "a two", "a three", "a four"], vote_for: a}}
  - id: b
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 3000, answer: "b one", vote_for: a}}
orchestrator: {{{orchestrator}}}
"#
    )
}

fn position(lines: &[String], wanted: &str) -> usize {
    lines
        .iter()
        .position(|line| line == wanted)
        .unwrap_or_else(|| panic!("no `{wanted}` in {lines:#?}"))
}

#[tokio::test(start_paused = true)]
async fn the_lead_cap_holds_a_fast_agent_back_until_the_slow_one_answers() {
    let (events, _scenario) = run_once(&fast_and_slow(""), "q").await;
    let lines = transcript(&events);
    println!("{lines:#?}");
    assert_completed(&events);
}

#[tokio::test(start_paused = true)]
async fn without_fairness_the_fast_agent_answers_at_its_own_pace() {
    let (events, _scenario) = run_once(&fast_and_slow("fairness_enabled: false"), "q").await;
    let lines = transcript(&events);
    println!("{lines:#?}");
}

#[tokio::test(start_paused = true)]
async fn a_new_answer_over_the_lead_cap_is_refused_with_massgens_message() {
    let (events, _scenario) = run_once(&fast_and_slow("disable_injection: true"), "q").await;
    let lines = transcript(&events);
    println!("{lines:#?}");
}

const FOUR_AGENTS: &str = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Answer from a", vote_for: a}
  - id: b
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 150, answer: "Answer from b", vote_for: a}
  - id: c
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 60
      answer: "Answer from c"
      vote_for: a
      tool_calls: [{name: lookup, arguments: {q: "x"}}]
      tool_call_rounds: 12
  - id: d
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 160, answer: "Answer from d", vote_for: a}
"#;

#[tokio::test(start_paused = true)]
async fn injection_cap_probe() {
    for extra in ["", "orchestrator: {max_midstream_injections_per_round: 1}\n", "orchestrator: {fairness_enabled: false}\n", "orchestrator: {defer_peer_updates_until_restart: true}\n"] {
        let yaml = format!("{FOUR_AGENTS}{extra}");
        let (events, _scenario) = run_once(&yaml, "q").await;
        println!("=== {extra}\n{:#?}", transcript(&events));
    }
}
