//! Tokens and costs of whole scripted turns: every model call reports its usage and timing,
//! a call without provider usage (or cut midway) is estimated and marked so, and
//! `metrics_summary.json` accounts for each round.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{Scenario, attempt_dir, run_once};
use massgen::protocol::{Event, EventMsg, Usage};
use serde_json::Value;

fn usages_of<'a>(events: &'a [Event], agent: &str) -> Vec<&'a EventMsg> {
    events
        .iter()
        .filter(|event| event.agent.as_ref().is_some_and(|id| id.as_str() == agent))
        .map(|event| &event.msg)
        .filter(|msg| matches!(msg, EventMsg::Usage { .. }))
        .collect()
}

fn usage(msg: &EventMsg) -> Usage {
    let EventMsg::Usage { usage, .. } = msg else {
        panic!("not a usage event: {msg:?}");
    };
    *usage
}

/// The turn's `metrics_summary.json`, once the runtime has stopped (derived files are
/// written after `TurnFinished`).
async fn metrics(scenario: Scenario) -> Value {
    let Scenario { handle, dir, .. } = scenario;
    handle.shutdown().await;
    let path = attempt_dir(dir.path(), 1).join("metrics_summary.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[tokio::test(start_paused = true)]
async fn every_call_reports_provider_usage_and_its_timing() {
    let yaml = r#"
agent:
  id: a
  backend: {type: scripted, tokens_per_second: 0, answer: "Forty-two."}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let calls = usages_of(&events, "a");
    assert_eq!(calls.len(), 3, "answer, vote and presentation calls");
    for call in &calls {
        let EventMsg::Usage { usage, timing, .. } = call else {
            unreachable!()
        };
        assert!(!usage.estimated && usage.output_tokens > 0);
        let timing = timing.expect("every call is timed");
        assert!(timing.ttft_ms.is_some(), "each call streamed something");
    }
    let metrics = metrics(scenario).await;
    assert_eq!(metrics["totals"]["token_source"], "api");
    assert_eq!(metrics["api_timing"]["total_calls"], 3);
    assert_eq!(
        metrics["api_timing"]["by_backend"]["scripted"]["total_calls"],
        3
    );
}

#[tokio::test(start_paused = true)]
async fn a_model_that_reports_no_usage_is_estimated_with_a_tokenizer_and_marked() {
    let yaml = r#"
agent:
  id: local
  backend: {type: scripted, tokens_per_second: 0, report_usage: false, answer: "The answer is forty-two, because six times seven."}
"#;
    let (events, scenario) = run_once(yaml, "What is six times seven?").await;
    let calls = usages_of(&events, "local");
    assert_eq!(calls.len(), 3);
    for call in &calls {
        let usage = usage(call);
        assert!(usage.estimated, "marked as an estimate: {usage:?}");
        assert!(usage.input_tokens > 50, "the prompt is counted: {usage:?}");
        assert!(
            usage.output_tokens > 5,
            "the streamed reply is counted: {usage:?}"
        );
    }
    let metrics = metrics(scenario).await;
    assert_eq!(metrics["totals"]["token_source"], "estimate");
    assert_eq!(metrics["agents"]["local"]["token_usage"]["estimated"], true);
    let rounds = metrics["rounds"]["by_round"].as_array().unwrap();
    assert!(
        rounds
            .iter()
            .all(|round| round["token_source"] == "estimate")
    );
}

#[tokio::test(start_paused = true)]
async fn a_stream_cut_midway_is_estimated_from_what_streamed() {
    let yaml = r#"
agents:
  - id: good
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: "Good answer"}
  - id: broken
    backend:
      type: scripted
      tokens_per_second: 0
      text: "Starting to work on a long and careful answer"
      fail: {mode: error, after_tokens: 4, message: "connection reset"}
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    let calls = usages_of(&events, "broken");
    assert_eq!(calls.len(), 1, "the cut call is still accounted for");
    let usage = usage(calls[0]);
    assert!(usage.estimated);
    assert!(
        usage.output_tokens >= 1 && usage.output_tokens < 10,
        "{usage:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn metrics_list_every_round_with_its_type_outcome_and_tokens() {
    let yaml = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: "A's answer"}
  - id: b
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 50, vote_for: a, vote_reason: "clear"}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let metrics = metrics(scenario).await;
    let rounds = metrics["rounds"]["by_round"].as_array().unwrap();
    let described: Vec<String> = rounds
        .iter()
        .map(|round| {
            format!(
                "{} {} {}",
                round["agent_id"].as_str().unwrap(),
                round["round_type"].as_str().unwrap(),
                round["outcome"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        described.first().map(String::as_str),
        Some("a initial_answer answer")
    );
    assert!(
        described.contains(&"b voting vote".to_string()),
        "{described:?}"
    );
    assert_eq!(
        described.last().map(String::as_str),
        Some("a presentation presentation")
    );
    assert_eq!(metrics["rounds"]["total_rounds"], rounds.len());
    let round_tokens: u64 = rounds
        .iter()
        .map(|round| round["output_tokens"].as_u64().unwrap())
        .sum();
    let call_tokens: u64 = ["a", "b"]
        .iter()
        .flat_map(|agent| usages_of(&events, agent))
        .map(|msg| usage(msg).output_tokens)
        .sum();
    assert_eq!(
        round_tokens, call_tokens,
        "every call's tokens land in a round"
    );
    assert_eq!(metrics["rounds"]["by_outcome"]["presentation"], 1);
}

#[tokio::test(start_paused = true)]
async fn the_winners_check_is_a_round_and_each_agent_lists_its_own_rounds() {
    let yaml = r#"
orchestrator:
  coordination: {max_orchestration_restarts: 1}
agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 100
      answer: "Answer from a"
      final_answer: "Final from a"
      vote_for: a
      post_evaluation: [submit]
  - id: b
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 200, answer: "Answer from b", vote_for: a}
"#;
    let (_events, scenario) = run_once(yaml, "q").await;
    let metrics = metrics(scenario).await;
    assert_eq!(metrics["rounds"]["by_outcome"]["post_evaluation"], 1);
    let rounds = metrics["rounds"]["by_round"].as_array().unwrap();
    let check = rounds
        .iter()
        .find(|round| round["round_type"] == "post_evaluation")
        .unwrap_or_else(|| panic!("{rounds:#?}"));
    assert_eq!(
        (check["agent_id"].as_str(), check["outcome"].as_str()),
        (Some("a"), Some("post_evaluation"))
    );
    // MassGen's `round_history` per agent: the same rounds, split by agent, with times in
    // seconds since the epoch and each round's length.
    for agent in ["a", "b"] {
        let history = metrics["agents"][agent]["round_history"]
            .as_array()
            .unwrap();
        let own: Vec<&Value> = rounds
            .iter()
            .filter(|round| round["agent_id"] == agent)
            .collect();
        assert_eq!(history.iter().collect::<Vec<_>>(), own, "{agent}");
        for round in history {
            let (start, end) = (
                round["start_time"].as_f64().unwrap(),
                round["end_time"].as_f64().unwrap(),
            );
            assert!(start > 1.7e9 && end >= start, "{round}");
            let length_ms = (end - start) * 1000.0;
            assert!(
                (round["duration_ms"].as_f64().unwrap() - length_ms).abs() < 1.0,
                "{round}"
            );
        }
    }
    assert_eq!(
        metrics["agents"]["a"]["token_usage"]["estimated_cost"],
        metrics["agents"]["a"]["estimated_cost"]
    );
}
