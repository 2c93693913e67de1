//! Saved plans under `<massgen_dir>/plans/plan_<YYYYMMDD_HHMMSS_ffffff>/`: creating,
//! listing and resolving them (`latest`, an id, a path). A plan still `planning` (killed
//! half-way, say) is never listed nor resolved.

mod finalize;
mod metadata;
mod saved;
mod tree;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::protocol::{ContextPath, PlanDepth, PlanInfo, PlanStatus};

pub use finalize::FinalizeError;
pub use metadata::PlanMetadata;
pub use saved::{ExecutionEnd, MAX_PLAN_FILE_BYTES, SavedPlan};

pub(crate) const METADATA: &str = "plan_metadata.json";
const HOW_TO_PLAN: &str = "`massgen --plan \"…\"` or Planning mode (Shift+Tab)";

/// What a new plan records before the agents start planning.
#[derive(Clone, Debug, PartialEq)]
pub struct NewPlan {
    pub prompt: String,
    pub session_id: Option<String>,
    pub log_dir: Option<PathBuf>,
    pub turn: u32,
    pub context_paths: Vec<ContextPath>,
    pub depth: PlanDepth,
}

/// Why a plan could not be picked for execution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    #[error("no saved plans yet (in {}); make one with {HOW_TO_PLAN}", .root.display())]
    NoPlans { root: PathBuf },
    #[error(
        "no saved plan matches `{spec}`; {}",
        if .recent.is_empty() {
            format!("no plan can be executed yet: make one with {HOW_TO_PLAN}")
        } else {
            format!("recent plans: {} (or make a new one with {HOW_TO_PLAN})", .recent.join(", "))
        }
    )]
    NoMatch { spec: String, recent: Vec<String> },
    #[error("`{spec}` matches several plans ({}); give more of the id", .matches.join(", "))]
    Ambiguous { spec: String, matches: Vec<String> },
    #[error(
        "plan {id} is unfinished (status `planning`: planning was interrupted or is still \
         running); plan again, or pick another plan"
    )]
    Unfinished { id: String },
    #[error("plan {id} failed: {reason}; make a new plan with {HOW_TO_PLAN}")]
    Failed { id: String, reason: String },
    #[error(
        "none of the {count} saved plans can be executed (the newest, {newest}, is {state}); \
         make a new plan with {HOW_TO_PLAN}"
    )]
    NothingReady {
        count: usize,
        newest: String,
        state: String,
    },
    #[error("{} is not a usable plan: {message}", .path.display())]
    Unreadable { path: PathBuf, message: String },
}

/// `<massgen_dir>/plans/`.
#[derive(Clone, Debug)]
pub struct PlanStore {
    root: PathBuf,
}

impl PlanStore {
    pub fn new(massgen_dir: &Path) -> Self {
        Self {
            root: massgen_dir.join("plans"),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Makes `plan_<local time>/` (a microsecond later while the name is taken), writes its
    /// metadata with status `planning` and logs `plan_created`.
    pub fn create(&self, plan: &NewPlan) -> io::Result<SavedPlan> {
        fs::create_dir_all(&self.root)?;
        let mut now = crate::local_time::now();
        let (stamp, dir) = loop {
            let stamp = now.strftime("%Y%m%d_%H%M%S_%6f").to_string();
            let dir = self.root.join(format!("plan_{stamp}"));
            match fs::create_dir(&dir) {
                Ok(()) => break (stamp, dir),
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    now = now
                        .checked_add(jiff::Span::new().microseconds(1))
                        .map_err(io::Error::other)?;
                }
                Err(error) => return Err(error),
            }
        };
        let metadata = PlanMetadata {
            plan_id: stamp.clone(),
            created_at: now.strftime("%Y-%m-%dT%H:%M:%S%.6f").to_string(),
            planning_session_id: plan.session_id.clone(),
            planning_log_dir: plan.log_dir.as_ref().map(|dir| dir.display().to_string()),
            planning_prompt: Some(plan.prompt.clone()),
            planning_turn: Some(plan.turn),
            execution_session_id: None,
            execution_log_dir: None,
            status: PlanStatus::Planning,
            context_paths: plan.context_paths.clone(),
            plan_depth: Some(plan.depth),
            failure_reason: None,
            outcome: None,
            extra: serde_json::Map::new(),
        };
        let saved = SavedPlan {
            id: format!("plan_{stamp}"),
            dir,
            metadata,
        };
        saved.write_metadata()?;
        saved.log(
            "plan_created",
            json!({"plan_id": stamp, "prompt": plan.prompt, "turn": plan.turn}),
        )?;
        Ok(saved)
    }

    /// `plan_*` directory names, newest first.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.root)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| name.starts_with("plan_"))
            .collect();
        names.sort_unstable_by(|a, b| b.cmp(a));
        names
    }

