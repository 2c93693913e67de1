//! The nine task-plan tools served in-process: one agent's [`TaskPlanner`] answers
//! `create_task_plan`, `add_task`… with MassGen's result and error JSON. Pure: no IO; the
//! caller saves [`TaskPlanner::file_bytes`] to `tasks/plan.json`.

mod args;
mod create;
mod edit;
mod schema;

use jiff::Timestamp;
use serde_json::{Map, Value, json};

use self::args::Args;
use super::error::PlanError;
use super::parse::{MAX_PLAN_TASKS, parse_document, parse_json, validate};
use super::task::{Task, TaskPlan, local_iso};
use crate::protocol::{TaskStatus, TaskView};

pub use schema::{TOOL_NAMES, ToolSchema, is_read_only, schemas};

/// One agent's task plan and the tools over it. Every call leaves the plan a valid DAG:
/// a failed call changes nothing.
#[derive(Clone, Debug)]
pub struct TaskPlanner {
    agent_id: String,
    max_tasks: u32,
    /// The size of a preloaded plan: the limit never refuses what was handed to the agent.
    floor: usize,
    plan: Option<TaskPlan>,
}

impl TaskPlanner {
    /// `max_tasks` 0 means no limit.
    pub fn new(agent_id: &str, max_tasks: u32) -> Self {
        Self {
            agent_id: agent_id.to_string(),
            max_tasks,
            floor: 0,
            plan: None,
        }
    }

    /// Runs one tool (its bare name) on JSON `arguments`. `Ok` is MassGen's success JSON,
    /// `Err` its `{"success":false,"operation","error"}`; nothing panics. `clear_task_plan`
    /// always succeeds, whatever its arguments.
    pub fn call(&mut self, tool: &str, arguments: &str, now: Timestamp) -> Result<Value, Value> {
        let outcome = match tool {
            "clear_task_plan" => Ok(self.clear_result()),
            _ => Args::parse(arguments).and_then(|args| self.dispatch(tool, &args, now)),
        };
        match outcome {
            Ok(Value::Object(fields)) => {
                let mut result = Map::new();
                result.insert("success".into(), Value::Bool(true));
                result.insert("operation".into(), Value::String(tool.to_string()));
                result.extend(fields);
                Ok(Value::Object(result))
            }
            Ok(other) => Ok(other),
            Err(error) => Err(json!({"success": false, "operation": tool, "error": error})),
        }
    }

    fn dispatch(&mut self, tool: &str, args: &Args, now: Timestamp) -> Result<Value, String> {
        match tool {
            "create_task_plan" => self.create(args, now),
            "add_task" => self.add(args, now),
            "update_task_status" => self.update_status(args, now),
            "edit_task" => self.edit(args, now),
            "delete_task" => self.delete(args, now),
            "clear_task_plan" => Ok(self.clear_result()),
            "get_task_plan" => Ok(self.plan_result(now)),
            "get_ready_tasks" => Ok(self.ready_result()),
            "get_blocked_tasks" => Ok(self.blocked_result()),
            unknown => Err(format!(
                "unknown tool `{unknown}`; the task-plan tools are {}",
                TOOL_NAMES.join(", ")
            )),
        }
    }

    pub fn views(&self) -> Vec<TaskView> {
        self.plan.as_ref().map(TaskPlan::views).unwrap_or_default()
    }

    pub fn plan(&self) -> Option<&TaskPlan> {
        self.plan.as_ref()
    }

    pub fn clear(&mut self) {
        self.plan = None;
    }

    /// Preloads a plan (e.g. the one being executed); the caller has validated `tasks`.
    /// Tasks without `created_at` get `now`.
    pub fn load(&mut self, tasks: Vec<Task>, now: Timestamp) {
        let stamp = local_iso(now);
        self.plan = Some(self.stamped_plan(tasks, &stamp, stamp.clone(), stamp.clone()));
    }

    fn stamped_plan(
        &mut self,
        mut tasks: Vec<Task>,
        stamp: &str,
        created: String,
        updated: String,
    ) -> TaskPlan {
        for task in &mut tasks {
            task.created_at.get_or_insert_with(|| stamp.to_string());
        }
        self.floor = self.floor.max(tasks.len());
        TaskPlan {
            agent_id: self.agent_id.clone(),
            tasks,
            created_at: created,
            updated_at: updated,
        }
    }

