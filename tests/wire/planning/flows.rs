//! A planning turn whose agents write `project_plan.json` with the filesystem tool, then
//! an execution turn of that plan whose agents drive the task tools from the ready list
//! they read back — on Chat Completions and on Anthropic Messages.

use std::path::{Path, PathBuf};

use massgen::protocol::{
    BroadcastTarget, Event, EventMsg, Mode, PlanStatus, TaskStatus, TaskView, TurnOptions,
    TurnOutcome,
};
use serde_json::{Value, json};

use super::*;
use crate::support::{Scenario, outcome, transcript};

const PLANNING: &str = "# TASK PLANNING MODE";
const EXECUTION: &str = "# PLAN EXECUTION MODE";
const QUESTION: &str = "Plan a launch party";

/// Four tasks: two to start with, a third after both, a fourth after the third.
fn plan_file() -> String {
    let task = |id: &str, description: &str, depends_on: &[&str]| {
        json!({"id": id, "description": description, "status": "pending",
               "depends_on": depends_on, "priority": "medium"})
    };
    json!({"tasks": [
        task("T001", "Pick a venue", &[]),
        task("T002", "Draw up the guest list", &[]),
        task("T003", "Send the invitations", &["T001", "T002"]),
        task("T004", "Order the food", &["T003"]),
    ]})
    .to_string()
}

/// Plans by writing the plan file until a write came back; executes by asking which tasks
/// are ready, taking each through in_progress → completed → verified, and asking again,
/// until none is ready.
fn model(seen: &Seen) -> Act {
    coordinate(seen, |seen| {
        if seen.says(PLANNING) {
            let written = seen
                .last_call(WRITE_FILE)
                .is_some_and(|call| call.result.is_some());
            (!written).then(|| {
                Act::call(
                    WRITE_FILE,
                    json!({"path": "project_plan.json", "content": plan_file()}),
                )
            })
        } else if seen.says(EXECUTION) {
            next_task_calls(seen)
        } else {
            None
        }
    })
}

fn next_task_calls(seen: &Seen) -> Option<Act> {
    let prefix = seen.tools.iter().find_map(|(name, _)| {
        name.strip_suffix(READY)
            .filter(|prefix| prefix.starts_with("mcp__planning_"))
    })?;
    let ready = format!("{prefix}{READY}");
    let Some(asked) = seen.last_call(&ready) else {
        return Some(Act::call(&ready, json!({})));
    };
    let result: Value = serde_json::from_str(asked.result.as_deref()?).ok()?;
    let ids: Vec<&str> = result["ready_tasks"]
        .as_array()?
        .iter()
        .filter_map(|task| task["id"].as_str())
        .collect();
    if result["count"] == 0 || ids.is_empty() {
        return None;
    }
    let update = format!("{prefix}{UPDATE}");
    let mut calls = Vec::new();
    for id in ids {
        for status in ["in_progress", "completed", "verified"] {
            calls.push((
                update.clone(),
                json!({"task_id": id, "status": status, "completion_notes": format!("{status} by {}", seen.model)}),
            ));
        }
    }
    calls.push((ready, json!({})));
    Some(Act::Calls(calls))
}

fn plan_dir(root: &Path) -> PathBuf {
    let plans = root.join(".massgen").join("plans");
    let dirs: Vec<PathBuf> = std::fs::read_dir(&plans)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("plan_")
        })
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn last_tasks(events: &[Event], agent: &str) -> Vec<TaskView> {
    events
        .iter()
        .rev()
        .find_map(|event| match &event.msg {
            EventMsg::TaskPlanChanged { tasks }
                if event.agent.as_ref().is_some_and(|id| id.as_str() == agent) =>
            {
                Some(tasks.clone())
            }
            _ => None,
        })
        .unwrap_or_default()
}

