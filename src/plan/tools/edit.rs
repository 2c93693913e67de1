//! The task-plan tools that change the plan. Each works on a copy and commits it only once
//! the whole result is valid.

use std::collections::HashSet;

use jiff::Timestamp;
use serde_json::{Map, Value, json};

use super::TaskPlanner;
use super::args::Args;
use crate::plan::error::PlanError;
use crate::plan::parse::{next_free_id, validate};
use crate::plan::task::{Task, TaskPlan, local_iso};
use crate::protocol::{TaskPriority, TaskStatus};

pub(super) fn explain(error: &PlanError) -> String {
    format!("{error}; {}", error.help())
}

/// `(2 completed, 1 in_progress, 3 pending)`: the nonzero counts by status.
pub(super) fn counts(tasks: &[Task]) -> String {
    let parts: Vec<String> = TaskStatus::NAMES
        .iter()
        .filter_map(|name| {
            let n = tasks
                .iter()
                .filter(|task| task.status.name() == *name)
                .count();
            (n > 0).then(|| format!("{n} {name}"))
        })
        .collect();
    format!("({})", parts.join(", "))
}

fn not_found(plan: &TaskPlan, id: &str) -> String {
    let known: Vec<&str> = plan
        .tasks
        .iter()
        .take(12)
        .map(|task| task.id.as_str())
        .collect();
    let more = if plan.tasks.len() > known.len() {
        ", …"
    } else {
        ""
    };
    format!(
        "Task not found: {id} (the plan has {}{more})",
        known.join(", ")
    )
}

const NO_PLAN: &str = "No task plan yet: create one with create_task_plan";

impl TaskPlanner {
    pub(super) fn too_many(&self, count: usize) -> Result<(), String> {
        let max = self.limit();
        if count > max {
            return Err(explain(&PlanError::TooManyTasks { count, max }));
        }
        Ok(())
    }

    pub(super) fn commit(&mut self, mut plan: TaskPlan, now: Timestamp) {
        plan.updated_at = local_iso(now);
        self.plan = Some(plan);
    }

    fn current_or_new(&self, now: Timestamp) -> TaskPlan {
        self.plan.clone().unwrap_or_else(|| TaskPlan {
            agent_id: self.agent_id.clone(),
            tasks: Vec::new(),
            created_at: local_iso(now),
            updated_at: local_iso(now),
        })
    }

    pub(super) fn add(&mut self, args: &Args, now: Timestamp) -> Result<Value, String> {
        let description = args.required_text("description")?;
        let priority = args.priority()?.unwrap_or(TaskPriority::Medium);
        let depends_on = args.ids("depends_on")?.unwrap_or_default();
        let after = args.text("after_task_id")?;
        let mut metadata = Map::new();
        for key in ["verification", "verification_method", "verification_group"] {
            if let Some(text) = args.text(key)?.filter(|text| !text.trim().is_empty()) {
                metadata.insert(key.into(), Value::String(text));
            }
        }
        let mut plan = self.current_or_new(now);
        self.too_many(plan.tasks.len() + 1)?;
        let taken: HashSet<String> = plan.tasks.iter().map(|task| task.id.clone()).collect();
        let last = plan
            .tasks
            .iter()
            .filter_map(|task| task.id.strip_prefix('T')?.parse::<usize>().ok())
            .max()
            .unwrap_or(0);
        let mut task = Task::new(next_free_id(last + 1, &taken), description);
        task.priority = priority;
        task.depends_on = depends_on;
        task.created_at = Some(local_iso(now));
        task.metadata = metadata;
        let at = match after {
            None => plan.tasks.len(),
            Some(after) => plan
                .tasks
                .iter()
                .position(|other| other.id == after.trim())
                .map(|index| index + 1)
                .ok_or_else(|| format!("after_task_id not found: {after}"))?,
        };
        plan.tasks.insert(at, task.clone());
        validate(&plan.tasks).map_err(|error| explain(&error))?;
        self.commit(plan, now);
        Ok(json!({"task": task.to_value()}))
    }

