//! The read-only task-plan tools, schemas, argument errors and plan files.

use serde_json::json;

use super::tests::{ids, now, ok, three};
use super::*;

#[test]
fn schemas_cover_the_nine_tools() {
    let schemas = schemas();
    let names: Vec<&str> = schemas.iter().map(|schema| schema.name).collect();
    assert_eq!(names, TOOL_NAMES);
    let update = &schemas[2];
    assert_eq!(
        update.parameters["properties"]["status"]["enum"],
        json!(TaskStatus::NAMES)
    );
    assert_eq!(update.parameters["required"], json!(["task_id", "status"]));
    assert!(
        update
            .description
            .contains("pending → in_progress → completed → verified")
    );
    assert_eq!(
        schemas[1].parameters["properties"]["priority"]["enum"],
        json!(["low", "medium", "high"])
    );
    assert!(schemas[0].description.contains("DAG"));
    assert_eq!(
        schemas[0].parameters["properties"]["tasks"]["items"]["type"],
        "object"
    );
    assert!(
        TOOL_NAMES.iter().filter(|name| is_read_only(name)).eq([
            "get_task_plan",
            "get_ready_tasks",
            "get_blocked_tasks"
        ]
        .iter())
    );
}

#[test]
fn clear_and_the_read_only_tools() {
    let mut planner = three();
    ok(
        &mut planner,
        "update_task_status",
        json!({"task_id": "T001", "status": "completed"}),
    );
    let plan = ok(&mut planner, "get_task_plan", json!({}));
    assert_eq!(plan["plan"]["agent_id"], "agent_a");
    assert_eq!(plan["plan"]["subagents"], json!({}));
    assert_eq!(
        plan["summary"],
        json!({"total_tasks": 3, "completed_tasks": 1, "verified_tasks": 0, "in_progress_tasks": 0, "ready_tasks": 1, "blocked_tasks": 1, "awaiting_verification": 1})
    );
    assert_eq!(ids(&plan["verification_groups"]["build"]), ["T001"]);
    let ready = ok(&mut planner, "get_ready_tasks", json!({}));
    assert_eq!(
        (ids(&ready["ready_tasks"]), ready["count"].clone()),
        (vec!["T002"], json!(1))
    );
    let blocked = ok(&mut planner, "get_blocked_tasks", json!({}));
    assert_eq!(blocked["blocked_tasks"][0]["id"], "deploy");
    assert_eq!(
        blocked["blocked_tasks"][0]["blocking_task_ids"],
        json!(["T002"])
    );
    assert_eq!(
        ok(&mut planner, "clear_task_plan", json!({}))["had_existing_plan"],
        true
    );
    assert_eq!(
        ok(&mut planner, "clear_task_plan", json!({}))["had_existing_plan"],
        false
    );
    let empty = ok(&mut planner, "get_task_plan", json!({}));
    assert_eq!(empty["plan"]["tasks"], json!([]));
    assert_eq!(ok(&mut planner, "get_ready_tasks", json!({}))["count"], 0);
    assert!(planner.plan().is_none());
}

#[test]
fn bad_arguments_and_unknown_tools_are_errors() {
    let mut planner = TaskPlanner::new("a", 0);
    let not_json = planner
        .call("add_task", "{\"description\": ", now())
        .unwrap_err();
    assert!(
        not_json["error"]
            .as_str()
            .unwrap()
            .starts_with("arguments are not valid JSON")
    );
    let not_object = planner.call("add_task", "[1]", now()).unwrap_err();
    assert!(
        not_object["error"]
            .as_str()
            .unwrap()
            .contains("not an array")
    );
    let unknown = planner.call("make_coffee", "{}", now()).unwrap_err();
    assert_eq!(unknown["operation"], "make_coffee");
    assert!(
        unknown["error"]
            .as_str()
            .unwrap()
            .contains("create_task_plan, add_task")
    );
    assert!(planner.call("clear_task_plan", "{oops", now()).is_ok());
    assert!(planner.call("get_task_plan", "", now()).is_ok());
    assert!(planner.call("get_task_plan", "null", now()).is_ok());
}

#[test]
fn plan_files_round_trip() {
    let planner = three();
    let bytes = planner.file_bytes().unwrap();
    assert!(bytes.ends_with(b"\n"));
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.find("\"agent_id\"").unwrap() < text.find("\"tasks\"").unwrap());
    let loaded = TaskPlanner::from_file_bytes("agent_b", 10, &bytes, now()).unwrap();
    assert_eq!(loaded.plan().unwrap().tasks, planner.plan().unwrap().tasks);
    assert_eq!(loaded.plan().unwrap().agent_id, "agent_b");
    assert_eq!(
        loaded.plan().unwrap().created_at,
        planner.plan().unwrap().created_at
    );

    let simplified = br#"{"tasks": [{"id": "F1", "description": "a"}, {"id": "F2", "description": "b", "depends_on": ["F1"]}]}"#;
    let mut preloaded = TaskPlanner::from_file_bytes("a", 1, simplified, now()).unwrap();
    assert!(
        preloaded
            .plan()
            .unwrap()
            .tasks
            .iter()
            .all(|task| task.created_at.is_some())
    );
    ok(
        &mut preloaded,
        "update_task_status",
        json!({"task_id": "F1", "status": "in_progress"}),
    );
    ok(&mut preloaded, "clear_task_plan", json!({}));
    ok(
        &mut preloaded,
        "create_task_plan",
        json!({"tasks": ["x", "y"]}),
    );
    let cyclic = br#"[{"id": "a", "description": "a", "depends_on": ["a"]}]"#;
    assert!(matches!(
        TaskPlanner::from_file_bytes("a", 0, cyclic, now()),
        Err(PlanError::SelfDependency { .. })
    ));
    assert!(TaskPlanner::new("a", 0).file_bytes().is_none());
}