/// A planning turn, then `execute latest`, both over `wire`.
async fn plan_then_execute(wire: Wire) {
    let server = serve(wire, model).await;
    let yaml = two_agents(wire, &server, "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let options = TurnOptions {
        broadcast: Some(BroadcastTarget::Off),
        ..TurnOptions::default()
    };
    let events = scenario.submit(QUESTION, Mode::Planning, options).await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    let updates = plan_updates(&events);
    assert_eq!(
        updates.first().map(|update| update.0),
        Some(PlanStatus::Planning)
    );
    assert_eq!(
        updates.last().map(|update| (update.0, update.1)),
        Some((PlanStatus::Ready, 4)),
        "{updates:?}"
    );
    let ready = events.iter().rev().find_map(|event| match &event.msg {
        EventMsg::PlanUpdated { plan } => Some(plan.tasks.clone()),
        _ => None,
    });
    let ids: Vec<(String, Vec<String>)> = ready
        .unwrap()
        .into_iter()
        .map(|task| (task.id, task.depends_on))
        .collect();
    assert_eq!(ids[2], ("T003".into(), vec!["T001".into(), "T002".into()]));
    let plan = plan_dir(scenario.dir.path());
    for file in [
        "plan_metadata.json",
        "execution_log.jsonl",
        "plan_diff.json",
        "frozen/plan.json",
    ] {
        assert!(plan.join(file).is_file(), "{file} in {}", plan.display());
    }
    assert!(plan.join("workspace").is_dir());
    assert_eq!(
        json_file(&plan.join("plan_metadata.json"))["status"],
        "ready"
    );
    let frozen = json_file(&plan.join("frozen").join("plan.json")).to_string();
    assert!(frozen.contains("Send the invitations"), "{frozen}");

    // Every agent was asked in planning mode and wrote the plan with the filesystem tool;
    // the winner presented from a request without `vote`.
    let planning = seen(wire, &server);
    for agent in ["alpha", "beta"] {
        let first = planning
            .iter()
            .find(|(_, seen)| seen.model == agent)
            .unwrap();
        assert!(
            first.1.says(PLANNING) && first.1.says(QUESTION),
            "{:?}",
            first.1.users
        );
        assert!(first.1.offers(WRITE_FILE) && first.1.offers("vote"));
        assert!(tool_runs(&events, agent).contains(&(WRITE_FILE.to_string(), true)));
        // The next request replayed the call as the server streamed it, with its result.
        let write = planning
            .iter()
            .filter(|(_, seen)| seen.model == agent)
            .find_map(|(_, seen)| seen.last_call(WRITE_FILE))
            .unwrap();
        assert_eq!(write.arguments["path"], "project_plan.json");
        assert_eq!(write.arguments["content"], plan_file());
        let result = write.result.as_deref().unwrap();
        assert!(result.starts_with("Successfully wrote"), "{result}");
    }
    let presentations = planning.iter().filter(|(_, seen)| !seen.offers("vote"));
    assert_eq!(presentations.count(), 1);
    let planning_requests = planning.len();

    let options = TurnOptions {
        plan: Some("latest".into()),
        ..TurnOptions::default()
    };
    let events = scenario.submit("", Mode::Execute, options).await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    let updates = plan_updates(&events);
    assert_eq!(
        updates.first().map(|update| update.0),
        Some(PlanStatus::Executing)
    );
    assert_eq!(
        updates.last().map(|update| update.0),
        Some(PlanStatus::Completed),
        "{updates:?}"
    );
    for agent in ["alpha", "beta"] {
        let tasks = last_tasks(&events, agent);
        assert_eq!(tasks.len(), 4, "{agent}: {tasks:?}");
        assert!(
            tasks
                .iter()
                .all(|task| matches!(task.status, TaskStatus::Completed | TaskStatus::Verified)),
            "{agent}: {tasks:?}"
        );
    }
    assert_eq!(
        json_file(&plan.join("plan_metadata.json"))["status"],
        "completed"
    );
    let diff = json_file(&plan.join("plan_diff.json"));
    assert_eq!(diff["divergence_score"], 0.0, "{diff}");

    // The task tools went over the wire in the protocol's tool format, and their results
    // came back in the conversation the model read.
    let executing = &seen(wire, &server)[planning_requests..];
    let (request, first) = executing
        .iter()
        .find(|(_, seen)| seen.model == "alpha")
        .unwrap();
    assert!(first.says(EXECUTION), "{:?}", first.users);
    for schema in massgen::plan::schemas() {
        let name = format!("mcp__planning_alpha__{}", schema.name);
        let offered = wire
            .tool(&request.body, &name)
            .unwrap_or_else(|| panic!("{name}"));
        let expected = match wire {
            Wire::Chat => json!({"type": "function", "function": {
                "name": name, "description": schema.description, "parameters": schema.parameters}}),
            Wire::Anthropic => json!({
                "name": name, "description": schema.description, "input_schema": schema.parameters}),
        };
        assert_eq!(offered, &expected);
    }
    let ready_lists: Vec<u64> = executing
        .iter()
        .filter(|(_, seen)| seen.model == "alpha")
        .filter_map(|(_, seen)| seen.last_call(&format!("mcp__planning_alpha__{READY}")))
        .filter_map(|call| serde_json::from_str::<Value>(call.result.as_deref()?).ok())
        .map(|result| result["count"].as_u64().unwrap())
        .collect();
    assert_eq!(
        ready_lists.first(),
        Some(&2),
        "T001 and T002 first: {ready_lists:?}"
    );
    assert!(ready_lists.contains(&0), "{ready_lists:?}");
}

#[tokio::test]
async fn a_plan_written_over_chat_completions_is_saved_and_then_executed_task_by_task() {
    plan_then_execute(Wire::Chat).await;
}

#[tokio::test]
async fn a_plan_written_over_anthropic_messages_is_saved_and_then_executed_task_by_task() {
    plan_then_execute(Wire::Anthropic).await;
}
