//! How running agents learn of peers' answers (a restart the first time, then MassGen's
//! mid-stream injection into a tool result) and how round time limits end a round: the
//! wrap-up notice, then every tool refused, then the agent dropped after ten refusals.
//! All on tokio's paused clock.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{outcome, run_once, transcript_of};
use massgen::backend::Message;
use massgen::protocol::{EventMsg, RoundTimeStage, TurnOutcome};

const INJECTION_YAML: &str = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Answer from a", vote_for: a}
  - id: b
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 350, answer: "Answer from b", vote_for: a}
  - id: c
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 120
      answer: "Answer from c"
      vote_for: a
      tool_calls: [{name: lookup, arguments: {q: "x"}}]
      tool_call_rounds: 6
"#;

#[tokio::test(start_paused = true)]
async fn the_first_update_restarts_an_agent_and_later_ones_are_injected_into_a_tool_result() {
    let (events, _scenario) = run_once(INJECTION_YAML, "q").await;
    let c = transcript_of(&events, "c");
    assert_eq!(
        c.first().map(String::as_str),
        Some("c round 1 sees []"),
        "{c:#?}"
    );
    assert_eq!(
        c.get(1).map(String::as_str),
        Some("c round 2 sees [agent1.1]"),
        "a's answer restarts c the first time: {c:#?}"
    );
    assert!(
        c.iter().any(|line| line == "c update injected [agent2.1]"),
        "b's answer reaches c without a restart: {c:#?}"
    );
    let round_two_and_on: Vec<&String> = c.iter().filter(|line| line.contains(" round ")).collect();
    assert!(
        !round_two_and_on
            .iter()
            .any(|line| line.as_str() == "c round 3 sees [agent1.1,agent2.1]"),
        "no restart for b's answer: {c:#?}"
    );
    assert_eq!(outcome(&events), TurnOutcome::Completed);
}

#[tokio::test(start_paused = true)]
async fn the_injected_block_names_the_update_and_cuts_long_answers() {
    let long_b = format!("Answer from b {}", "x".repeat(900));
    let yaml = INJECTION_YAML.replace("\"Answer from b\"", &format!("\"{long_b}\""));
    let (_events, scenario) = run_once(&yaml, "q").await;
    let requests = scenario.requests_of("c");
    let injected: Vec<String> = requests
        .iter()
        .flat_map(|request| request.messages.iter())
        .filter_map(|message| match message {
            Message::Tool { content, .. } if content.contains("NEW ANSWER RECEIVED") => {
                Some(content.clone())
            }
            _ => None,
        })
        .collect();
    let block = injected.first().expect("an injected tool result");
    assert!(
        block.contains("[UPDATE: agent2 submitted new answer(s)]"),
        "{block}"
    );
    assert!(block.contains("[agent2]"), "{block}");
    assert!(block.contains("REQUIRED ACTION"), "{block}");
    assert!(
        block.contains(&format!("{}...", &long_b[..500])) && !block.contains(&long_b),
        "the answer is cut to 500 characters: {block}"
    );
}

#[tokio::test(start_paused = true)]
async fn disable_injection_keeps_agents_working_alone() {
    let yaml = format!("{INJECTION_YAML}orchestrator: {{disable_injection: true}}\n");
    let (events, _scenario) = run_once(&yaml, "q").await;
    let c = transcript_of(&events, "c");
    assert!(
        !c.iter().any(|line| line.contains("update injected")),
        "{c:#?}"
    );
    assert_eq!(
        c.get(1).map(String::as_str),
        Some("c answers agent3.1"),
        "c is neither restarted nor told: {c:#?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_vote_only_agent_restarts_instead_of_taking_an_injection() {
    // c has used its one answer, so each later round it may only vote; it works with tools
    // before voting, and b's later answer must restart it (its vote choices change).
    let yaml = r#"
orchestrator: {max_new_answers_per_agent: 1}
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Answer from a", vote_for: a}
  - id: b
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 900, answer: "Answer from b", vote_for: a}
  - id: c
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 50
      answer: "Answer from c"
      vote_for: a
      tool_calls: [{name: lookup, arguments: {q: "x"}}]
      tool_call_rounds: 8
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    let c = transcript_of(&events, "c");
    assert!(
        !c.iter().any(|line| line.contains("update injected")),
        "{c:#?}"
    );
    assert!(
        c.iter()
            .any(|line| line.ends_with("vote-only") && line.contains("agent2.1")),
        "b's answer restarts the vote-only c: {c:#?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_round_past_its_time_limit_is_told_to_wrap_up_then_blocked_then_ended() {
    // c calls a tool every 20 s and never answers. Its round has 60 s, then 30 s of grace
    // after the notice; ten refused calls later it is dropped, and a's answer wins.
    let yaml = r#"
timeout_settings:
  initial_round_timeout_seconds: 60
  subsequent_round_timeout_seconds: 60
  round_timeout_grace_seconds: 30
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Answer from a", vote_for: a}
  - id: c
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 20000
      answer: "Answer from c"
      vote_for: a
      tool_calls: [{name: lookup, arguments: {q: "x"}}]
      tool_call_rounds: 1000
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let c = transcript_of(&events, "c");
    let wrap_up = c
        .iter()
        .position(|line| line == "c round time limit WrapUp")
        .unwrap_or_else(|| panic!("{c:#?}"));
    let blocked = c
        .iter()
        .position(|line| line == "c round time limit Blocked")
        .unwrap_or_else(|| panic!("{c:#?}"));
    let killed = c
        .iter()
        .position(|line| line == "c killed")
        .unwrap_or_else(|| panic!("{c:#?}"));
    assert!(wrap_up < blocked && blocked < killed, "{c:#?}");

    let blocked_calls = events
        .iter()
        .filter(|event| {
            event
                .agent
                .as_ref()
                .is_some_and(|agent| agent.as_str() == "c")
                && matches!(event.msg, EventMsg::ToolBlocked { .. })
        })
        .count();
    assert_eq!(blocked_calls, 10, "ten refusals end the round");
    let reason = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::AgentKilled { reason } => Some(reason.clone()),
            _ => None,
        })
        .unwrap();
    assert!(reason.contains("round time limit"), "{reason}");

    let stages: Vec<RoundTimeStage> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::RoundTimeLimitReached { stage, .. } => Some(*stage),
            _ => None,
        })
        .collect();
    assert_eq!(stages, [RoundTimeStage::WrapUp, RoundTimeStage::Blocked]);

    let requests = scenario.requests_of("c");
    let saw_notice = requests.iter().flat_map(|request| request.messages.iter()).any(|message| {
        matches!(message, Message::Tool { content, .. } if content.contains("PLEASE WRAP UP"))
    });
    assert!(saw_notice, "the notice reached c in a tool result");
    assert_eq!(outcome(&events), TurnOutcome::Completed);
}

