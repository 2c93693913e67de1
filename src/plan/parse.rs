//! Reading plan files (`project_plan.json`, `plan.json`, TaskPlan files) into tasks, and
//! checking a task list: unique ids, descriptions, known dependencies, no cycle.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::error::PlanError;
use super::task::Task;
use crate::protocol::{TaskPriority, TaskStatus};

/// The most tasks any plan may hold, whatever the config says: five times the deep
/// planning target (100-200), so no real plan meets it, while every plan massgen reads,
/// checks and serves stays small enough to handle at once.
pub const MAX_PLAN_TASKS: usize = 1000;

/// Reads a plan: `{"tasks":[…]}`, a whole TaskPlan object, or a bare array of tasks.
/// Tasks without an id get `T001`, `T002`… by position, skipping ids already taken.
/// Does not check dependencies: see [`validate`].
pub fn parse_plan(text: &str) -> Result<Vec<Task>, PlanError> {
    let value = parse_json(text)?;
    Ok(parse_document(value)?.tasks)
}

/// A plan file's tasks and, for TaskPlan files, its own fields.
pub(crate) struct Document {
    pub tasks: Vec<Task>,
    pub agent_id: Option<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
}

pub(crate) fn parse_json(text: &str) -> Result<Value, PlanError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str(text).map_err(|error| {
        let full = error.to_string();
        let suffix = format!(" at line {} column {}", error.line(), error.column());
        PlanError::NotJson {
            line: error.line(),
            column: error.column(),
            message: full.strip_suffix(&suffix).unwrap_or(&full).to_string(),
        }
    })
}

