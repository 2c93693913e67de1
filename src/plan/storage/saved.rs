//! One saved plan's directory: its metadata and log, where its plan file came from, and the
//! execution bookkeeping (status, replaced workspace, `plan_diff.json`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use walkdir::WalkDir;

use super::metadata::{PlanMetadata, append_log};
use super::tree::replace_dir;
use super::{METADATA, ResolveError};
use crate::bounded_file::{self, MIB};
use crate::plan::diff::{PlanDiff, diff};
use crate::plan::error::PlanError;
use crate::plan::parse::{parse_plan, validate};
use crate::plan::task::Task;
use crate::protocol::{PlanInfo, PlanOutcome, PlanStatus};
use crate::session::write_atomic;

/// The most bytes massgen reads of a plan file (`plan_metadata.json`, `plan.json`,
/// `project_plan.json`, `plan_diff.json`): a plan of the most tasks allowed, each with a
/// few KiB of description and notes, fits; a `/dev/zero` or a huge file does not.
pub const MAX_PLAN_FILE_BYTES: u64 = 8 * MIB;

/// A plan file's bytes, when it is a regular file (not a link: a plan directory cannot
/// point massgen at files elsewhere) of at most [`MAX_PLAN_FILE_BYTES`]. A FIFO or a device
/// is refused at once, without blocking. Errors say what is wrong with "it": the caller
/// names the file.
pub(crate) fn read_plan_file(path: &Path) -> io::Result<Vec<u8>> {
    if fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is a symbolic link; massgen reads plan files only as regular files inside the \
             plan's directory",
        ));
    }
    bounded_file::read(path, MAX_PLAN_FILE_BYTES).map_err(|error| {
        let message = error.to_string();
        match message.strip_prefix(&path.display().to_string()) {
            Some(rest) => io::Error::new(error.kind(), format!("it{rest}")),
            None => error,
        }
    })
}

/// How carrying out a plan ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecutionEnd {
    /// The turn completed: the plan is `completed`, or `partial` when tasks are left open.
    Completed,
    /// Cancelled or timed out: the plan goes back to `ready`, to be run again.
    Interrupted { reason: String },
    /// Nothing came of it (no agent produced an answer): the plan is `failed`.
    Failed { reason: String },
}

/// Where an executing agent keeps its task list, in its workspace (and so, once
/// executed, in the plan's `workspace/`).
const EXECUTED_TASKS: &str = "tasks/plan.json";

/// MassGen's record of why a plan may be resumed (kept with its other keys in `extra`).
const RESUMABLE_STATE: &str = "resumable_state";

/// A plan directory and its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedPlan {
    /// The directory name, `plan_<YYYYMMDD_HHMMSS_ffffff>`.
    pub id: String,
    pub dir: PathBuf,
    pub metadata: PlanMetadata,
}

/// Directories never searched for a plan file.
fn skipped(name: &str) -> bool {
    name.starts_with('.') || matches!(name, "node_modules" | "__pycache__" | "target" | "venv")
}

impl SavedPlan {
    /// Reads `dir`'s metadata, whatever the plan's status.
    pub(super) fn read(dir: &Path) -> Result<Self, ResolveError> {
        let id = dir
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let unreadable = |message: String| ResolveError::Unreadable {
            path: dir.to_path_buf(),
            message,
        };
        let bytes = read_plan_file(&dir.join(METADATA)).map_err(|error| {
            unreadable(if error.kind() == io::ErrorKind::NotFound {
                format!("it has no {METADATA}; is this a plan directory?")
            } else {
                format!("{METADATA}: {error}; this plan cannot be used: make a new one")
            })
        })?;
        let fallback = id.strip_prefix("plan_").unwrap_or(&id);
        let metadata = PlanMetadata::from_bytes(&bytes, fallback)
            .ok_or_else(|| unreadable(format!("{METADATA} is not a JSON object")))?;
        Ok(Self {
            id,
            dir: dir.to_path_buf(),
            metadata,
        })
    }

    /// The plan file the planners wrote: `project_plan.json` at the root, else in
    /// `deliverable/`, else the shallowest one below (hidden and dependency folders skipped;
    /// ties go to the first path in order).
    pub fn find_plan_file(workspace: &Path) -> Option<PathBuf> {
        // Not through links: the plan is what the agents wrote in their workspace.
        let deliverable = workspace.join("deliverable");
        let deliverable_is_dir =
            fs::symlink_metadata(&deliverable).is_ok_and(|metadata| metadata.is_dir());
        for candidate in [
            Some(workspace.join("project_plan.json")),
            deliverable_is_dir.then(|| deliverable.join("project_plan.json")),
        ]
        .into_iter()
        .flatten()
        {
            if fs::symlink_metadata(&candidate).is_ok_and(|metadata| metadata.is_file()) {
                return Some(candidate);
            }
        }
        WalkDir::new(workspace)
            .min_depth(1)
            .max_depth(12)
            .follow_links(false)
            .into_iter()
            .filter_entry(|entry| {
                entry.depth() == 0
                    || !(entry.file_type().is_dir()
                        && skipped(&entry.file_name().to_string_lossy()))
            })
            .flatten()
            .filter(|entry| entry.file_type().is_file() && entry.file_name() == "project_plan.json")
            .min_by(|a, b| {
                a.depth()
                    .cmp(&b.depth())
                    .then_with(|| a.path().cmp(b.path()))
            })
            .map(walkdir::DirEntry::into_path)
    }

