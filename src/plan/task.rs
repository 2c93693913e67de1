//! The task model: [`Task`] and [`TaskPlan`], written and read as MassGen's `Task.to_dict`
//! and `TaskPlan.to_dict`, and the ready/blocked rules over them.

use std::collections::HashSet;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::protocol::{TaskPriority, TaskProgress, TaskStatus, TaskView};

/// One task of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub id: String,
    pub description: String,
    pub status: TaskStatus,
    pub priority: TaskPriority,
    /// Ids of the tasks that must be completed or verified before this one starts.
    pub depends_on: Vec<String>,
    /// Local time without zone (`2026-11-24T17:40:01.123456`), as MassGen writes it.
    pub created_at: Option<String>,
    pub completed_at: Option<String>,
    pub verified_at: Option<String>,
    /// `verification`, `verification_method`, `verification_group`, `completion_notes`,
    /// `verification_notes`, and any other key a plan file gave the task.
    pub metadata: Map<String, Value>,
}

impl Task {
    pub fn new(id: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            description: description.into(),
            status: TaskStatus::Pending,
            priority: TaskPriority::Medium,
            depends_on: Vec::new(),
            created_at: None,
            completed_at: None,
            verified_at: None,
            metadata: Map::new(),
        }
    }

    pub fn view(&self) -> TaskView {
        TaskView {
            id: self.id.clone(),
            description: self.description.clone(),
            status: self.status,
            priority: self.priority,
            depends_on: self.depends_on.clone(),
        }
    }

    /// A string entry of `metadata`, if present.
    pub fn meta_str(&self, key: &str) -> Option<&str> {
        self.metadata.get(key).and_then(Value::as_str)
    }

    /// The task as a JSON value (MassGen's `Task.to_dict`).
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

#[derive(Serialize)]
struct TaskDict<'a> {
    id: &'a str,
    description: &'a str,
    status: TaskStatus,
    priority: TaskPriority,
    created_at: &'a Option<String>,
    completed_at: &'a Option<String>,
    verified_at: &'a Option<String>,
    dependencies: &'a [String],
    metadata: &'a Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    execution: Option<&'a Value>,
}

impl Serialize for Task {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        TaskDict {
            id: &self.id,
            description: &self.description,
            status: self.status,
            priority: self.priority,
            created_at: &self.created_at,
            completed_at: &self.completed_at,
            verified_at: &self.verified_at,
            dependencies: &self.depends_on,
            metadata: &self.metadata,
            execution: self
                .metadata
                .get("execution")
                .filter(|value| value.is_object()),
        }
        .serialize(serializer)
    }
}

/// One task as the plan file (`plan.json`, `project_plan.json`) writes it: `depends_on`,
/// and timestamps only when set.
#[derive(Serialize)]
struct PlanFileTask<'a> {
    id: &'a str,
    description: &'a str,
    status: TaskStatus,
    priority: TaskPriority,
    depends_on: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    created_at: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    completed_at: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verified_at: &'a Option<String>,
    metadata: &'a Map<String, Value>,
}

#[derive(Serialize)]
struct PlanFile<'a> {
    tasks: Vec<PlanFileTask<'a>>,
}

/// `{"tasks":[…]}` with `depends_on` keys, pretty and newline-terminated: the plan file
/// format MassGen's planners write and its execution loads.
pub fn plan_file_bytes(tasks: &[Task]) -> Vec<u8> {
    let file = PlanFile {
        tasks: tasks
            .iter()
            .map(|task| PlanFileTask {
                id: &task.id,
                description: &task.description,
                status: task.status,
                priority: task.priority,
                depends_on: &task.depends_on,
                created_at: &task.created_at,
                completed_at: &task.completed_at,
                verified_at: &task.verified_at,
                metadata: &task.metadata,
            })
            .collect(),
    };
    let mut bytes = serde_json::to_vec_pretty(&file).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// One agent's task plan (`tasks/plan.json` in MassGen's full format).
#[derive(Clone, Debug, PartialEq)]
pub struct TaskPlan {
    pub agent_id: String,
    pub tasks: Vec<Task>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Serialize)]
struct TaskPlanDict<'a> {
    agent_id: &'a str,
    tasks: &'a [Task],
    created_at: &'a str,
    updated_at: &'a str,
    subagents: Map<String, Value>,
}

impl Serialize for TaskPlan {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        TaskPlanDict {
            agent_id: &self.agent_id,
            tasks: &self.tasks,
            created_at: &self.created_at,
            updated_at: &self.updated_at,
            subagents: Map::new(),
        }
        .serialize(serializer)
    }
}

impl TaskPlan {
    /// MassGen's full-format `tasks/plan.json`: pretty JSON, newline-terminated.
    pub fn file_bytes(&self) -> Option<Vec<u8>> {
        let mut bytes = serde_json::to_vec_pretty(self).ok()?;
        bytes.push(b'\n');
        Some(bytes)
    }

    pub fn task(&self, id: &str) -> Option<&Task> {
        self.tasks.iter().find(|task| task.id == id)
    }

    pub fn views(&self) -> Vec<TaskView> {
        self.tasks.iter().map(Task::view).collect()
    }

    /// Whether the task named `id` exists and is completed or verified.
    pub fn is_done(&self, id: &str) -> bool {
        self.task(id).is_some_and(|task| task.status.is_done())
    }

    /// The ids of the completed and verified tasks: one pass, so that checking every
    /// task's dependencies against it stays linear in the size of the plan.
    fn done_ids(&self) -> HashSet<&str> {
        self.tasks
            .iter()
            .filter(|task| task.status.is_done())
            .map(|task| task.id.as_str())
            .collect()
    }

    /// The dependencies of `task` that are not completed or verified (unknown ones too).
    pub fn unmet(&self, task: &Task) -> Vec<String> {
        unmet_in(&self.done_ids(), task)
    }

    /// Pending tasks whose every dependency is completed or verified.
    pub fn ready(&self) -> Vec<&Task> {
        let done = self.done_ids();
        self.tasks
            .iter()
            .filter(|task| task.status == TaskStatus::Pending)
            .filter(|task| {
                task.depends_on
                    .iter()
                    .all(|dependency| done.contains(dependency.as_str()))
            })
            .collect()
    }

    /// Pending tasks with unmet dependencies, and those dependencies. Tasks whose status is
    /// `blocked` are not listed (as in MassGen).
    pub fn blocked(&self) -> Vec<(&Task, Vec<String>)> {
        let done = self.done_ids();
        self.tasks
            .iter()
            .filter(|task| task.status == TaskStatus::Pending)
            .filter_map(|task| {
                let unmet = unmet_in(&done, task);
                (!unmet.is_empty()).then_some((task, unmet))
            })
            .collect()
    }

    pub fn progress(&self) -> TaskProgress {
        TaskProgress::of(&self.views())
    }
}

fn unmet_in(done: &HashSet<&str>, task: &Task) -> Vec<String> {
    task.depends_on
        .iter()
        .filter(|dependency| !done.contains(dependency.as_str()))
        .cloned()
        .collect()
}

/// `ts` in local time without zone, microseconds always shown: how MassGen stamps tasks,
/// plans and log lines.
pub(crate) fn local_iso(ts: jiff::Timestamp) -> String {
    ts.to_zoned(crate::local_time::zone())
        .strftime("%Y-%m-%dT%H:%M:%S%.6f")
        .to_string()
}

#[cfg(test)]
#[path = "task_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "ceiling_tests.rs"]
mod ceiling_tests;
