//! From a submitted question to a turn to run: a Normal turn as asked; a Planning turn
//! with a new saved plan and the planning prompt; an Execute turn with the saved plan it
//! carries out, its frozen copy readable, and the execution prompt — the plan's own
//! context paths are not granted (a warning names those the run does not grant already).
//! What cannot run says why and how to fix it.

use std::path::PathBuf;

use super::question_attachments;
use super::turn::settings::{self, TurnSettings};
use super::turn::{PlanTurn, RunContext};
use crate::config::Permission;
use crate::plan::{self, NewPlan, PlanStore};
use crate::protocol::{Attachment, ContextPath, Mode, TurnOptions};
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
    /// The images and PDFs among the `@path`s, sent with every agent's question.
    pub attachments: Vec<Attachment>,
    pub plan: Option<PlanTurn>,
    /// Warnings about how the turn was prepared, shown once it has started.
    pub notes: Vec<String>,
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
    let paths = submission.context_paths.clone();
    let attachments = blocking(move || question_attachments::read(&paths)).await?;
    if let Some(why) = question_attachments::refused(&run.config, &attachments) {
        return Err(why);
    }
    let prepared = match submission.mode {
        Mode::Normal => Ok(Prepared {
            question: submission.text.clone(),
            prompt: submission.text.clone(),
            attached,
            attachments: Vec::new(),
            plan: None,
            notes: Vec::new(),
        }),
        Mode::Planning => planning(run, submission, turn, logs, attached).await,
        Mode::Execute => execution(run, submission, logs, attached).await,
    }?;
    Ok(Prepared {
        attachments,
        ..prepared
    })
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
        attachments: Vec::new(),
        plan: Some(PlanTurn::Planning { plan }),
        notes: Vec::new(),
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
                "plan {} cannot be carried out: {error} ({})\n  help: {}",
                plan.id,
                plan.frozen_dir().join("plan.json").display(),
                error.help()
            )
        })?;
        plan.start_execution(logs.session_id, logs.log_dir, &extra)
            .map_err(|error| format!("cannot update plan {}: {error}", plan.id))?;
        Ok((plan, tasks))
    })
    .await?;
    let mut granted: Vec<ContextRootSpec> = run
        .workspaces
        .iter()
        .flat_map(|workspaces| workspaces.layout().context.iter().cloned())
        .collect();
    granted.extend(attached.iter().cloned());
    let project_dir = run.project_dir.clone().unwrap_or_default();
    let refused = plan::ungranted_context(&plan, &granted, &project_dir);
    let notes = plan::ungranted_warning(&plan, &refused, &run.config.source_name)
        .into_iter()
        .collect();
    attached.push(ContextRootSpec {
        path: plan.frozen_dir(),
        permission: Permission::Read,
        protected: Vec::new(),
    });
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
        attachments: Vec::new(),
        plan: Some(PlanTurn::Executing { plan, tasks }),
        notes,
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

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|error| Err(error.to_string()))
}