    pub(super) fn write_metadata(&self) -> io::Result<()> {
        write_atomic(&self.dir.join(METADATA), &self.metadata.to_bytes())
    }

    /// Appends an event to `execution_log.jsonl`.
    pub fn log(&self, event_type: &str, data: Value) -> io::Result<()> {
        append_log(&self.dir.join("execution_log.jsonl"), event_type, data)
    }

    pub fn frozen_dir(&self) -> PathBuf {
        self.dir.join("frozen")
    }

    /// The tasks of `frozen/plan.json`, checked again as at finalising (ids, dependencies
    /// known and not the task itself, no cycle, at most [`MAX_PLAN_TASKS`] tasks): a plan
    /// directory may come with the repository, so nothing in it is taken on trust.
    ///
    /// [`MAX_PLAN_TASKS`]: crate::plan::MAX_PLAN_TASKS
    pub fn frozen_tasks(&self) -> Result<Vec<Task>, PlanError> {
        let frozen = self.frozen_dir();
        if fs::symlink_metadata(&frozen).is_ok_and(|metadata| metadata.file_type().is_symlink()) {
            return Err(PlanError::Unreadable {
                path: frozen,
                message: "it is a symbolic link; the frozen plan must be a directory of the \
                          plan itself"
                    .into(),
            });
        }
        let tasks = read_tasks(&frozen.join("plan.json"))?;
        validate(&tasks)?;
        Ok(tasks)
    }

    /// Marks the plan failed with `reason`, logging `planning_failed` (before execution
    /// started) or `execution_failed`.
    pub fn fail(&mut self, reason: &str) -> io::Result<()> {
        let event = match self.metadata.status {
            PlanStatus::Planning | PlanStatus::Ready => "planning_failed",
            PlanStatus::Executing
            | PlanStatus::Completed
            | PlanStatus::Partial
            | PlanStatus::Failed => "execution_failed",
        };
        self.metadata.status = PlanStatus::Failed;
        self.metadata.failure_reason = Some(reason.to_string());
        self.write_metadata()?;
        self.log(event, json!({"reason": reason}))
    }

    pub fn start_execution(
        &mut self,
        session_id: Option<String>,
        log_dir: Option<PathBuf>,
        question: &str,
    ) -> io::Result<()> {
        self.metadata.status = PlanStatus::Executing;
        self.metadata.execution_session_id = session_id;
        self.metadata.execution_log_dir = log_dir.map(|dir| dir.display().to_string());
        self.metadata.failure_reason = None;
        self.metadata.outcome = None;
        self.metadata.extra.remove(RESUMABLE_STATE);
        self.write_metadata()?;
        self.log("execution_started", json!({"question": question}))
    }