pub(crate) fn parse_document(value: Value) -> Result<Document, PlanError> {
    let mut document = Document {
        tasks: Vec::new(),
        agent_id: None,
        created_at: None,
        updated_at: None,
    };
    let mut items = match value {
        Value::Array(items) => items,
        Value::Object(mut object) => {
            let text = |value: Option<Value>| match value {
                Some(Value::String(text)) => Some(text),
                _ => None,
            };
            document.agent_id = text(object.remove("agent_id"));
            document.created_at = text(object.remove("created_at"));
            document.updated_at = text(object.remove("updated_at"));
            match object.remove("tasks") {
                Some(Value::Array(items)) => items,
                _ => return Err(PlanError::NoTasks),
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {
            return Err(PlanError::NoTasks);
        }
    };
    if items.is_empty() {
        return Err(PlanError::Empty);
    }
    if items.len() > MAX_PLAN_TASKS {
        return Err(PlanError::TooManyTasks {
            count: items.len(),
            max: MAX_PLAN_TASKS,
        });
    }
    assign_ids(&mut items);
    for (index, item) in items.into_iter().enumerate() {
        match item {
            Value::Object(object) => document.tasks.push(task_from_object(object, index)?),
            other => {
                return Err(PlanError::NotAnObject {
                    index,
                    found: kind(&other),
                });
            }
        }
    }
    Ok(document)
}

/// "a string", "an array"…: what a JSON value is, for messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A usable explicit id: a non-blank string or a number.
pub(crate) fn explicit_id(value: Option<&Value>) -> Option<String> {
    match value {
        Some(Value::String(text)) if !text.trim().is_empty() => Some(text.trim().to_string()),
        Some(Value::Number(number)) => Some(number.to_string()),
        _ => None,
    }
}

/// Gives every object without an `id` (or with a blank one) one of `T001`, `T002`…,
/// numbered by position and never an id another task already has.
pub(crate) fn assign_ids(items: &mut [Value]) {
    let mut taken: HashSet<String> = items
        .iter()
        .filter_map(|item| explicit_id(item.get("id")))
        .collect();
    for (index, item) in items.iter_mut().enumerate() {
        let Value::Object(object) = item else {
            continue;
        };
        let missing = match object.get("id") {
            None | Some(Value::Null) => true,
            Some(Value::String(text)) => text.trim().is_empty(),
            Some(_) => false,
        };
        if !missing {
            continue;
        }
        let id = next_free_id(index + 1, &taken);
        taken.insert(id.clone());
        object.insert("id".into(), Value::String(id));
    }
}

/// `T{n:03}` for the first `n >= from` not in `taken`.
pub(crate) fn next_free_id(from: usize, taken: &HashSet<String>) -> String {
    (from..)
        .map(|number| format!("T{number:03}"))
        .find(|id| !taken.contains(id))
        .unwrap_or_default()
}

/// One task from its JSON object; keys that are not task fields go into `metadata`.
pub(crate) fn task_from_object(
    mut object: Map<String, Value>,
    index: usize,
) -> Result<Task, PlanError> {
    let Some(id) = explicit_id(object.get("id")) else {
        return Err(PlanError::InvalidField {
            index,
            id: None,
            field: "id",
            expected: "a non-empty string or a number",
        });
    };
    object.remove("id");
    let invalid = |field, expected| PlanError::InvalidField {
        index,
        id: Some(id.clone()),
        field,
        expected,
    };
    let description = ["description", "title", "name"]
        .into_iter()
        .find_map(|key| match object.get(key) {
            Some(Value::String(text)) if !text.trim().is_empty() => {
                Some((key, text.trim().to_string()))
            }
            _ => None,
        });
    let Some((key, description)) = description else {
        return Err(PlanError::MissingDescription {
            index,
            id: Some(id),
        });
    };
    object.remove(key);
    if key != "description" {
        object.remove("description");
    }
    let status = match object.remove("status") {
        None | Some(Value::Null) => TaskStatus::Pending,
        Some(value) => status_named(&value).ok_or_else(|| PlanError::BadStatus {
            index,
            id: Some(id.clone()),
            value: shown(&value),
        })?,
    };
    let priority = match object.remove("priority") {
        None | Some(Value::Null) => TaskPriority::Medium,
        Some(value) => priority_named(&value).ok_or_else(|| PlanError::BadPriority {
            index,
            id: Some(id.clone()),
            value: shown(&value),
        })?,
    };
    let depends_on = match (object.remove("depends_on"), object.remove("dependencies")) {
        (Some(value), _) if !value.is_null() => id_list(value),
        (_, Some(value)) => id_list(value),
        (_, None) => Some(Vec::new()),
    }
    .ok_or_else(|| invalid("depends_on", "an array of task ids"))?;
    let mut metadata = match object.remove("metadata") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(metadata)) => metadata,
        Some(_) => return Err(invalid("metadata", "an object")),
    };
    let mut stamp = |key: &str| match object.remove(key) {
        Some(Value::String(text)) if !text.is_empty() => Some(text),
        _ => None,
    };
    let (created_at, completed_at, verified_at) = (
        stamp("created_at"),
        stamp("completed_at"),
        stamp("verified_at"),
    );
    for (key, value) in object {
        if key != "execution" || value.is_object() {
            metadata.entry(key).or_insert(value);
        }
    }
    Ok(Task {
        id,
        description,
        status,
        priority,
        depends_on,
        created_at,
        completed_at,
        verified_at,
        metadata,
    })
}

fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Ids from an array of strings or numbers (or one string); `None` for anything else.
/// Blank entries are dropped, repeats kept once.
pub(crate) fn id_list(value: Value) -> Option<Vec<String>> {
    let items = match value {
        Value::Null => Vec::new(),
        Value::Array(items) => items,
        single @ (Value::String(_) | Value::Number(_)) => vec![single],
        Value::Bool(_) | Value::Object(_) => return None,
    };
    let mut ids: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for item in items {
        let id = match item {
            Value::String(text) => text.trim().to_string(),
            Value::Number(number) => number.to_string(),
            _ => return None,
        };
        if !id.is_empty() && seen.insert(id.clone()) {
            ids.push(id);
        }
    }
    Some(ids)
}

fn words(value: &Value) -> Option<String> {
    let text = value.as_str()?;
    Some(text.trim().to_ascii_lowercase().replace(['-', ' '], "_"))
}

