//! More MassGen coordination keys set in YAML: the task-plan limit, broadcast limits,
//! timeout and waiting, deferred and skipped voting, the skipped presentation and planning
//! mode's instruction. Each test runs the turn with and without the key, so it fails if
//! the key is ignored. (Task-plan tools and their filesystem mode are in
//! `coordination_keys.rs`.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use crate::support::{Scenario, assert_completed, final_answer, run_once, transcript};
use massgen::protocol::{Event, EventMsg, Mode, TurnOptions};

/// `(tool, ok, output)` of every tool call `agent` finished.
fn tool_ends(events: &[Event], agent: &str) -> Vec<(String, bool, String)> {
    events
        .iter()
        .filter(|event| event.agent.as_ref().is_some_and(|id| id.as_str() == agent))
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd {
                tool, ok, output, ..
            } => Some((tool.clone(), *ok, output.clone())),
            _ => None,
        })
        .collect()
}

fn count(events: &[Event], wanted: impl Fn(&EventMsg) -> bool) -> usize {
    events.iter().filter(|event| wanted(&event.msg)).count()
}

/// One scripted agent `a` (with a workspace when `cwd`) that makes `tool_calls` before
/// answering; `coordination` is the orchestrator's `coordination:` flow mapping.
fn planner(tool_calls: &str, cwd: bool, coordination: &str) -> String {
    let cwd = if cwd { ", cwd: workspace" } else { "" };
    format!(
        "agent:\n  id: a\n  backend: {{type: scripted, tokens_per_second: 0{cwd}, answer: done,\n\
         \x20   tool_calls: {tool_calls}}}\n\
         orchestrator:\n  coordination: {coordination}\n"
    )
}

