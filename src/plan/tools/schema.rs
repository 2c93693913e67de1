//! The nine task-plan tools as models see them: names, descriptions, JSON-schema parameters.

use serde_json::{Value, json};

use crate::protocol::{TaskPriority, TaskStatus};

pub const TOOL_NAMES: [&str; 9] = [
    "create_task_plan",
    "add_task",
    "update_task_status",
    "edit_task",
    "delete_task",
    "clear_task_plan",
    "get_task_plan",
    "get_ready_tasks",
    "get_blocked_tasks",
];

/// One tool's definition, ready for any provider's function-calling format.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSchema {
    pub name: &'static str,
    pub description: String,
    pub parameters: Value,
}

/// The `get_*` tools: they never change the plan.
pub fn is_read_only(tool: &str) -> bool {
    matches!(
        tool,
        "get_task_plan" | "get_ready_tasks" | "get_blocked_tasks"
    )
}

fn priority() -> Value {
    json!({
        "type": "string",
        "enum": TaskPriority::NAMES,
        "description": "low, medium or high (default medium)."
    })
}

fn dependencies(what: &str) -> Value {
    json!({
        "type": "array",
        "items": {"type": "string"},
        "description": format!("{what} Dependencies must form a DAG: no task may depend on itself or, through others, on a task that depends on it.")
    })
}

fn text(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

pub fn schemas() -> Vec<ToolSchema> {
    let flow = "Status flow: pending → in_progress → completed → verified.";
    let task_item = json!({
        "type": "object",
        "properties": {
            "id": text("Optional id such as \"T001\"; generated (T001, T002…) when left out."),
            "description": text("What to do, specific enough to act on and check."),
            "depends_on": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Ids of tasks in this list (or their 0-based indices, such as \"0\") that must be done first. They must form a DAG."
            },
            "priority": priority(),
            "status": {"type": "string", "enum": TaskStatus::NAMES, "description": "Default pending; set it when copying another agent's progress."},
            "verification": text("How to tell the task is done (acceptance criteria)."),
            "verification_method": text("How to check it: a command to run, a page to open…"),
            "verification_group": text("Tasks checked together at one checkpoint share a group name.")
        },
        "required": ["description"]
    });
    vec![
        ToolSchema {
            name: "create_task_plan",
            description: format!(
                "Create your task plan from a list of tasks. Each task has a description and \
                 optionally an id, depends_on (ids or 0-based indices of tasks in the list; they \
                 must form a DAG), priority (low|medium|high) and verification criteria. {flow} \
                 Fails if you already have a plan with work in progress: call clear_task_plan \
                 first to replace it."
            ),
            parameters: object(
                json!({"tasks": {"type": "array", "items": task_item, "description": "The tasks, in the order to show them."}}),
                &["tasks"],
            ),
        },
        ToolSchema {
            name: "add_task",
            description: "Add one task to your plan (its id continues the T001, T002… series). \
                          depends_on must name existing tasks and keep the plan a DAG."
                .into(),
            parameters: object(
                json!({
                    "description": text("What to do."),
                    "depends_on": dependencies("Ids of existing tasks that must be done first."),
                    "priority": priority(),
                    "after_task_id": text("Insert the task after this one (default: at the end)."),
                    "verification": text("How to tell the task is done."),
                    "verification_method": text("How to check it."),
                    "verification_group": text("Checkpoint group shared with related tasks.")
                }),
                &["description"],
            ),
        },
        ToolSchema {
            name: "update_task_status",
            description: format!(
                "Update a task's status. {flow} Mark completed when the work is done, and \
                 verified only after checking that it really works. Notes go with completed \
                 (what you did) or verified (how you checked)."
            ),
            parameters: object(
                json!({
                    "task_id": text("The task's id."),
                    "status": {"type": "string", "enum": TaskStatus::NAMES, "description": flow},
                    "completion_notes": text("What was done, or how it was verified.")
                }),
                &["task_id", "status"],
            ),
        },
        ToolSchema {
            name: "edit_task",
            description: "Change a task's description, priority or dependencies (which must \
                          keep the plan a DAG)."
                .into(),
            parameters: object(
                json!({
                    "task_id": text("The task's id."),
                    "description": text("The new description."),
                    "priority": priority(),
                    "depends_on": dependencies("The new full list of dependency ids.")
                }),
                &["task_id"],
            ),
        },
        ToolSchema {
            name: "delete_task",
            description: "Remove a task from your plan. Refused while another task depends on it."
                .into(),
            parameters: object(json!({"task_id": text("The task's id.")}), &["task_id"]),
        },
        ToolSchema {
            name: "clear_task_plan",
            description: "Discard your whole task plan to start fresh (for example before \
                          create_task_plan to adopt another agent's plan)."
                .into(),
            parameters: object(json!({}), &[]),
        },
        ToolSchema {
            name: "get_task_plan",
            description: "Get your task plan with every task's status, summary counts, and the \
                          completed tasks awaiting verification grouped by verification_group."
                .into(),
            parameters: object(json!({}), &[]),
        },
        ToolSchema {
            name: "get_ready_tasks",
            description: "Get the pending tasks whose dependencies are all completed or verified."
                .into(),
            parameters: object(json!({}), &[]),
        },
        ToolSchema {
            name: "get_blocked_tasks",
            description: "Get the pending tasks still waiting on dependencies, with the ids \
                          blocking each."
                .into(),
            parameters: object(json!({}), &[]),
        },
    ]
}