    /// Records the end of execution: `workspace/` becomes a copy of `executed_workspace`,
    /// `plan_diff.json` compares the frozen plan with the executed tasks
    /// (`<executed>/tasks/plan.json`, else `workspace/plan.json`), and the status follows
    /// from `end` and the executed tasks' final states ([`PlanOutcome`]): a completed turn
    /// that left tasks open makes the plan `partial`. The diff is `None` when either task
    /// list cannot be read.
    pub fn finish_execution(
        &mut self,
        executed_workspace: Option<&Path>,
        end: &ExecutionEnd,
    ) -> io::Result<Option<PlanDiff>> {
        if let Some(executed) = executed_workspace {
            replace_dir(
                executed,
                &self.dir.join("workspace"),
                &self.dir.join(".execute.tmp"),
            )?;
        }
        let task_file = executed_workspace
            .map(|executed| executed.join(EXECUTED_TASKS))
            .filter(|path| path.is_file());
        let executed_plan = task_file
            .clone()
            .unwrap_or_else(|| self.dir.join("workspace").join("plan.json"));
        let executed = read_tasks(&executed_plan);
        let computed = match (self.frozen_tasks(), &executed) {
            (Ok(frozen), Ok(executed)) => Some(diff(&frozen, executed)),
            _ => None,
        };
        if let Some(computed) = &computed {
            write_diff(&self.dir, computed)?;
            self.log(
                "diff_computed",
                serde_json::to_value(computed).unwrap_or(Value::Null),
            )?;
        }
        // Only the task list the agents worked on tells how far they got.
        let outcome = match (task_file, executed) {
            (Some(_), Ok(tasks)) => Some(PlanOutcome::of(
                &tasks.iter().map(Task::view).collect::<Vec<_>>(),
            )),
            _ => None,
        };
        self.metadata.outcome.clone_from(&outcome);
        let progress = serde_json::to_value(&outcome).unwrap_or(Value::Null);
        match end {
            ExecutionEnd::Completed => {
                let status = outcome
                    .as_ref()
                    .map_or(PlanStatus::Completed, PlanOutcome::status);
                self.metadata.status = status;
                self.metadata.failure_reason = None;
                if status == PlanStatus::Partial {
                    self.metadata.extra.insert(
                        RESUMABLE_STATE.into(),
                        json!({
                            "marked_at": jiff::Timestamp::now().to_string(),
                            "current_chunk": null,
                            "reason": "tasks_incomplete",
                            "retry_counts": {},
                        }),
                    );
                } else {
                    self.metadata.extra.remove(RESUMABLE_STATE);
                }
                self.write_metadata()?;
                let event = if status == PlanStatus::Partial {
                    "execution_incomplete"
                } else {
                    "execution_completed"
                };
                self.log(event, json!({"progress": progress}))?;
            }
            ExecutionEnd::Interrupted { reason } => {
                // The plan itself is fine: it can be run again (also as `latest`).
                self.metadata.status = PlanStatus::Ready;
                self.metadata.failure_reason = Some(reason.clone());
                self.write_metadata()?;
                self.log(
                    "execution_interrupted",
                    json!({"reason": reason, "progress": progress}),
                )?;
            }
            ExecutionEnd::Failed { reason } => {
                self.metadata.status = PlanStatus::Failed;
                self.metadata.failure_reason = Some(reason.clone());
                self.write_metadata()?;
                self.log(
                    "execution_failed",
                    json!({"reason": reason, "progress": progress}),
                )?;
            }
        }
        Ok(computed)
    }

    /// The plan as front ends list it: the failure reason and, once executed, how far
    /// execution got, the divergence, and the tasks as execution left them (else the
    /// tasks of `frozen/plan.json`).
    pub fn info(&self) -> PlanInfo {
        let executed = match self.metadata.status {
            PlanStatus::Completed | PlanStatus::Partial | PlanStatus::Failed => true,
            PlanStatus::Planning | PlanStatus::Ready | PlanStatus::Executing => false,
        };
        let divergence = executed
            .then(|| read_plan_file(&self.dir.join("plan_diff.json")).ok())
            .flatten()
            .and_then(|bytes| serde_json::from_slice::<PlanDiff>(&bytes).ok())
            .map(|diff| diff.divergence_score);
        let outcome = self.metadata.outcome.clone().filter(|_| executed);
        let final_tasks = outcome
            .as_ref()
            .and_then(|_| read_tasks(&self.dir.join("workspace").join(EXECUTED_TASKS)).ok());
        let tasks = match final_tasks {
            Some(tasks) => Ok(tasks),
            None => self.frozen_tasks(),
        };
        PlanInfo {
            id: self.id.clone(),
            dir: self.dir.clone(),
            status: self.metadata.status,
            prompt: self.metadata.planning_prompt.clone().unwrap_or_default(),
            created_at: rfc3339(&self.metadata.created_at),
            tasks: tasks
                .map(|tasks| tasks.iter().map(Task::view).collect())
                .unwrap_or_default(),
            detail: self.metadata.failure_reason.clone(),
            divergence,
            outcome,
        }
    }
}

pub(super) fn write_diff(dir: &Path, diff: &PlanDiff) -> io::Result<()> {
    let mut bytes = serde_json::to_vec_pretty(diff).map_err(io::Error::other)?;
    bytes.push(b'\n');
    write_atomic(&dir.join("plan_diff.json"), &bytes)
}

/// Tasks from a plan file in any accepted format (not checked: see [`validate`]).
fn read_tasks(path: &Path) -> Result<Vec<Task>, PlanError> {
    let bytes = read_plan_file(path).map_err(|error| PlanError::Unreadable {
        path: path.to_path_buf(),
        message: error.to_string(),
    })?;
    parse_plan(&String::from_utf8_lossy(&bytes))
}

/// MassGen's local `created_at` as RFC 3339 with the local offset; unchanged if unparsable.
fn rfc3339(local: &str) -> String {
    local
        .parse::<jiff::civil::DateTime>()
        .ok()
        .and_then(|civil| civil.to_zoned(crate::local_time::zone()).ok())
        .map_or_else(
            || local.to_string(),
            |zoned| zoned.strftime("%Y-%m-%dT%H:%M:%S%.6f%:z").to_string(),
        )
}
