//! What can be wrong with a task plan, where, and how to fix it.

use std::path::PathBuf;

/// A plan file or task list that cannot be used. Messages say what and where (task index
/// and id); [`PlanError::help`] says how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("the plan is not valid JSON (line {line}, column {column}): {message}")]
    NotJson {
        line: usize,
        column: usize,
        message: String,
    },
    #[error(
        "the plan has no `tasks` array (expected {{\"tasks\": [...]}}, a task-plan object or an array of tasks)"
    )]
    NoTasks,
    #[error("the plan has no tasks: its `tasks` array is empty")]
    Empty,
    #[error("{}: it is {found}, not an object", at(*.index, &None))]
    NotAnObject { index: usize, found: &'static str },
    #[error("{}: it has no description", at(*.index, .id))]
    MissingDescription { index: usize, id: Option<String> },
    #[error("{}: `{field}` must be {expected}", at(*.index, .id))]
    InvalidField {
        index: usize,
        id: Option<String>,
        field: &'static str,
        expected: &'static str,
    },
    #[error("task id `{id}` is used twice (tasks at index {first} and {second})")]
    DuplicateId {
        id: String,
        first: usize,
        second: usize,
    },
    #[error("task `{task}` depends on `{dependency}`, which is not a task of this plan")]
    UnknownDependency { task: String, dependency: String },
    #[error("task `{task}` depends on itself")]
    SelfDependency { task: String },
    #[error("the dependencies form a cycle: {}", .path.join(" → "))]
    Cycle { path: Vec<String> },
    #[error("{}: status `{value}` is not one of {}", at(*.index, .id), STATUS_LIST)]
    BadStatus {
        index: usize,
        id: Option<String>,
        value: String,
    },
    #[error("{}: priority `{value}` is not one of low, medium, high", at(*.index, .id))]
    BadPriority {
        index: usize,
        id: Option<String>,
        value: String,
    },
    #[error("the plan has {count} tasks, more than the limit of {max}")]
    TooManyTasks { count: usize, max: usize },
    #[error("cannot read {}: {message}", .path.display())]
    Unreadable { path: PathBuf, message: String },
}

const STATUS_LIST: &str = "pending, in_progress, completed, verified, blocked";

fn at(index: usize, id: &Option<String>) -> String {
    match id {
        Some(id) => format!("task at index {index} (`{id}`)"),
        None => format!("task at index {index}"),
    }
}

impl PlanError {
    /// One concrete sentence on how to fix the plan.
    pub fn help(&self) -> String {
        match self {
            Self::NotJson { line, column, .. } => format!(
                "fix the JSON near line {line}, column {column} (usually a missing comma, quote or \
                 bracket, or a trailing comma) and write the file again"
            ),
            Self::NoTasks => "write the plan as {\"tasks\": [{\"id\": \"T001\", \"description\": \
                              \"...\", \"depends_on\": []}, ...]}"
                .into(),
            Self::Empty => "add at least one task to the `tasks` array".into(),
            Self::NotAnObject { .. } => {
                "write each task as an object such as {\"id\": \"T001\", \"description\": \"...\"}"
                    .into()
            }
            Self::MissingDescription { .. } => {
                "give the task a non-empty `description` string saying what to do".into()
            }
            Self::InvalidField {
                field, expected, ..
            } => format!("give `{field}` as {expected}, or leave it out"),
            Self::DuplicateId { id, .. } => format!(
                "give every task its own `id`: rename one of the `{id}` tasks and update the \
                 `depends_on` lists that mean it"
            ),
            Self::UnknownDependency { task, dependency } => format!(
                "add a task with id `{dependency}`, or remove `{dependency}` from the `depends_on` \
                 of `{task}`"
            ),
            Self::SelfDependency { task } => {
                format!("remove `{task}` from its own `depends_on`")
            }
            Self::Cycle { .. } => "remove one of these dependencies so `depends_on` forms a DAG \
                                  (a task may only depend on work that can finish before it starts)"
                .into(),
            Self::BadStatus { .. } => {
                format!("use one of {STATUS_LIST}; the tasks of a new plan are all `pending`")
            }
            Self::BadPriority { .. } => "use one of low, medium, high".into(),
            Self::TooManyTasks { max, .. } => format!(
                "merge closely related steps into single tasks, or split the work into separate \
                 plans of at most {max} tasks each"
            ),
            Self::Unreadable { .. } => {
                "check that the file exists and is a readable regular file, or plan again".into()
            }
        }
    }
}