    pub(super) fn update_status(&mut self, args: &Args, now: Timestamp) -> Result<Value, String> {
        let id = args.required_text("task_id")?;
        let wanted = args.required_text("status")?;
        let status = TaskStatus::from_name(&wanted).ok_or_else(|| {
            format!(
                "Invalid status '{wanted}'. Must be one of: {}",
                TaskStatus::NAMES.join(", ")
            )
        })?;
        let notes = args
            .text("completion_notes")?
            .filter(|notes| !notes.trim().is_empty());
        let mut plan = self.plan.clone().ok_or(NO_PLAN)?;
        let index = plan
            .tasks
            .iter()
            .position(|task| task.id == id)
            .ok_or_else(|| not_found(&plan, &id))?;
        let before = plan.tasks[index].status;
        if status == TaskStatus::Verified && !before.is_done() {
            return Err(format!(
                "Cannot mark task {id} verified while it is {}: the flow is pending → \
                 in_progress → completed → verified. Mark it completed first, check that it \
                 really works, then mark it verified.",
                before.name()
            ));
        }
        let stamp = local_iso(now);
        let task = &mut plan.tasks[index];
        task.status = status;
        let notes_key = match status {
            TaskStatus::Completed => {
                task.completed_at = Some(stamp);
                task.verified_at = None;
                "completion_notes"
            }
            TaskStatus::Verified => {
                task.completed_at.get_or_insert_with(|| stamp.clone());
                task.verified_at = Some(stamp);
                "verification_notes"
            }
            TaskStatus::Pending | TaskStatus::InProgress | TaskStatus::Blocked => {
                task.completed_at = None;
                task.verified_at = None;
                "notes"
            }
        };
        if let Some(notes) = notes {
            task.metadata.insert(notes_key.into(), Value::String(notes));
        }
        let task = plan.tasks[index].clone();
        let mut result = json!({"task": task.to_value()});
        let Value::Object(fields) = &mut result else {
            return Err("internal error: result is not an object".into());
        };
        if matches!(status, TaskStatus::InProgress | TaskStatus::Completed) {
            let unmet: Vec<String> = plan
                .unmet(&task)
                .into_iter()
                .map(|dependency| {
                    let state = plan
                        .task(&dependency)
                        .map_or("missing", |other| other.status.name());
                    format!("{dependency} ({state})")
                })
                .collect();
            if !unmet.is_empty() {
                fields.insert(
                    "warning".into(),
                    json!(format!("dependencies not done yet: {}", unmet.join(", "))),
                );
            }
        }
        if status == TaskStatus::Completed {
            let newly_ready: Vec<Value> = plan
                .ready()
                .into_iter()
                .filter(|other| !before.is_done() && other.depends_on.contains(&task.id))
                .map(Task::to_value)
                .collect();
            fields.insert("newly_ready_tasks".into(), Value::Array(newly_ready));
            if let Some(verification) = task.meta_str("verification") {
                fields.insert("verification_pending".into(), Value::Bool(true));
                fields.insert("verification".into(), json!(verification));
                if let Some(method) = task.meta_str("verification_method") {
                    fields.insert("verification_method".into(), json!(method));
                }
                let unverified = plan
                    .tasks
                    .iter()
                    .filter(|other| {
                        other.status == TaskStatus::Completed
                            && other.metadata.contains_key("verification")
                    })
                    .count();
                fields.insert("unverified_count".into(), json!(unverified));
            }
        }
        self.commit(plan, now);
        Ok(result)
    }

    pub(super) fn edit(&mut self, args: &Args, now: Timestamp) -> Result<Value, String> {
        let id = args.required_text("task_id")?;
        let description = args.text("description")?;
        let priority = args.priority()?;
        let depends_on = args.ids("depends_on")?;
        if description.is_none() && priority.is_none() && depends_on.is_none() {
            return Err("nothing to change: give `description`, `priority` or `depends_on`".into());
        }
        let mut plan = self.plan.clone().ok_or(NO_PLAN)?;
        let index = plan
            .tasks
            .iter()
            .position(|task| task.id == id)
            .ok_or_else(|| not_found(&plan, &id))?;
        let task = &mut plan.tasks[index];
        if let Some(description) = description {
            if description.trim().is_empty() {
                return Err("`description` must not be empty".into());
            }
            task.description = description.trim().to_string();
        }
        if let Some(priority) = priority {
            task.priority = priority;
        }
        if let Some(depends_on) = depends_on {
            task.depends_on = depends_on;
        }
        let task = task.clone();
        validate(&plan.tasks).map_err(|error| explain(&error))?;
        self.commit(plan, now);
        Ok(json!({"task": task.to_value()}))
    }

    pub(super) fn delete(&mut self, args: &Args, now: Timestamp) -> Result<Value, String> {
        let id = args.required_text("task_id")?;
        let mut plan = self.plan.clone().ok_or(NO_PLAN)?;
        let index = plan
            .tasks
            .iter()
            .position(|task| task.id == id)
            .ok_or_else(|| not_found(&plan, &id))?;
        let dependants: Vec<&str> = plan
            .tasks
            .iter()
            .filter(|task| task.depends_on.contains(&id))
            .map(|task| task.id.as_str())
            .collect();
        match dependants.as_slice() {
            [] => {}
            [one] => {
                return Err(format!(
                    "Cannot delete task {id}: task {one} depends on it. Remove {id} from its \
                     depends_on with edit_task first, or delete {one} too."
                ));
            }
            many => {
                return Err(format!(
                    "Cannot delete task {id}: tasks {} depend on it. Remove {id} from their \
                     depends_on with edit_task first.",
                    many.join(", ")
                ));
            }
        }
        plan.tasks.remove(index);
        self.commit(plan, now);
        Ok(json!({"deleted_task_id": id}))
    }
}