    /// Up to `limit` plans, newest first, leaving out unreadable ones and those still
    /// `planning`.
    pub fn list(&self, limit: usize) -> Vec<PlanInfo> {
        self.names()
            .into_iter()
            .filter_map(|name| SavedPlan::read(&self.root.join(name)).ok())
            .filter(|plan| plan.metadata.status != PlanStatus::Planning)
            .take(limit)
            .map(|plan| plan.info())
            .collect()
    }

    /// `latest` (the newest plan that is ready, executing, partial or completed with a readable
    /// frozen plan), an id with or without `plan_` (or a unique prefix of one), or a path
    /// to a plan directory.
    pub fn resolve(&self, spec: &str) -> Result<SavedPlan, ResolveError> {
        let spec = spec.trim();
        if spec.is_empty() || spec.eq_ignore_ascii_case("latest") {
            return self.latest();
        }
        let path = Path::new(spec);
        if spec.contains(['/', '\\']) || spec.starts_with('.') || path.join(METADATA).is_file() {
            return Self::open(path);
        }
        let names = self.names();
        if names.is_empty() {
            return Err(ResolveError::NoPlans {
                root: self.root.clone(),
            });
        }
        let wanted = format!("plan_{}", spec.strip_prefix("plan_").unwrap_or(spec));
        if names.contains(&wanted) {
            return Self::open(&self.root.join(&wanted));
        }
        let matches: Vec<&String> = names
            .iter()
            .filter(|name| name.starts_with(&wanted))
            .collect();
        match matches.as_slice() {
            [one] => Self::open(&self.root.join(one)),
            // Only whole plans are offered, never one still being planned.
            [] => Err(ResolveError::NoMatch {
                spec: spec.to_string(),
                recent: self.list(5).into_iter().map(|plan| plan.id).collect(),
            }),
            many => Err(ResolveError::Ambiguous {
                spec: spec.to_string(),
                matches: many.iter().take(5).map(|name| (*name).clone()).collect(),
            }),
        }
    }

    fn latest(&self) -> Result<SavedPlan, ResolveError> {
        let names = self.names();
        let Some(newest) = names.first() else {
            return Err(ResolveError::NoPlans {
                root: self.root.clone(),
            });
        };
        for name in &names {
            let Ok(plan) = SavedPlan::read(&self.root.join(name)) else {
                continue;
            };
            let runnable = match plan.metadata.status {
                PlanStatus::Ready
                | PlanStatus::Executing
                | PlanStatus::Partial
                | PlanStatus::Completed => true,
                PlanStatus::Planning | PlanStatus::Failed => false,
            };
            if runnable && plan.frozen_tasks().is_ok() {
                return Ok(plan);
            }
        }
        let state = match SavedPlan::read(&self.root.join(newest)) {
            Err(error) => format!("unreadable: {error}"),
            Ok(plan) => match plan.metadata.status {
                PlanStatus::Planning => "unfinished (still `planning`)".to_string(),
                PlanStatus::Failed => format!(
                    "failed: {}",
                    plan.metadata
                        .failure_reason
                        .as_deref()
                        .unwrap_or("no reason recorded")
                ),
                PlanStatus::Ready
                | PlanStatus::Executing
                | PlanStatus::Partial
                | PlanStatus::Completed => match plan.frozen_tasks() {
                    Ok(_) => "not usable".to_string(),
                    Err(error) => format!(
                        "not usable: {}: {error}",
                        plan.frozen_dir().join("plan.json").display()
                    ),
                },
            },
        };
        Err(ResolveError::NothingReady {
            count: names.len(),
            newest: newest.clone(),
            state,
        })
    }

    /// The plan in `dir` (relative to the working directory), if it can be executed: ready,
    /// executing, partial or completed — or failed during execution, when named explicitly — with a
    /// readable `frozen/plan.json`.
    pub fn open(dir: &Path) -> Result<SavedPlan, ResolveError> {
        let plan = SavedPlan::read(dir)?;
        let frozen = plan.frozen_tasks();
        match plan.metadata.status {
            PlanStatus::Planning => return Err(ResolveError::Unfinished { id: plan.id }),
            PlanStatus::Failed if frozen.is_err() => {
                return Err(ResolveError::Failed {
                    reason: plan
                        .metadata
                        .failure_reason
                        .clone()
                        .unwrap_or_else(|| "no reason recorded".into()),
                    id: plan.id,
                });
            }
            PlanStatus::Failed
            | PlanStatus::Ready
            | PlanStatus::Executing
            | PlanStatus::Partial
            | PlanStatus::Completed => {}
        }
        match frozen {
            Ok(_) => Ok(plan),
            Err(error) => Err(ResolveError::Unreadable {
                // An unreadable file names itself.
                path: match &error {
                    crate::plan::PlanError::Unreadable { .. } => plan.dir.clone(),
                    _ => plan.frozen_dir().join("plan.json"),
                },
                message: format!("{error}\n  help: {}", error.help()),
            }),
        }
    }
}

#[cfg(test)]
mod outcome_tests;
#[cfg(test)]
mod tests;
