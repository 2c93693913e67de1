//! Scenario tests of Planning and Execute with scripted agents: a planning turn leaving a
//! whole saved plan, executing it task by task, plans that fail validation, and plans
//! that are cancelled or time out.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::plans::{
    execute, last_task_list, metadata, plan_dirs, planning, plans, two_agents, walk,
};
use crate::support::{Scenario, assert_completed, outcome, transcript};
use massgen::protocol::{EventMsg, Mode, PlanStatus, TaskStatus, TurnOptions, TurnOutcome};

#[tokio::test]
async fn a_planning_turn_leaves_a_whole_plan_and_execute_latest_carries_it_out() {
    let yaml = two_agents("", "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Plan a launch party", Mode::Planning, planning("shallow"))
        .await;
    assert_completed(&events);
    let updates = plans(&events);
    assert_eq!(
        updates.first().map(|update| update.0),
        Some(PlanStatus::Planning)
    );
    assert_eq!(
        updates.last().map(|update| (update.0, update.2)),
        Some((PlanStatus::Ready, 5)),
        "{updates:?}"
    );
    let dirs = plan_dirs(scenario.dir.path());
    assert_eq!(dirs.len(), 1);
    let plan = &dirs[0];
    for file in [
        "plan_metadata.json",
        "execution_log.jsonl",
        "plan_diff.json",
        "frozen/plan.json",
        "workspace/plan.json",
    ] {
        assert!(plan.join(file).is_file(), "{file} in {}", plan.display());
    }
    let meta = metadata(plan);
    assert_eq!(meta["status"], "ready");
    assert_eq!(meta["planning_prompt"], "Plan a launch party");
    // Planning turns hand agents the planning prompt, not the bare question.
    let first = scenario.requests_of("alpha")[0].messages[1]
        .content()
        .to_string();
    assert!(first.contains("# TASK PLANNING MODE"), "{first}");
    assert!(first.contains("Plan a launch party"));

    let events = scenario.submit("", Mode::Execute, execute("latest")).await;
    assert_completed(&events);
    let updates = plans(&events);
    assert_eq!(
        updates.first().map(|update| update.0),
        Some(PlanStatus::Executing)
    );
    let (status, detail, _) = updates.last().cloned().unwrap();
    assert_eq!(status, PlanStatus::Completed, "{detail:?}");
    let last_tasks = last_task_list(&events, "alpha");
    assert_eq!(last_tasks.len(), 5);
    assert!(
        last_tasks
            .iter()
            .all(|task| matches!(task.status, TaskStatus::Completed | TaskStatus::Verified)),
        "{last_tasks:?}"
    );
    let meta = metadata(plan);
    assert_eq!(meta["status"], "completed");
    let diff: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(plan.join("plan_diff.json")).unwrap())
            .unwrap();
    assert_eq!(diff["divergence_score"], 0.0, "{diff}");
    // Every agent had the plan and its documents in its workspace.
    let workspaces = scenario.dir.path().join(".massgen").join("workspaces");
    let files = walk(&workspaces);
    assert!(files.iter().any(|path| path.ends_with("tasks/plan.json")));
    assert!(
        files
            .iter()
            .any(|path| path.ends_with("planning_docs/full_plan.json"))
    );
    let request = scenario.requests_of("beta").last().unwrap().clone();
    assert!(
        request.messages[0]
            .content()
            .contains("Plan Execution Mode")
    );
}

#[tokio::test]
async fn a_cyclic_plan_fails_with_the_cycle_named() {
    let cyclic = "      plan:\n        - {id: A, description: first, depends_on: [B]}\n        - {id: B, description: second, depends_on: [A]}\n";
    let yaml = two_agents(cyclic, "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit(
            "Plan something circular",
            Mode::Planning,
            planning("shallow"),
        )
        .await;
    let (status, detail, _) = plans(&events).last().cloned().unwrap();
    assert_eq!(status, PlanStatus::Failed);
    let detail = detail.unwrap();
    assert!(
        detail.contains("cycle") && detail.contains('A') && detail.contains('B'),
        "{detail}"
    );
    let warning = events.iter().find_map(|event| match &event.msg {
        EventMsg::Warning { message } if message.contains("failed") => Some(message.clone()),
        _ => None,
    });
    assert!(warning.is_some_and(|message| message.contains("DAG")));
    let dirs = plan_dirs(scenario.dir.path());
    let meta = metadata(&dirs[0]);
    assert_eq!(meta["status"], "failed");
    assert!(!dirs[0].join("frozen").exists());
    // A failed plan is not executed as `latest`.
    let events = scenario.submit("", Mode::Execute, execute("latest")).await;
    assert_eq!(outcome(&events), TurnOutcome::Failed);
}

