//! Saved plans in a turn: a planning turn's plan is finalised from the winner's workspace
//! (or marked failed with the reason); an execution turn seeds every agent's workspace
//! with the plan and its documents, and records how the work diverged from it.

use std::path::{Path, PathBuf};

use super::Driver;
use crate::plan::{self, ExecutionEnd, PlanStore, SavedPlan, Task};
use crate::protocol::{EventMsg, PlanInfo, TurnOutcome};

/// The saved plan a turn makes or carries out.
pub enum PlanTurn {
    /// Agents write `project_plan.json`; the winner's becomes the plan.
    Planning { plan: SavedPlan },
    /// Agents carry out the plan's frozen tasks.
    Executing { plan: SavedPlan, tasks: Vec<Task> },
}

impl PlanTurn {
    /// The id of the plan carried out, if this turn carries one out.
    pub fn executed_plan(&self) -> Option<&str> {
        match self {
            Self::Planning { .. } => None,
            Self::Executing { plan, .. } => Some(&plan.id),
        }
    }

    /// How many tasks agents start with (0 while planning).
    pub fn task_count(&self) -> u32 {
        match self {
            Self::Planning { .. } => 0,
            Self::Executing { tasks, .. } => u32::try_from(tasks.len()).unwrap_or(u32::MAX),
        }
    }
}

/// An agent's system message for the turn: its own, and when carrying out a plan, the
/// guidance for that (as MassGen appends it).
pub fn system_message(own: Option<&str>, plan: Option<&PlanTurn>) -> Option<String> {
    match plan {
        Some(PlanTurn::Executing { .. }) => Some(format!(
            "{}{}",
            own.unwrap_or_default().trim_end(),
            plan::EXECUTION_GUIDANCE
        )),
        Some(PlanTurn::Planning { .. }) | None => own.map(str::to_string),
    }
}

impl Driver<'_> {
    pub(super) fn executes_plan(&self) -> bool {
        matches!(self.request.plan, Some(PlanTurn::Executing { .. }))
    }

    /// Starts every participant's task plan afresh (holding the saved plan's tasks when
    /// one is carried out, with its documents in `planning_docs/`) and reports the plan.
    pub(super) async fn begin_plan(&mut self) {
        let seed = match &self.request.plan {
            Some(PlanTurn::Executing { plan, tasks }) => Some((plan.frozen_dir(), tasks.clone())),
            Some(PlanTurn::Planning { .. }) | None => None,
        };
        if let Some(info) = self.request.plan.as_ref().map(|turn| match turn {
            PlanTurn::Planning { plan } | PlanTurn::Executing { plan, .. } => plan.info(),
        }) {
            self.emit(None, EventMsg::PlanUpdated { plan: info });
        }
        for agent in self.coordination.agents().to_vec() {
            let Some(index) = self.agent_index(&agent) else {
                continue;
            };
            if let (Some((frozen, _)), Some(dirs)) = (
                &seed,
                self.run
                    .workspaces
                    .as_ref()
                    .and_then(|workspaces| workspaces.dirs(index)),
            ) {
                let (frozen, docs) = (frozen.clone(), dirs.workspace.join("planning_docs"));
                let copied = tokio::task::spawn_blocking(move || copy_documents(&frozen, &docs))
                    .await
                    .unwrap_or_else(|error| Err(std::io::Error::other(error)));
                if let Err(error) = copied {
                    self.emit(
                        Some(&agent),
                        EventMsg::Warning {
                            message: format!(
                                "the plan's documents could not be copied to planning_docs/: \
                                 {error}"
                            ),
                        },
                    );
                }
            }
            let Some(tools) = self.task_plan(index).cloned() else {
                continue;
            };
            let tasks = seed.as_ref().map(|(_, tasks)| tasks.clone());
            for event in tools.reset(tasks).await {
                self.emit(Some(&agent), event);
            }
        }
    }

    /// Finalises the plan a planning turn made, or records how an execution went.
    pub(super) async fn conclude_plan(&mut self) {
        let Some(turn) = self.request.plan.take() else {
            return;
        };
        let outcome = self.ending.outcome();
        let winner_workspace = self.plan_source().await;
        let answered = self.ending.final_answer.is_some();
        let concluded = tokio::task::spawn_blocking(move || {
            conclude(turn, outcome, answered, winner_workspace.as_deref())
        })
        .await;
        let (info, problem) = match concluded {
            Ok(concluded) => concluded,
            Err(error) => {
                self.emit(
                    None,
                    EventMsg::Warning {
                        message: format!("the plan could not be saved: {error}"),
                    },
                );
                return;
            }
        };
        if let Some(message) = problem {
            self.emit(None, EventMsg::Warning { message });
        }
        if info.status == crate::protocol::PlanStatus::Ready {
            self.ending.ready_plan = Some(info.id.clone());
        }
        self.emit(None, EventMsg::PlanUpdated { plan: info });
    }

    /// Where the plan (or the executed work) is taken from: the winner's workspace after
    /// it presented, else the snapshot behind its winning answer — after a timeout or
    /// with refine off its workspace may hold later, unfinished work.
    async fn plan_source(&self) -> Option<PathBuf> {
        let index = self.agent_index(self.ending.winner.as_ref()?)?;
        let workspaces = self.run.workspaces.as_ref()?;
        if !self.ending.presented_live
            && let Some(snapshot) = workspaces.latest_snapshot(index).await
        {
            return Some(snapshot);
        }
        Some(workspaces.dirs(index)?.workspace.clone())
    }

    /// Answers `Op::ListPlans` with the project's saved plans, newest first.
    pub(super) fn list_plans(&mut self) {
        let plans = list(self.run.project_dir.as_deref());
        self.emit(None, EventMsg::PlansListed { plans });
    }
}

