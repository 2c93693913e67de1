//! MassGen coordination keys set in YAML change what happens: task-plan tools offered and
//! kept on disk, the question limit, and voting deferred until everyone answered. (Keys
//! tested elsewhere: planning mode in `tests/plan/planning_mode.rs`, broadcast and its
//! timeout in `broadcast.rs`, restarts in `post_evaluation.rs`, injection and round time
//! limits in `updates.rs`, novelty, answer limits and presets in `coordination.rs`.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::support::{Scenario, assert_completed, run_once, transcript};
use massgen::protocol::{EventMsg, Mode, TurnOptions};

fn two_agents(extra_a: &str, orchestrator: &str) -> String {
    format!(
        r#"
agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 100
      answer: "Answer from a"
      vote_for: a
{extra_a}
  - id: b
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 1000, answer: "Answer from b", vote_for: a}}
orchestrator:
{orchestrator}
"#
    )
}

fn offered_tools(scenario: &Scenario, agent: &str) -> Vec<String> {
    scenario.requests_of(agent)[0]
        .tools
        .iter()
        .map(|tool| tool.name.clone())
        .collect()
}

#[tokio::test(start_paused = true)]
async fn enable_agent_task_planning_offers_the_task_plan_tools() {
    let on = two_agents("", "  coordination: {enable_agent_task_planning: true}");
    let (events, scenario) = run_once(&on, "q").await;
    assert_completed(&events);
    let tools = offered_tools(&scenario, "a");
    assert!(
        tools
            .iter()
            .any(|name| name == "mcp__planning_a__create_task_plan"),
        "{tools:?}"
    );

    let off = two_agents("", "  coordination: {enable_agent_task_planning: false}");
    let (_events, scenario) = run_once(&off, "q").await;
    let tools = offered_tools(&scenario, "a");
    assert!(
        !tools.iter().any(|name| name.starts_with("mcp__planning_")),
        "{tools:?}"
    );
}

fn files_named(root: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(root) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_named(&path, name));
        } else if path.ends_with(name) {
            found.push(path);
        }
    }
    found
}

/// The contents of every `tasks/plan.json` under the project after a turn in which `a`
/// creates a two-task plan.
async fn plan_files(filesystem_mode: bool) -> Vec<String> {
    let creates_a_plan = r#"      tool_calls: [{name: mcp__planning_a__create_task_plan, arguments: {tasks: ["Sketch it", "Build it"]}}]
      cwd: workspace"#;
    let yaml = two_agents(
        creates_a_plan,
        &format!(
            "  coordination: {{enable_agent_task_planning: true, task_planning_filesystem_mode: \
             {filesystem_mode}}}"
        ),
    );
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("q", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&events);
    let created = events
        .iter()
        .any(|event| matches!(&event.msg, EventMsg::TaskPlanChanged { tasks } if tasks.len() == 2));
    assert!(created, "a created its plan");
    files_named(&scenario.dir.path().join(".massgen"), "tasks/plan.json")
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect()
}

#[tokio::test(start_paused = true)]
async fn task_planning_filesystem_mode_keeps_the_plan_in_the_workspace() {
    let on = plan_files(true).await;
    assert!(!on.is_empty(), "tasks/plan.json is written");
    assert!(on.iter().any(|plan| plan.contains("Sketch it")), "{on:?}");
    assert!(
        plan_files(false).await.is_empty(),
        "only in filesystem mode"
    );
}

#[tokio::test(start_paused = true)]
async fn max_broadcasts_per_agent_refuses_a_question_past_the_limit() {
    // a asks in every round; only its first question is taken.
    let asks_twice = r#"      tool_calls: [{name: ask_others, arguments: {question: "Which format?", wait: false}}]
      tool_call_rounds: 2"#;
    let yaml = two_agents(
        asks_twice,
        "  coordination: {broadcast: agents, max_broadcasts_per_agent: 1}",
    );
    let (events, _scenario) = run_once(&yaml, "q").await;
    let outputs: Vec<String> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd { tool, output, .. } if tool == "ask_others" => {
                Some(output.clone())
            }
            _ => None,
        })
        .collect();
    assert!(outputs.len() >= 2, "{outputs:?}");
    assert!(outputs[0].contains("pending"), "{}", outputs[0]);
    assert!(
        outputs[1].contains("You have asked 1 questions this turn, the most allowed"),
        "{}",
        outputs[1]
    );
}

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