    /// The plan as MassGen's full-format `tasks/plan.json`: pretty JSON, newline-terminated.
    pub fn file_bytes(&self) -> Option<Vec<u8>> {
        self.plan.as_ref()?.file_bytes()
    }

    /// A planner preloaded from a `tasks/plan.json` (full TaskPlan files) or a plan file
    /// (`{"tasks":[…]}`, a bare array); the tasks must form a valid plan.
    pub fn from_file_bytes(
        agent_id: &str,
        max_tasks: u32,
        bytes: &[u8],
        now: Timestamp,
    ) -> Result<Self, PlanError> {
        let text = String::from_utf8_lossy(bytes);
        let document = parse_document(parse_json(&text)?)?;
        validate(&document.tasks)?;
        let mut planner = Self::new(agent_id, max_tasks);
        let stamp = local_iso(now);
        let created = document.created_at.unwrap_or_else(|| stamp.clone());
        let updated = document.updated_at.unwrap_or_else(|| stamp.clone());
        planner.plan = Some(planner.stamped_plan(document.tasks, &stamp, created, updated));
        Ok(planner)
    }

    /// The most tasks a plan may hold: the config's limit (never below the preloaded
    /// plan's size), and never above [`MAX_PLAN_TASKS`].
    fn limit(&self) -> usize {
        let configured = match self.max_tasks {
            0 => usize::MAX,
            max => usize::try_from(max).unwrap_or(usize::MAX).max(self.floor),
        };
        configured.min(MAX_PLAN_TASKS)
    }

    fn clear_result(&mut self) -> Value {
        let had_existing_plan = self.plan.take().is_some();
        json!({"had_existing_plan": had_existing_plan})
    }

    fn plan_result(&self, now: Timestamp) -> Value {
        let empty;
        let plan = match &self.plan {
            Some(plan) => plan,
            None => {
                let stamp = local_iso(now);
                empty = TaskPlan {
                    agent_id: self.agent_id.clone(),
                    tasks: Vec::new(),
                    created_at: stamp.clone(),
                    updated_at: stamp,
                };
                &empty
            }
        };
        let count = |status: TaskStatus| {
            plan.tasks
                .iter()
                .filter(|task| task.status == status)
                .count()
        };
        let mut groups: Map<String, Value> = Map::new();
        for task in plan
            .tasks
            .iter()
            .filter(|task| task.status == TaskStatus::Completed)
        {
            let group = task.meta_str("verification_group").unwrap_or("ungrouped");
            if let Value::Array(members) = groups.entry(group).or_insert_with(|| json!([])) {
                members.push(task.to_value());
            }
        }
        json!({
            "plan": serde_json::to_value(plan).unwrap_or(Value::Null),
            "summary": {
                "total_tasks": plan.tasks.len(),
                "completed_tasks": count(TaskStatus::Completed),
                "verified_tasks": count(TaskStatus::Verified),
                "in_progress_tasks": count(TaskStatus::InProgress),
                "ready_tasks": plan.ready().len(),
                "blocked_tasks": plan.blocked().len(),
                "awaiting_verification": count(TaskStatus::Completed),
            },
            "verification_groups": groups,
        })
    }

    fn ready_result(&self) -> Value {
        let ready: Vec<Value> = self
            .plan
            .iter()
            .flat_map(|plan| plan.ready())
            .map(Task::to_value)
            .collect();
        json!({"count": ready.len(), "ready_tasks": ready})
    }

    fn blocked_result(&self) -> Value {
        let blocked: Vec<Value> = self
            .plan
            .iter()
            .flat_map(|plan| plan.blocked())
            .map(|(task, blocking)| {
                let mut value = task.to_value();
                if let Value::Object(fields) = &mut value {
                    fields.insert("blocking_task_ids".into(), json!(blocking));
                }
                value
            })
            .collect();
        json!({"count": blocked.len(), "blocked_tasks": blocked})
    }
}

#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod read_tests;
#[cfg(test)]
mod tests;