#[tokio::test(start_paused = true)]
async fn max_tasks_per_plan_refuses_a_longer_plan() {
    let create_three = "[{name: mcp__planning_a__create_task_plan, arguments: {tasks: [{description: One}, {description: Two}, {description: Three}]}}]";
    let yaml = planner(
        create_three,
        false,
        "{enable_agent_task_planning: true, max_tasks_per_plan: 2}",
    );
    let (events, _scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    let ends = tool_ends(&events, "a");
    assert_eq!(ends.len(), 1, "{ends:?}");
    let (_, ok, output) = &ends[0];
    assert!(!ok, "{output}");
    assert!(
        output.contains("3 tasks, more than the limit of 2"),
        "{output}"
    );
    assert_eq!(
        count(&events, |msg| matches!(
            msg,
            EventMsg::TaskPlanChanged { .. }
        )),
        0
    );

    let yaml = planner(create_three, false, "{enable_agent_task_planning: true}");
    let (events, _scenario) = run_once(&yaml, "q").await;
    assert!(tool_ends(&events, "a")[0].1);
}

/// `asker` asks the other agents twice before answering (`ask_others` as its tool calls,
/// twice per round); `helper` answers from its side calls.
fn two_askers(coordination: &str) -> String {
    format!(
        "agents:\n\
         \x20 - id: asker\n    backend: {{type: scripted, tokens_per_second: 0, answer: mine, vote_for: asker,\n\
         \x20     tool_calls: [{{name: ask_others, arguments: {{question: \"Which format?\"}}}}], tool_call_rounds: 2}}\n\
         \x20 - id: helper\n    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 50, answer: theirs, vote_for: asker}}\n\
         orchestrator:\n  coordination: {coordination}\n"
    )
}

#[tokio::test(start_paused = true)]
async fn max_broadcasts_per_agent_refuses_questions_past_the_limit() {
    let asked = |events: &[Event]| {
        events
            .iter()
            .filter(|event| {
                matches!(event.msg, EventMsg::BroadcastAsked { .. })
                    && event
                        .agent
                        .as_ref()
                        .is_some_and(|id| id.as_str() == "asker")
            })
            .count()
    };
    let yaml = two_askers("{broadcast: agents, max_broadcasts_per_agent: 1}");
    let (events, _scenario) = run_once(&yaml, "Write a guide").await;
    assert_completed(&events);
    assert_eq!(asked(&events), 1, "{:?}", transcript(&events));
    let asks: Vec<(bool, String)> = tool_ends(&events, "asker")
        .into_iter()
        .filter(|(tool, ..)| tool == "ask_others")
        .map(|(_, ok, output)| (ok, output))
        .collect();
    assert!(asks[0].0, "{asks:?}");
    assert!(
        !asks[1].0 && asks[1].1.contains("max_broadcasts_per_agent"),
        "{asks:?}"
    );

    let yaml = two_askers("{broadcast: agents}");
    let (events, _scenario) = run_once(&yaml, "Write a guide").await;
    assert_completed(&events);
    assert!(asked(&events) >= 2, "{:?}", transcript(&events));
}

/// `asker` asks the user once before answering; nobody answers.
const ASK_USER: &str = "agents:\n\
  - {id: asker, backend: {type: scripted, tokens_per_second: 0, answer: \"as {reply}\", vote_for: asker, ask: \"Which format?\"}}\n\
  - {id: helper, backend: {type: scripted, tokens_per_second: 0, answer: theirs, vote_for: asker}}\n";

/// The JSON result of the asker's first `ask_others` call.
fn first_ask_result(events: &[Event]) -> serde_json::Value {
    let (_, _, output) = tool_ends(events, "asker")
        .into_iter()
        .find(|(tool, ..)| tool == "ask_others")
        .expect("ask_others ran");
    serde_json::from_str(&output).unwrap()
}

/// A turn of [`ASK_USER`] with someone who could answer (but does not): how long it took
/// on the paused clock, its events, and the scenario.
async fn ask_user(coordination: &str) -> (Duration, Vec<Event>, Scenario) {
    let yaml = format!("{ASK_USER}orchestrator:\n  coordination: {coordination}\n");
    let mut scenario = Scenario::start_with_human(tempfile::tempdir().unwrap(), &yaml);
    let start = tokio::time::Instant::now();
    let events = scenario
        .submit("Write a guide", Mode::Normal, TurnOptions::default())
        .await;
    (start.elapsed(), events, scenario)
}

#[tokio::test(start_paused = true)]
async fn broadcast_timeout_bounds_how_long_a_question_waits() {
    let (elapsed, events, _scenario) = ask_user("{broadcast: human, broadcast_timeout: 5}").await;
    assert_completed(&events);
    assert_eq!(first_ask_result(&events)["status"], "timeout");
    let secs = events.iter().find_map(|event| match event.msg {
        EventMsg::BroadcastAsked { timeout_secs, .. } => Some(timeout_secs),
        _ => None,
    });
    assert_eq!(secs, Some(5));
    assert!(
        elapsed >= Duration::from_secs(5) && elapsed < Duration::from_secs(60),
        "{elapsed:?}"
    );

    let (elapsed, events, _scenario) = ask_user("{broadcast: human}").await;
    assert_eq!(first_ask_result(&events)["status"], "timeout");
    assert!(elapsed >= Duration::from_secs(300), "{elapsed:?}");
}

#[tokio::test(start_paused = true)]
async fn broadcast_wait_by_default_false_returns_at_once_and_offers_polling() {
    let polls = |scenario: &Scenario| {
        scenario.requests_of("asker")[0]
            .tools
            .iter()
            .any(|tool| tool.name == "get_broadcast_responses")
    };
    let (_, events, scenario) =
        ask_user("{broadcast: human, broadcast_timeout: 5, broadcast_wait_by_default: false}")
            .await;
    assert_completed(&events);
    assert_eq!(first_ask_result(&events)["status"], "pending");
    assert!(polls(&scenario));
    let waited = events.iter().find_map(|event| match event.msg {
        EventMsg::BroadcastAsked { wait, .. } => Some(wait),
        _ => None,
    });
    assert_eq!(waited, Some(false));

    let (_, events, scenario) = ask_user("{broadcast: human, broadcast_timeout: 5}").await;
    assert_eq!(first_ask_result(&events)["status"], "timeout");
    assert!(!polls(&scenario));
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

#[tokio::test(start_paused = true)]
async fn planning_mode_instruction_replaces_the_default_in_the_system_prompt() {
    async fn system_prompt(coordination: &str) -> String {
        let yaml = format!(
            "agents:\n\
             \x20 - {{id: a, backend: {{type: scripted, tokens_per_second: 0, answer: mine,\n\
             \x20     planning_analysis: \"IRREVERSIBLE: YES\\nBLOCKED_TOOLS:\"}}}}\n\
             \x20 - {{id: b, backend: {{type: scripted, tokens_per_second: 0, answer: theirs, vote_for: a,\n\
             \x20     planning_analysis: \"IRREVERSIBLE: YES\\nBLOCKED_TOOLS:\"}}}}\n\
             orchestrator:\n  coordination: {coordination}\n"
        );
        let (events, scenario) = run_once(&yaml, "Delete the old records").await;
        assert_completed(&events);
        let round = scenario
            .requests_of("b")
            .into_iter()
            .find(|request| request.tools.iter().any(|tool| tool.name == "vote"))
            .unwrap();
        round.messages[0].content().to_string()
    }
    let custom = system_prompt(
        "{enable_planning_mode: true, planning_mode_instruction: Describe the deletions only.}",
    )
    .await;
    assert!(custom.contains("Describe the deletions only."), "{custom}");
    assert!(
        !custom.contains("without actually executing actions"),
        "{custom}"
    );

    let default = system_prompt("{enable_planning_mode: true}").await;
    assert!(
        default.contains("without actually executing actions"),
        "{default}"
    );
    assert!(!default.contains("Describe the deletions only."));
}
