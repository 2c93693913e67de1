//! The task-plan keys: `enable_agent_task_planning` offers the task-plan tools,
//! `task_planning_filesystem_mode` keeps the plan on disk, `max_tasks_per_plan` refuses a
//! longer plan.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::coordination_keys::common::{count, tool_ends, two_agents};
use crate::support::{Scenario, assert_completed, run_once};
use massgen::protocol::{EventMsg, Mode, TurnOptions};

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
