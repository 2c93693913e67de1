//! Finalising a plan: the winner's `project_plan.json` is checked, its folder copied into
//! `workspace/` and `frozen/` (with the plan normalised to `plan.json`) through a scratch
//! directory, and only then is the status set to `ready` — the commit point. A process
//! killed at any step leaves the plan `planning`, which nothing lists or resolves.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::json;
use walkdir::WalkDir;

use super::SavedPlan;
use super::saved::write_diff;
use super::tree::{remove_file_if_present, remove_tree, swap_in, sync_dir, sync_tree};
use crate::plan::diff::PlanDiff;
use crate::plan::error::PlanError;
use crate::plan::fault;
use crate::plan::parse::{parse_plan, validate};
use crate::plan::task::{Task, plan_file_bytes};
use crate::protocol::PlanStatus;
use crate::workspace::{DEFAULT_MAX_FILE_BYTES, copy_tree};

/// Why a plan could not be finalised; the plan stays `planning`. Messages say what, where,
/// and how to fix it ([`FinalizeError::help`] alone is the fix).
#[derive(Debug, thiserror::Error)]
pub enum FinalizeError {
    #[error(
        "the agents wrote no project_plan.json: looked at the root of {}, in its deliverable/ \
         folder and in every folder below; {}",
        .workspace.display(),
        self.help()
    )]
    NoPlanFile { workspace: PathBuf },
    #[error("{}: {source}; {}", .path.display(), self.help())]
    InvalidPlan { path: PathBuf, source: PlanError },
    #[error("could not {step}: {source}; {}", self.help())]
    Io { step: String, source: io::Error },
}

impl FinalizeError {
    /// One sentence on what to do about it.
    pub fn help(&self) -> String {
        match self {
            Self::NoPlanFile { .. } => "plan again, and make sure the final answer writes \
                                        project_plan.json into the workspace"
                .into(),
            Self::InvalidPlan { source, .. } => {
                format!("{}, then finalise the plan again", source.help())
            }
            Self::Io { .. } => "check free disk space and permissions under .massgen/plans/, \
                                then finalise again"
                .into(),
        }
    }
}

fn io_step(step: impl Into<String>) -> impl FnOnce(io::Error) -> FinalizeError {
    let step = step.into();
    move |source| FinalizeError::Io { step, source }
}

impl SavedPlan {
    /// Freezes the plan the winner wrote in `winner_workspace` and returns its tasks. On
    /// any error the plan stays `planning` (the caller then calls [`SavedPlan::fail`]).
    pub fn finalize(&mut self, winner_workspace: &Path) -> Result<Vec<Task>, FinalizeError> {
        let plan_file =
            Self::find_plan_file(winner_workspace).ok_or_else(|| FinalizeError::NoPlanFile {
                workspace: winner_workspace.to_path_buf(),
            })?;
        let bytes = super::saved::read_plan_file(&plan_file)
            .map_err(io_step(format!("read {}", plan_file.display())))?;
        let tasks = parse_plan(&String::from_utf8_lossy(&bytes))
            .and_then(|tasks| validate(&tasks).map(|()| tasks))
            .map_err(|source| FinalizeError::InvalidPlan {
                path: plan_file.clone(),
                source,
            })?;
        if self.metadata.status != PlanStatus::Planning {
            self.metadata.status = PlanStatus::Planning;
            self.write_metadata()
                .map_err(io_step("write plan_metadata.json"))?;
        }
        let source = plan_file.parent().unwrap_or(winner_workspace);
        let scratch = self.dir.join(".finalize.tmp");
        let result = self.freeze(source, &tasks, &scratch);
        let _ = remove_tree(&scratch);
        result.map(|()| tasks)
    }

    fn freeze(
        &mut self,
        source: &Path,
        tasks: &[Task],
        scratch: &Path,
    ) -> Result<(), FinalizeError> {
        remove_tree(scratch).map_err(io_step("clear .finalize.tmp"))?;
        let workspace = scratch.join("workspace");
        let frozen = scratch.join("frozen");
        fs::create_dir_all(&workspace).map_err(io_step("create .finalize.tmp"))?;
        copy_tree(source, &workspace, DEFAULT_MAX_FILE_BYTES)
            .map_err(io_step(format!("copy {}", source.display())))?;
        fault::point("plan_finalize_copied");

        remove_file_if_present(&workspace.join("project_plan.json"))
            .map_err(io_step("remove the copied project_plan.json"))?;
        fs::write(workspace.join("plan.json"), plan_file_bytes(tasks))
            .map_err(io_step("write plan.json"))?;
        fault::point("plan_finalize_renamed");

        fs::create_dir_all(&frozen).map_err(io_step("create the frozen copy"))?;
        copy_tree(&workspace, &frozen, DEFAULT_MAX_FILE_BYTES)
            .map_err(io_step("copy the frozen plan"))?;
        sync_tree(scratch).map_err(io_step("sync the copies"))?;
        fault::point("plan_finalize_frozen");

        for name in ["frozen", "workspace"] {
            swap_in(
                &scratch.join(name),
                &self.dir.join(name),
                &scratch.join(format!("old_{name}")),
            )
            .map_err(io_step(format!("move {name}/ into place")))?;
        }
        sync_dir(&self.dir);
        fault::point("plan_finalize_swapped");

        write_diff(&self.dir, &PlanDiff::default()).map_err(io_step("write plan_diff.json"))?;
        fault::point("plan_finalize_diff");

        self.metadata.status = PlanStatus::Ready;
        self.metadata.failure_reason = None;
        self.write_metadata()
            .map_err(io_step("write plan_metadata.json"))?;
        fault::point("plan_finalize_committed");

        let files = relative_files(&self.dir.join("workspace"));
        self.log("planning_finalized", json!({"workspace_files": files}))
            .map_err(io_step("append to execution_log.jsonl"))
    }
}

/// Files under `root`, as sorted `/`-separated relative paths.
fn relative_files(root: &Path) -> Vec<String> {
    WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| {
            let relative = entry.path().strip_prefix(root).ok()?;
            let parts: Vec<String> = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            Some(parts.join("/"))
        })
        .collect()
}

#[cfg(test)]
#[path = "finalize_tests.rs"]
mod tests;