/// `a` answers at once, `b` after `b_ms`; `c` calls a tool every 2 s, `tool_rounds` times,
/// so it is still working when `b` answers. The rounds' limits are the first round's, the
/// later rounds' and the grace, in seconds.
fn late_update_yaml(b_ms: u64, tool_rounds: u32, [first, later, grace]: [u64; 3]) -> String {
    format!(
        r#"
timeout_settings:
  initial_round_timeout_seconds: {first}
  subsequent_round_timeout_seconds: {later}
  round_timeout_grace_seconds: {grace}
agents:
  - id: a
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Answer from a", vote_for: a}}
  - id: b
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: {b_ms}, answer: "Answer from b", vote_for: a}}
  - id: c
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 2000
      answer: "Answer from c"
      vote_for: a
      tool_calls: [{{name: lookup, arguments: {{q: "x"}}}}]
      tool_call_rounds: {tool_rounds}
"#
    )
}

#[tokio::test(start_paused = true)]
async fn an_update_near_the_round_limit_restarts_the_agent_instead_of_being_injected() {
    // c's second round began at about 0.1 s with 40 s to go. b answers at 15 s: 25 s are
    // left, less than the 30 s grace, so c restarts with a full round rather than being
    // told mid-round.
    let near = late_update_yaml(15_000, 20, [40, 40, 30]);
    let (events, _scenario) = run_once(&near, "q").await;
    let c = transcript_of(&events, "c");
    assert!(
        !c.iter().any(|line| line.contains("update injected")),
        "{c:#?}"
    );
    assert!(
        c.iter()
            .any(|line| line.starts_with("c round 3 sees") && line.contains("agent2.1")),
        "b's answer restarts c: {c:#?}"
    );

    // The same update with a 5 s grace comes while enough time is left: it is injected.
    let far = late_update_yaml(15_000, 20, [40, 40, 5]);
    let (events, _scenario) = run_once(&far, "q").await;
    let c = transcript_of(&events, "c");
    assert!(
        c.iter().any(|line| line == "c update injected [agent2.1]"),
        "{c:#?}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_first_round_and_later_rounds_have_their_own_time_limits() {
    let yaml = late_update_yaml(600_000, 100, [30, 90, 10]);
    let (events, _scenario) = run_once(&yaml, "q").await;
    let c_events = || {
        events.iter().filter(|event| {
            event
                .agent
                .as_ref()
                .is_some_and(|agent| agent.as_str() == "c")
        })
    };
    let limits: Vec<(u32, u64)> = c_events()
        .filter_map(|event| match &event.msg {
            EventMsg::RoundStarted {
                round, time_limit, ..
            } => Some((*round, time_limit.expect("every round has a limit").soft_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(limits.first(), Some(&(1, 30_000)), "{limits:?}");
    assert!(
        limits.len() > 1 && limits[1..].iter().all(|(_, soft)| *soft == 90_000),
        "{limits:?}"
    );
    let wrap_up_at = c_events()
        .find_map(|event| match &event.msg {
            EventMsg::RoundTimeLimitReached {
                stage: RoundTimeStage::WrapUp,
                elapsed_secs,
            } => Some(*elapsed_secs),
            _ => None,
        })
        .expect("c's second round outlives its limit");
    assert!(
        (90..100).contains(&wrap_up_at),
        "told at {wrap_up_at} s, the later rounds' limit is 90 s"
    );
}