#[tokio::test]
async fn a_plan_never_written_fails_and_says_where_it_looked() {
    let no_writes = "      exclude_tools: [mcp__filesystem__write_file]\n";
    let yaml = two_agents(no_writes, "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Plan nothing", Mode::Planning, planning("shallow"))
        .await;
    let (status, detail, _) = plans(&events).last().cloned().unwrap();
    assert_eq!(status, PlanStatus::Failed);
    assert!(detail.unwrap().contains("project_plan.json"));
}

#[tokio::test]
async fn planning_needs_workspaces_and_says_how_to_add_them() {
    let yaml = "agents:\n  - {id: solo, backend: {type: scripted, tokens_per_second: 0}}\n";
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), yaml);
    let events = scenario
        .submit("Plan it", Mode::Planning, planning("shallow"))
        .await;
    assert_eq!(outcome(&events), TurnOutcome::Failed);
    let warning = events.iter().find_map(|event| match &event.msg {
        EventMsg::Warning { message } => Some(message.clone()),
        _ => None,
    });
    assert!(warning.unwrap().contains("cwd: workspace"));
    assert!(plan_dirs(scenario.dir.path()).is_empty());
}

#[tokio::test]
async fn plan_and_execute_runs_both_turns_and_lists_the_plan() {
    let yaml = two_agents("", "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let options = TurnOptions {
        auto_execute: true,
        ..planning("shallow")
    };
    let events = scenario
        .submit("Write a guide", Mode::Planning, options)
        .await;
    let turns: Vec<Mode> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::TurnStarted { mode, .. } => Some(*mode),
            _ => None,
        })
        .collect();
    assert_eq!(turns, vec![Mode::Planning, Mode::Execute]);
    assert_eq!(
        plans(&events).last().map(|update| update.0),
        Some(PlanStatus::Completed)
    );
    let listed = crate::support::list_plans(&mut scenario).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].status, PlanStatus::Completed);
    assert_eq!(listed[0].prompt, "Write a guide");
}

/// A cancelled execution keeps the plan: it is `ready` again (with why it stopped), and
/// `latest` runs it, not an older plan.
#[tokio::test]
async fn a_cancelled_execution_leaves_the_plan_ready_for_latest() {
    let yaml = two_agents("", "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    scenario
        .submit("Plan a launch party", Mode::Planning, planning("shallow"))
        .await;
    let cancelled = crate::support::cancel::run_and_cancel_at_mode(
        &mut scenario.handle,
        Mode::Execute,
        execute("latest"),
        |msg| matches!(msg, EventMsg::TaskPlanChanged { tasks } if !tasks.is_empty()),
    )
    .await;
    assert_eq!(outcome(&cancelled), TurnOutcome::Cancelled);
    let (status, detail, _) = plans(&cancelled).last().cloned().unwrap();
    assert_eq!(status, PlanStatus::Ready);
    assert_eq!(detail.as_deref(), Some("execution was cancelled"));
    let dirs = plan_dirs(scenario.dir.path());
    assert_eq!(metadata(&dirs[0])["status"], "ready");

    let events = scenario.submit("", Mode::Execute, execute("latest")).await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(
        plans(&events).last().map(|update| update.0),
        Some(PlanStatus::Completed)
    );
}

/// A planning turn that times out keeps a plan its winner had written, but a plan asked
/// to run at once is not run: the user did not see it finish.
#[tokio::test]
async fn a_timed_out_planning_turn_keeps_its_plan_but_does_not_execute_it() {
    let slow_beta = "agents:\n\
         \x20 - id: alpha\n    backend: {type: scripted, tokens_per_second: 0, cwd: workspace}\n\
         \x20 - id: beta\n    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 30000, cwd: workspace}\n\
         timeout_settings: {orchestrator_timeout_seconds: 1}\n";
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), slow_beta);
    let options = TurnOptions {
        auto_execute: true,
        ..planning("shallow")
    };
    let events = scenario
        .submit("Plan a hike", Mode::Planning, options)
        .await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::TimedOut,
        "{:?}",
        transcript(&events)
    );
    assert_eq!(
        plans(&events).last().map(|update| update.0),
        Some(PlanStatus::Ready)
    );
    // No execution turn follows: the next event is the answer to a ListPlans.
    crate::support::ask_for_plans(&scenario).await;
    let next = scenario.handle.events.recv().await.unwrap();
    assert!(
        matches!(next.msg, EventMsg::PlansListed { .. }),
        "{:?}",
        next.msg
    );
}
