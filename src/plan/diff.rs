//! How an executed task list diverged from its frozen plan (`plan_diff.json`).
//!
//! Unlike MassGen, only description, priority and `depends_on` changes count as
//! modifications: status, timestamps and notes are what execution is supposed to change, so
//! a plan carried out exactly scores 0.0 (MassGen's whole-task comparison scores about 1.0).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::task::Task;

/// `plan_diff.json`, field for field as MassGen writes it: added and removed tasks by id.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanDiff {
    #[serde(default)]
    pub tasks_added: Vec<String>,
    #[serde(default)]
    pub tasks_removed: Vec<String>,
    #[serde(default)]
    pub tasks_modified: Vec<Modified>,
    #[serde(default)]
    pub divergence_score: f64,
}

/// A task both lists have, changed in description, priority or dependencies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Modified {
    pub id: String,
    pub original: Task,
    pub modified: Task,
}

impl PlanDiff {
    pub fn is_empty(&self) -> bool {
        self.tasks_added.is_empty()
            && self.tasks_removed.is_empty()
            && self.tasks_modified.is_empty()
    }
}

fn dependency_set(task: &Task) -> HashSet<&str> {
    task.depends_on.iter().map(String::as_str).collect()
}

fn same_plan_fields(a: &Task, b: &Task) -> bool {
    a.description == b.description
        && a.priority == b.priority
        && dependency_set(a) == dependency_set(b)
}

/// Added (executed order), removed (frozen order) and modified tasks, and
/// `divergence_score = min(1, changes / frozen count)` (0.0 for an empty frozen plan).
pub fn diff(frozen: &[Task], executed: &[Task]) -> PlanDiff {
    let frozen_by_id: HashMap<&str, &Task> =
        frozen.iter().map(|task| (task.id.as_str(), task)).collect();
    let executed_by_id: HashMap<&str, &Task> = executed
        .iter()
        .map(|task| (task.id.as_str(), task))
        .collect();
    let mut result = PlanDiff {
        tasks_added: executed
            .iter()
            .filter(|task| !frozen_by_id.contains_key(task.id.as_str()))
            .map(|task| task.id.clone())
            .collect(),
        ..PlanDiff::default()
    };
    for task in frozen {
        match executed_by_id.get(task.id.as_str()) {
            None => result.tasks_removed.push(task.id.clone()),
            Some(done) if !same_plan_fields(task, done) => result.tasks_modified.push(Modified {
                id: task.id.clone(),
                original: task.clone(),
                modified: (*done).clone(),
            }),
            Some(_) => {}
        }
    }
    if !frozen.is_empty() {
        let changes =
            result.tasks_added.len() + result.tasks_removed.len() + result.tasks_modified.len();
        result.divergence_score = (changes as f64 / frozen.len() as f64).min(1.0);
    }
    result
}