/// A status name in a plan file, with the usual synonyms (`todo`, `done`, `in-progress`…).
pub(crate) fn status_named(value: &Value) -> Option<TaskStatus> {
    match words(value)?.as_str() {
        "pending" | "todo" | "to_do" | "not_started" | "open" => Some(TaskStatus::Pending),
        "in_progress" | "inprogress" | "started" | "doing" | "active" => {
            Some(TaskStatus::InProgress)
        }
        "completed" | "complete" | "done" | "finished" => Some(TaskStatus::Completed),
        "verified" => Some(TaskStatus::Verified),
        "blocked" => Some(TaskStatus::Blocked),
        _ => None,
    }
}

/// A priority name in a plan file, with the usual synonyms (`critical`, `p0`, `normal`…).
pub(crate) fn priority_named(value: &Value) -> Option<TaskPriority> {
    match words(value)?.as_str() {
        "low" | "minor" | "p3" | "p4" => Some(TaskPriority::Low),
        "medium" | "med" | "normal" | "moderate" | "p2" => Some(TaskPriority::Medium),
        "high" | "critical" | "urgent" | "p0" | "p1" => Some(TaskPriority::High),
        _ => None,
    }
}

/// Checks a task list: non-blank ids and descriptions, unique ids, every dependency a task
/// of the list and not the task itself, and no dependency cycle.
pub fn validate(tasks: &[Task]) -> Result<(), PlanError> {
    let mut index_of: HashMap<&str, usize> = HashMap::new();
    for (index, task) in tasks.iter().enumerate() {
        if task.id.trim().is_empty() {
            return Err(PlanError::InvalidField {
                index,
                id: None,
                field: "id",
                expected: "a non-empty string or a number",
            });
        }
        if task.description.trim().is_empty() {
            return Err(PlanError::MissingDescription {
                index,
                id: Some(task.id.clone()),
            });
        }
        if let Some(first) = index_of.insert(&task.id, index) {
            return Err(PlanError::DuplicateId {
                id: task.id.clone(),
                first,
                second: index,
            });
        }
    }
    for task in tasks {
        for dependency in &task.depends_on {
            if *dependency == task.id {
                return Err(PlanError::SelfDependency {
                    task: task.id.clone(),
                });
            }
            if !index_of.contains_key(dependency.as_str()) {
                return Err(PlanError::UnknownDependency {
                    task: task.id.clone(),
                    dependency: dependency.clone(),
                });
            }
        }
    }
    match find_cycle(tasks, &index_of) {
        Some(path) => Err(PlanError::Cycle { path }),
        None => Ok(()),
    }
}

/// The first cycle met walking `depends_on` from each task in order, as ids from the task
/// where it closes back round to that task again. Dependencies must all be known.
fn find_cycle(tasks: &[Task], index_of: &HashMap<&str, usize>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Unseen,
        OnPath,
        Done,
    }
    let mut marks = vec![Mark::Unseen; tasks.len()];
    for start in 0..tasks.len() {
        if marks[start] != Mark::Unseen {
            continue;
        }
        marks[start] = Mark::OnPath;
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        while let Some((node, next)) = path.last_mut() {
            let node = *node;
            let Some(dependency) = tasks[node].depends_on.get(*next) else {
                marks[node] = Mark::Done;
                path.pop();
                continue;
            };
            *next += 1;
            let Some(&target) = index_of.get(dependency.as_str()) else {
                continue;
            };
            match marks[target] {
                Mark::Unseen => {
                    marks[target] = Mark::OnPath;
                    path.push((target, 0));
                }
                Mark::OnPath => {
                    let from = path.iter().position(|(step, _)| *step == target)?;
                    let mut cycle: Vec<String> = path[from..]
                        .iter()
                        .map(|(step, _)| tasks[*step].id.clone())
                        .collect();
                    cycle.push(tasks[target].id.clone());
                    return Some(cycle);
                }
                Mark::Done => {}
            }
        }
    }
    None
}
