//! `create_task_plan`: a whole list checked at once (ids generated, indices resolved, a DAG
//! within the limit), replacing a plan only while none of its tasks has started.

use std::collections::HashSet;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::TaskPlanner;
use super::args::Args;
use super::edit::{counts, explain};
use crate::plan::parse::{assign_ids, explicit_id, kind, task_from_object, validate};
use crate::plan::task::{Task, TaskPlan, local_iso};
use crate::protocol::TaskStatus;

impl TaskPlanner {
    pub(super) fn create(&mut self, args: &Args, now: Timestamp) -> Result<Value, String> {
        let items = match args.get("tasks") {
            None => {
                return Err("missing required argument `tasks` (an array of task objects)".into());
            }
            Some(Value::Array(items)) => items.clone(),
            Some(other) => {
                return Err(format!(
                    "`tasks` must be an array of task objects, not {}",
                    kind(other)
                ));
            }
        };
        if items.is_empty() {
            return Err("`tasks` is empty: give at least one task".into());
        }
        let existing = self.plan.as_ref().map_or(&[][..], |plan| &plan.tasks[..]);
        if existing
            .iter()
            .any(|task| task.status != TaskStatus::Pending)
        {
            return Err(format!(
                "A task plan already exists with {} tasks {}. Call clear_task_plan first to \
                 replace it, or change it with add_task, edit_task and update_task_status.",
                existing.len(),
                counts(existing)
            ));
        }
        let replaced = !existing.is_empty();
        self.too_many(items.len())?;
        let tasks = tasks_from_items(items, &local_iso(now))?;
        validate(&tasks).map_err(|error| explain(&error))?;
        let plan = TaskPlan {
            agent_id: self.agent_id.clone(),
            tasks,
            created_at: local_iso(now),
            updated_at: local_iso(now),
        };
        let mut result = json!({
            "plan_id": self.agent_id,
            "tasks": plan.tasks.iter().map(Task::to_value).collect::<Vec<_>>(),
            "summary": {
                "total_tasks": plan.tasks.len(),
                "ready_tasks": plan.ready().len(),
                "blocked_tasks": plan.blocked().len(),
            },
        });
        if replaced && let Value::Object(fields) = &mut result {
            fields.insert("replaced_existing_plan".into(), Value::Bool(true));
        }
        self.commit(plan, now);
        Ok(result)
    }
}

/// `create_task_plan`'s list as tasks: strings become descriptions, missing ids are
/// generated, `depends_on` indices (numbers, or digit strings naming no task) become ids.
fn tasks_from_items(items: Vec<Value>, stamp: &str) -> Result<Vec<Task>, String> {
    let mut items: Vec<Value> = items
        .into_iter()
        .enumerate()
        .map(|(index, item)| match item {
            Value::String(text) => Ok(json!({"description": text})),
            object @ Value::Object(_) => Ok(object),
            other => Err(format!(
                "task at index {index} is {}; give an object with a `description` (or a plain string)",
                kind(&other)
            )),
        })
        .collect::<Result<_, _>>()?;
    assign_ids(&mut items);
    let ids: Vec<String> = items
        .iter()
        .map(|item| explicit_id(item.get("id")).unwrap_or_default())
        .collect();
    let known: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let mut tasks = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        let Value::Object(mut object) = item else {
            continue;
        };
        for key in ["depends_on", "dependencies"] {
            if let Some(Value::Array(entries)) = object.get_mut(key) {
                for entry in entries.iter_mut() {
                    let position = match entry {
                        Value::Number(number) => Some(number.as_u64().ok_or_else(|| {
                            format!(
                                "task {}: depends_on entry {number} is not a task index (0, 1, 2…)",
                                ids[index]
                            )
                        })?),
                        Value::String(text) if !known.contains(text.trim()) => {
                            text.trim().parse::<u64>().ok()
                        }
                        _ => None,
                    };
                    if let Some(position) = position {
                        let target = usize::try_from(position).ok().and_then(|at| ids.get(at)).ok_or_else(|| {
                            format!(
                                "task {}: depends_on index {position} is out of range (this list has {} tasks, indices 0 to {})",
                                ids[index],
                                ids.len(),
                                ids.len() - 1
                            )
                        })?;
                        *entry = Value::String(target.clone());
                    }
                }
            }
        }
        let mut task = task_from_object(object, index).map_err(|error| explain(&error))?;
        task.created_at.get_or_insert_with(|| stamp.to_string());
        tasks.push(task);
    }
    Ok(tasks)
}
