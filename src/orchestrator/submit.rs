//! From a submitted question to a turn to run: a Normal turn as asked; a Planning turn
//! with a new saved plan and the planning prompt; an Execute turn with the saved plan it
//! carries out, its context paths, its frozen copy readable, and the execution prompt.
//! What cannot run says why and how to fix it.

use std::path::PathBuf;

use super::turn::settings::{self, TurnSettings};
use super::turn::{PlanTurn, RunContext};
use crate::config::Permission;
use crate::plan::{self, NewPlan, PlanStore, SavedPlan};
use crate::protocol::{ContextPath, Mode, TurnOptions};
use crate::workspace::ContextRootSpec;

/// A question as a front end submitted it.
pub struct Submission {
    pub text: String,
    pub mode: Mode,
    pub context_paths: Vec<ContextPath>,
    pub options: TurnOptions,
}

/// What the turn driver gets besides history and date.
pub struct Prepared {
    /// As shown to the user and kept in the history.
    pub question: String,
    /// What agents read as the ORIGINAL MESSAGE.
    pub prompt: String,
    pub attached: Vec<ContextRootSpec>,
    pub plan: Option<PlanTurn>,
}

/// Where the run's logs are, for the plan's metadata.
pub struct LogPlace {
    pub session_id: Option<String>,
    pub log_dir: Option<PathBuf>,
}

pub async fn prepare(
    run: &RunContext,
    submission: &Submission,
    turn: u32,
    logs: LogPlace,
) -> Result<Prepared, String> {
    let attached: Vec<ContextRootSpec> = submission
        .context_paths
        .iter()
        .map(ContextRootSpec::from)
        .collect();
    match submission.mode {
        Mode::Normal => Ok(Prepared {
            question: submission.text.clone(),
            prompt: submission.text.clone(),
            attached,
            plan: None,
        }),
        Mode::Planning => planning(run, submission, turn, logs, attached).await,
        Mode::Execute => execution(run, submission, logs, attached).await,
    }
}

fn massgen_dir(run: &RunContext) -> Result<PathBuf, String> {
    run.project_dir
        .as_ref()
        .map(|dir| dir.join(".massgen"))
        .ok_or_else(|| "plans need a project directory, and this run has none".to_string())
}

async fn planning(
    run: &RunContext,
    submission: &Submission,
    turn: u32,
    logs: LogPlace,
    attached: Vec<ContextRootSpec>,
) -> Result<Prepared, String> {
    if submission.text.trim().is_empty() {
        return Err("describe the work to plan (the question is empty)".into());
    }
    let settings = settings::resolve(&run.config, Mode::Planning, &submission.options, run.human);
    need_workspaces(run, &settings, "to write project_plan.json in")?;
    let store = PlanStore::new(&massgen_dir(run)?);
    let new_plan = NewPlan {
        prompt: submission.text.clone(),
        session_id: logs.session_id,
        log_dir: logs.log_dir,
        turn,
        context_paths: submission.context_paths.clone(),
        depth: submission.options.plan_depth,
    };
    let plan = blocking(move || store.create(&new_plan).map_err(|error| error.to_string()))
        .await
        .map_err(|error| format!("cannot start a plan under .massgen/plans: {error}"))?;
    let broadcast = settings
        .broadcast
        .map_or(crate::protocol::BroadcastTarget::Off, |broadcast| {
            broadcast.target
        });
    Ok(Prepared {
        question: submission.text.clone(),
        prompt: plan::planning_prompt(
            &submission.text,
            submission.options.plan_depth,
            broadcast,
            None,
        ),
        attached,
        plan: Some(PlanTurn::Planning { plan }),
    })
}

async fn execution(
    run: &RunContext,
    submission: &Submission,
    logs: LogPlace,
    mut attached: Vec<ContextRootSpec>,
) -> Result<Prepared, String> {
    let settings = settings::resolve(&run.config, Mode::Execute, &submission.options, run.human);
    need_workspaces(run, &settings, "to hold the plan's tasks and documents")?;
    let plans_root = massgen_dir(run)?.join("plans");
    let store = PlanStore::new(&massgen_dir(run)?);
    let spec = submission
        .options
        .plan
        .clone()
        .filter(|spec| !spec.trim().is_empty())
        .unwrap_or_else(|| "latest".to_string());
    let extra = submission.text.trim().to_string();
    let (plan, tasks) = blocking(move || -> Result<_, String> {
        let mut plan = store.resolve(&spec).map_err(|error| error.to_string())?;
        let tasks = plan.frozen_tasks().map_err(|error| {
            format!(
                "plan {} cannot be carried out: {error}\n  help: {}",
                plan.id,
                error.help()
            )
        })?;
        plan.start_execution(logs.session_id, logs.log_dir, &extra)
            .map_err(|error| format!("cannot update plan {}: {error}", plan.id))?;
        Ok((plan, tasks))
    })
    .await?;
    attached.extend(restored_context(&plan, &plans_root));
    let planned = plan.metadata.planning_prompt.clone().unwrap_or_default();
    let extra = submission.text.trim();
    let question = match (planned.trim().is_empty(), extra.is_empty()) {
        (false, true) => planned.clone(),
        (false, false) => format!("{planned}\n\n{extra}"),
        (true, _) => extra.to_string(),
    };
    let prompt = plan::execution_prompt(
        if planned.trim().is_empty() {
            extra
        } else {
            &planned
        },
        (!extra.is_empty() && !planned.trim().is_empty()).then_some(extra),
    );
    Ok(Prepared {
        question,
        prompt,
        attached,
        plan: Some(PlanTurn::Executing { plan, tasks }),
    })
}

/// Every participant has a workspace, or the error saying which lack one and the fix.
fn need_workspaces(run: &RunContext, settings: &TurnSettings, why: &str) -> Result<(), String> {
    let without_workspace: Vec<&str> = settings
        .participants
        .iter()
        .filter(|agent| {
            run.config
                .agents
                .iter()
                .position(|config| &config.id == *agent)
                .and_then(|index| run.workspaces.as_ref()?.dirs(index))
                .is_none()
        })
        .map(|agent| agent.as_str())
        .collect();
    if without_workspace.is_empty() {
        return Ok(());
    }
    let names = without_workspace.join(", ");
    Err(format!(
        "plans need agents with a workspace {why}, and {names} has none\n  help: add `cwd: \
         workspace` to the backend of {names} in {}",
        run.config.source_name
    ))
}

/// The paths attached to the planning question that still exist — writable by the winner
/// as they were only for plans of this project (a plan from elsewhere, or whose metadata
/// was edited by hand, could name any path) — and the plan's frozen copy to read.
fn restored_context(plan: &SavedPlan, plans_root: &std::path::Path) -> Vec<ContextRootSpec> {
    let ours = match (plan.dir.canonicalize(), plans_root.canonicalize()) {
        (Ok(dir), Ok(root)) => dir.starts_with(root),
        (Err(_), _) | (_, Err(_)) => false,
    };
    plan.metadata
        .context_paths
        .iter()
        .filter(|context| context.path.exists())
        .map(|context| ContextRootSpec {
            path: context.path.clone(),
            permission: if context.writable && ours {
                Permission::Write
            } else {
                Permission::Read
            },
            protected: Vec::new(),
        })
        .chain(std::iter::once(ContextRootSpec {
            path: plan.frozen_dir(),
            permission: Permission::Read,
            protected: Vec::new(),
        }))
        .collect()
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|error| Err(error.to_string()))
}
