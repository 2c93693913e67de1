//! The tools that change the plan: success and error shapes, atomicity, the status flow.

use serde_json::{Value, json};

use super::*;

pub(super) fn now() -> Timestamp {
    Timestamp::from_second(1_790_000_000).unwrap()
}

pub(super) fn ok(planner: &mut TaskPlanner, tool: &str, args: Value) -> Value {
    let result = planner.call(tool, &args.to_string(), now());
    let value = result.unwrap_or_else(|error| panic!("{tool} failed: {error}"));
    assert_eq!(value["success"], true);
    assert_eq!(value["operation"], tool);
    value
}

pub(super) fn err(planner: &mut TaskPlanner, tool: &str, args: Value) -> String {
    let before = planner.plan().cloned();
    let error = planner.call(tool, &args.to_string(), now()).unwrap_err();
    assert_eq!(error["success"], false);
    assert_eq!(error["operation"], tool);
    assert_eq!(
        planner.plan().cloned(),
        before,
        "a failed {tool} changed the plan"
    );
    error["error"].as_str().unwrap().to_string()
}

pub(super) fn three() -> TaskPlanner {
    let mut planner = TaskPlanner::new("agent_a", 10);
    ok(
        &mut planner,
        "create_task_plan",
        json!({"tasks": [
            {"description": "Scaffold", "priority": "high", "verification": "builds", "verification_group": "build"},
            {"description": "Pages", "depends_on": [0]},
            {"id": "deploy", "description": "Deploy", "depends_on": ["T001", 1]}
        ]}),
    );
    planner
}

pub(super) fn ids(values: &Value) -> Vec<&str> {
    values
        .as_array()
        .unwrap()
        .iter()
        .map(|task| task["id"].as_str().unwrap())
        .collect()
}

#[test]
fn create_generates_ids_resolves_indices_and_summarises() {
    let mut planner = TaskPlanner::new("agent_a", 10);
    let result = ok(
        &mut planner,
        "create_task_plan",
        json!({"tasks": [
            "Scaffold",
            {"description": "Pages", "depends_on": ["0"]},
            {"id": "deploy", "description": "Deploy", "depends_on": ["T001", 1], "status": "pending"}
        ]}),
    );
    assert_eq!(result["plan_id"], "agent_a");
    assert_eq!(ids(&result["tasks"]), ["T001", "T002", "deploy"]);
    assert_eq!(result["tasks"][2]["dependencies"], json!(["T001", "T002"]));
    assert_eq!(
        result["summary"],
        json!({"total_tasks": 3, "ready_tasks": 1, "blocked_tasks": 2})
    );
    assert!(result.get("replaced_existing_plan").is_none());
    assert!(result["tasks"][0]["created_at"].is_string());
    assert_eq!(planner.views().len(), 3);
}

#[test]
fn create_rejects_bad_lists_atomically() {
    let mut planner = three();
    ok(
        &mut planner,
        "update_task_status",
        json!({"task_id": "T001", "status": "in_progress"}),
    );
    let refused = err(&mut planner, "create_task_plan", json!({"tasks": ["x"]}));
    assert!(
        refused.contains("already exists with 3 tasks (2 pending, 1 in_progress)"),
        "{refused}"
    );
    assert!(refused.contains("clear_task_plan"));

    let mut fresh = TaskPlanner::new("agent_a", 3);
    let cases = [
        (json!({}), "missing required argument `tasks`"),
        (json!({"tasks": "x"}), "must be an array"),
        (json!({"tasks": []}), "is empty"),
        (json!({"tasks": [1]}), "task at index 0 is a number"),
        (
            json!({"tasks": ["a", "b", "c", "d"]}),
            "4 tasks, more than the limit of 3; merge",
        ),
        (
            json!({"tasks": [{"description": "a", "depends_on": [5]}]}),
            "index 5 is out of range",
        ),
        (
            json!({"tasks": [{"description": "a", "depends_on": [-1]}]}),
            "is not a task index",
        ),
        (
            json!({"tasks": [{"description": "a", "depends_on": ["zzz"]}]}),
            "depends on `zzz`, which is not a task",
        ),
        (
            json!({"tasks": [{"description": "a", "depends_on": [0]}]}),
            "depends on itself",
        ),
        (
            json!({"tasks": [{"id": "a", "description": "a", "depends_on": ["b"]}, {"id": "b", "description": "b", "depends_on": ["a"]}]}),
            "cycle: a → b → a",
        ),
        (
            json!({"tasks": [{"id": "a", "description": "a"}, {"id": "a", "description": "b"}]}),
            "used twice",
        ),
        (
            json!({"tasks": [{"description": ""}]}),
            "has no description",
        ),
        (
            json!({"tasks": [{"description": "a", "priority": "asap"}]}),
            "priority `asap`",
        ),
    ];
    for (args, expected) in cases {
        let message = err(&mut fresh, "create_task_plan", args.clone());
        assert!(message.contains(expected), "{args}: {message}");
        assert!(fresh.plan().is_none());
    }
}

#[test]
fn create_replaces_a_plan_that_has_not_started() {
    let mut planner = TaskPlanner::new("agent_a", 0);
    planner.load(vec![Task::new("P1", "preloaded")], now());
    let result = ok(
        &mut planner,
        "create_task_plan",
        json!({"tasks": ["fresh"]}),
    );
    assert_eq!(result["replaced_existing_plan"], true);
    assert_eq!(ids(&result["tasks"]), ["T001"]);
}

