//! The task ceiling: plans over [`MAX_PLAN_TASKS`] refused before any per-task work, and
//! the per-plan passes (dependency lists, readiness) linear at the ceiling.

use serde_json::{Value, json};

use super::tests::{parsed, task};
use super::*;
use crate::plan::{MAX_PLAN_TASKS, PlanError};

#[test]
fn plans_over_the_task_ceiling_are_refused_before_ids_are_assigned() {
    let items: Vec<Value> = (0..=MAX_PLAN_TASKS)
        .map(|index| json!({"description": format!("step {index}")}))
        .collect();
    assert_eq!(
        parsed(json!({"tasks": items})),
        Err(PlanError::TooManyTasks {
            count: MAX_PLAN_TASKS + 1,
            max: MAX_PLAN_TASKS
        })
    );
    let items: Vec<Value> = (0..MAX_PLAN_TASKS)
        .map(|index| json!({"description": format!("step {index}")}))
        .collect();
    assert_eq!(
        parsed(json!({"tasks": items})).unwrap().len(),
        MAX_PLAN_TASKS
    );
}

#[test]
fn repeated_dependencies_are_kept_once_in_order() {
    let many: Vec<&str> = ["B", "A"].repeat(10_000);
    let tasks = parsed(json!([
        {"id": "A", "description": "a"},
        {"id": "B", "description": "b"},
        {"id": "C", "description": "c", "depends_on": many}
    ]))
    .unwrap();
    assert_eq!(tasks[2].depends_on, ["B", "A"]);
}

#[test]
fn readiness_of_a_chain_at_the_ceiling_follows_the_done_tasks() {
    let count = MAX_PLAN_TASKS;
    let ids: Vec<String> = (0..count).map(|index| format!("T{index}")).collect();
    let tasks: Vec<Task> = (0..count)
        .map(|index| {
            let status = if index < count / 2 {
                TaskStatus::Verified
            } else {
                TaskStatus::Pending
            };
            let before: Vec<&str> = ids[..index]
                .iter()
                .rev()
                .take(1)
                .map(String::as_str)
                .collect();
            task(&ids[index], status, &before)
        })
        .collect();
    let plan = TaskPlan {
        agent_id: "a".into(),
        tasks,
        created_at: String::new(),
        updated_at: String::new(),
    };
    let ready: Vec<&str> = plan.ready().iter().map(|task| task.id.as_str()).collect();
    assert_eq!(ready, [ids[count / 2].as_str()]);
    assert_eq!(plan.blocked().len(), count / 2 - 1);
}
