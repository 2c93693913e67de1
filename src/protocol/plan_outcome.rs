//! How far an executed plan got: its tasks' final states, counted once when execution ends
//! and read by every display, the saved plan and the exit code.

use serde::{Deserialize, Serialize};

use super::plan::{PlanStatus, TaskStatus, TaskView};

/// The final task states of an executed plan (the task file the winner updated). Named
/// on the wire and in `plan_metadata.json` as MassGen names a chunk's progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanOutcome {
    #[serde(rename = "total_tasks")]
    pub total: usize,
    /// Completed or verified.
    #[serde(rename = "completed_count")]
    pub done: usize,
    /// The tasks left open, in plan order, with where each stands.
    #[serde(rename = "open_tasks", default)]
    pub open: Vec<OpenTask>,
}

/// A task execution left unfinished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenTask {
    pub id: String,
    pub status: TaskStatus,
}

impl PlanOutcome {
    pub fn of(tasks: &[TaskView]) -> Self {
        Self {
            total: tasks.len(),
            done: tasks.iter().filter(|task| task.status.is_done()).count(),
            open: tasks
                .iter()
                .filter(|task| !task.status.is_done())
                .map(|task| OpenTask {
                    id: task.id.clone(),
                    status: task.status,
                })
                .collect(),
        }
    }

    /// Every task is completed or verified.
    pub fn is_finished(&self) -> bool {
        self.done == self.total
    }

    /// What a turn that completed made of the plan: `completed` only when no task is open.
    pub fn status(&self) -> PlanStatus {
        if self.is_finished() {
            PlanStatus::Completed
        } else {
            PlanStatus::Partial
        }
    }

    /// `1/3 tasks done`.
    pub fn done_words(&self) -> String {
        format!(
            "{}/{} task{} done",
            self.done,
            self.total,
            if self.total == 1 { "" } else { "s" }
        )
    }

    /// `T002 blocked, T003 pending`, at most `limit` of them, then `+N more`.
    pub fn open_words(&self, limit: usize) -> String {
        let mut words: Vec<String> = self
            .open
            .iter()
            .take(limit)
            .map(|task| format!("{} {}", task.id, task.status.name()))
            .collect();
        if self.open.len() > limit {
            words.push(format!("+{} more", self.open.len() - limit));
        }
        words.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::TaskPriority;

    fn task(id: &str, status: TaskStatus) -> TaskView {
        TaskView {
            id: id.into(),
            description: id.into(),
            status,
            priority: TaskPriority::Medium,
            depends_on: Vec::new(),
        }
    }

    #[test]
    fn a_plan_with_open_tasks_is_partial_and_names_them() {
        let outcome = PlanOutcome::of(&[
            task("T001", TaskStatus::Verified),
            task("T002", TaskStatus::Blocked),
            task("T003", TaskStatus::Pending),
        ]);
        assert_eq!((outcome.done, outcome.total), (1, 3));
        assert_eq!(outcome.status(), PlanStatus::Partial);
        assert_eq!(outcome.done_words(), "1/3 tasks done");
        assert_eq!(outcome.open_words(1), "T002 blocked, +1 more");
        let finished = PlanOutcome::of(&[task("T001", TaskStatus::Completed)]);
        assert_eq!(finished.status(), PlanStatus::Completed);
        assert_eq!(finished.done_words(), "1/1 task done");
    }
}