#[test]
fn add_continues_the_series_and_inserts_after() {
    let mut planner = three();
    let added = ok(
        &mut planner,
        "add_task",
        json!({"description": "Docs", "depends_on": ["T002"], "priority": "low", "after_task_id": "T001", "verification": "README exists"}),
    );
    assert_eq!(added["task"]["id"], "T003");
    assert_eq!(added["task"]["priority"], "low");
    assert_eq!(added["task"]["metadata"]["verification"], "README exists");
    let order: Vec<String> = planner.views().into_iter().map(|task| task.id).collect();
    assert_eq!(order, ["T001", "T003", "T002", "deploy"]);

    assert!(
        err(
            &mut planner,
            "add_task",
            json!({"description": "x", "depends_on": ["nope"]})
        )
        .contains("`nope`")
    );
    assert!(
        err(
            &mut planner,
            "add_task",
            json!({"description": "x", "after_task_id": "nope"})
        )
        .contains("after_task_id not found: nope")
    );
    assert!(
        err(
            &mut planner,
            "add_task",
            json!({"description": "x", "priority": "huge"})
        )
        .contains("Invalid priority 'huge'. Must be one of: low, medium, high")
    );
    assert!(
        err(&mut planner, "add_task", json!({}))
            .contains("missing required argument `description`")
    );
    assert!(
        err(&mut planner, "add_task", json!({"description": ["x"]})).contains("must be a string")
    );

    let mut full = TaskPlanner::new("a", 1);
    ok(&mut full, "add_task", json!({"description": "only"}));
    assert!(err(&mut full, "add_task", json!({"description": "more"})).contains("limit of 1"));
}

#[test]
fn update_status_follows_the_flow() {
    let mut planner = three();
    let early = ok(
        &mut planner,
        "update_task_status",
        json!({"task_id": "deploy", "status": "in_progress"}),
    );
    assert_eq!(
        early["warning"],
        "dependencies not done yet: T001 (pending), T002 (pending)"
    );

    let done = ok(
        &mut planner,
        "update_task_status",
        json!({"task_id": "T001", "status": "completed", "completion_notes": "scaffolded"}),
    );
    assert_eq!(done["task"]["status"], "completed");
    assert!(done["task"]["completed_at"].is_string());
    assert_eq!(done["task"]["metadata"]["completion_notes"], "scaffolded");
    assert_eq!(ids(&done["newly_ready_tasks"]), ["T002"]);
    assert_eq!(done["verification_pending"], true);
    assert_eq!(done["verification"], "builds");
    assert_eq!(done["unverified_count"], 1);
    assert!(done.get("warning").is_none());

    let verified = ok(
        &mut planner,
        "update_task_status",
        json!({"task_id": "T001", "status": "verified", "completion_notes": "npm run build ok"}),
    );
    assert!(verified["task"]["verified_at"].is_string());
    assert_eq!(
        verified["task"]["metadata"]["verification_notes"],
        "npm run build ok"
    );
    assert!(verified.get("newly_ready_tasks").is_none());

    let flow = err(
        &mut planner,
        "update_task_status",
        json!({"task_id": "T002", "status": "verified"}),
    );
    assert!(
        flow.contains("while it is pending") && flow.contains("completed first"),
        "{flow}"
    );
    let invalid = err(
        &mut planner,
        "update_task_status",
        json!({"task_id": "T002", "status": "done"}),
    );
    assert_eq!(
        invalid,
        "Invalid status 'done'. Must be one of: pending, in_progress, completed, verified, blocked"
    );
    assert!(
        err(
            &mut planner,
            "update_task_status",
            json!({"task_id": "T404", "status": "pending"})
        )
        .starts_with("Task not found: T404")
    );
    assert!(
        err(
            &mut planner,
            "update_task_status",
            json!({"task_id": "T002"})
        )
        .contains("missing required argument `status`")
    );
    assert!(
        err(
            &mut TaskPlanner::new("a", 0),
            "update_task_status",
            json!({"task_id": "T1", "status": "pending"})
        )
        .contains("create_task_plan")
    );
}

#[test]
fn edit_and_delete_keep_the_plan_a_dag() {
    let mut planner = three();
    let edited = ok(
        &mut planner,
        "edit_task",
        json!({"task_id": "T002", "description": "Pages v2", "priority": "high"}),
    );
    assert_eq!(edited["task"]["description"], "Pages v2");
    assert_eq!(edited["task"]["priority"], "high");
    let cycle = err(
        &mut planner,
        "edit_task",
        json!({"task_id": "T001", "depends_on": ["deploy"]}),
    );
    assert!(cycle.contains("cycle: T001 → deploy → T001"), "{cycle}");
    assert!(
        err(&mut planner, "edit_task", json!({"task_id": "T001"})).contains("nothing to change")
    );
    assert!(
        err(
            &mut planner,
            "edit_task",
            json!({"task_id": "T001", "description": " "})
        )
        .contains("must not be empty")
    );
    assert!(
        err(
            &mut planner,
            "edit_task",
            json!({"task_id": "x", "priority": "low"})
        )
        .contains("Task not found: x")
    );

    let refused = err(&mut planner, "delete_task", json!({"task_id": "T001"}));
    assert!(
        refused.starts_with("Cannot delete task T001: tasks T002, deploy depend on it"),
        "{refused}"
    );
    assert!(
        err(&mut planner, "delete_task", json!({"task_id": "T002"}))
            .starts_with("Cannot delete task T002: task deploy depends on it")
    );
    let deleted = ok(&mut planner, "delete_task", json!({"task_id": "deploy"}));
    assert_eq!(deleted["deleted_task_id"], "deploy");
    assert_eq!(planner.views().len(), 2);
}