/// The saved plans of `project_dir` (MassGen's selector loads the 10 newest).
pub fn list(project_dir: Option<&Path>) -> Vec<PlanInfo> {
    project_dir.map_or_else(Vec::new, |dir| {
        PlanStore::new(&dir.join(".massgen")).list(10)
    })
}

/// The plan's new state, and what the user should be told about a failure.
fn conclude(
    turn: PlanTurn,
    outcome: TurnOutcome,
    answered: bool,
    winner_workspace: Option<&Path>,
) -> (PlanInfo, Option<String>) {
    match turn {
        PlanTurn::Planning { mut plan } => {
            let finished = matches!(outcome, TurnOutcome::Completed | TurnOutcome::TimedOut);
            let result = match (answered && finished, winner_workspace) {
                (true, Some(workspace)) => plan
                    .finalize(workspace)
                    .map(|_| ())
                    .map_err(|error| error.to_string()),
                (true, None) => Err("the winner has no workspace to take the plan from".into()),
                (false, _) => Err(format!("planning {}", outcome_words(outcome))),
            };
            let problem = result.err().map(|reason| {
                if let Err(error) = plan.fail(&reason) {
                    tracing::warn!(%error, "could not mark the plan failed");
                }
                format!("plan {} failed: {reason}", plan.id)
            });
            (plan.info(), problem)
        }
        PlanTurn::Executing { mut plan, .. } => {
            let reason = format!("execution {}", outcome_words(outcome));
            let end = match outcome {
                TurnOutcome::Completed => ExecutionEnd::Completed,
                TurnOutcome::Cancelled | TurnOutcome::TimedOut => {
                    ExecutionEnd::Interrupted { reason }
                }
                TurnOutcome::Failed => ExecutionEnd::Failed { reason },
            };
            let problem = plan
                .finish_execution(winner_workspace, &end)
                .err()
                .map(|error| {
                    format!(
                        "the outcome of plan {} could not be saved: {error}",
                        plan.id
                    )
                });
            (plan.info(), problem)
        }
    }
}

fn outcome_words(outcome: TurnOutcome) -> &'static str {
    match outcome {
        TurnOutcome::Completed => "completed",
        TurnOutcome::TimedOut => "timed out",
        TurnOutcome::Cancelled => "was cancelled",
        TurnOutcome::Failed => "failed: no agent produced an answer",
    }
}

/// The most bytes of documents copied into each agent's `planning_docs/`: a plan directory
/// may come with the repository, and copying is not interrupted.
const MAX_DOCUMENT_BYTES: u64 = 256 * crate::bounded_file::MIB;

/// Copies the frozen plan's documents (`*.md`, and the plan as `full_plan.json`) into
/// `docs`, up to [`MAX_DOCUMENT_BYTES`] in all.
fn copy_documents(frozen: &Path, docs: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(docs)?;
    let mut budget = MAX_DOCUMENT_BYTES;
    for entry in std::fs::read_dir(frozen)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        // Plain files only: a link in a plan must not copy what it points at.
        if !entry.file_type()?.is_file() {
            continue;
        }
        let target = if path.extension().is_some_and(|ext| ext == "md") {
            docs.join(&name)
        } else if name == "plan.json" {
            docs.join("full_plan.json")
        } else {
            continue;
        };
        let size = entry.metadata()?.len();
        if size > budget {
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!(
                    "the documents in {} pass {} MiB; {} and any after it are not copied",
                    frozen.display(),
                    MAX_DOCUMENT_BYTES / crate::bounded_file::MIB,
                    path.display()
                ),
            ));
        }
        budget -= size;
        std::fs::copy(&path, target)?;
    }
    Ok(())
}
