//! One agent's task-plan tools for a turn (`mcp__planning_<agent_id>__<tool>`), served in
//! process: the plan itself, kept in `tasks/plan.json` in the agent's workspace in
//! filesystem mode (written atomically after every change), and its changes as events.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use crate::backend::ToolSpec;
use crate::mcp::naming::full_name;
use crate::plan::{self, Task, TaskPlan, TaskPlanner};
use crate::protocol::{AgentId, EventMsg, TaskProgress, TaskView};
use crate::session::write_atomic;
use crate::tools::{ToolOutcome, ToolResult};

pub struct TaskPlanTools {
    agent: AgentId,
    /// Full tool name → the tool's own name.
    names: Vec<(String, &'static str)>,
    planner: Mutex<TaskPlanner>,
    max_tasks: u32,
    /// `<workspace>/tasks/plan.json` in filesystem mode.
    file: Option<PathBuf>,
}

impl TaskPlanTools {
    pub fn new(agent: &AgentId, max_tasks: u32, file: Option<PathBuf>) -> Self {
        let server = format!("planning_{agent}");
        Self {
            agent: agent.clone(),
            names: plan::TOOL_NAMES
                .iter()
                .map(|tool| (full_name(&server, tool), *tool))
                .collect(),
            planner: Mutex::new(TaskPlanner::new(agent.as_str(), max_tasks)),
            max_tasks,
            file,
        }
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        plan::schemas()
            .into_iter()
            .filter_map(|schema| {
                let (name, _) = self.names.iter().find(|(_, bare)| *bare == schema.name)?;
                Some(ToolSpec {
                    name: name.clone(),
                    description: schema.description,
                    parameters: schema.parameters,
                })
            })
            .collect()
    }

    pub fn handles(&self, name: &str) -> bool {
        self.bare(name).is_some()
    }

    fn bare(&self, name: &str) -> Option<&'static str> {
        self.names
            .iter()
            .find(|(full, _)| full == name)
            .map(|(_, bare)| *bare)
    }

    /// Runs one call. A change of the plan is saved (filesystem mode) and reported.
    pub async fn call(&self, name: &str, arguments: &str) -> ToolResult {
        let Some(bare) = self.bare(name) else {
            return ToolResult::from(crate::tools::unavailable(name));
        };
        let (result, changed) = {
            let mut planner = self.planner.lock().unwrap_or_else(PoisonError::into_inner);
            let before = planner.views();
            let result = planner.call(bare, arguments, jiff::Timestamp::now());
            let changed = planner.views() != before;
            (
                result,
                changed.then(|| (planner.views(), planner.plan().cloned())),
            )
        };
        let (ok, value) = match result {
            Ok(value) => (true, value),
            Err(value) => (false, value),
        };
        let mut events = Vec::new();
        if let Some((tasks, plan)) = changed {
            if let Some(warning) = self.save(plan).await {
                events.push(warning);
            }
            events.push(EventMsg::TaskPlanChanged { tasks });
        }
        ToolResult {
            outcome: ToolOutcome {
                ok,
                output: value.to_string(),
            },
            events,
        }
    }

    /// Starts the plan over: empty, or holding `seed` (a saved plan being executed). The
    /// file follows; the change is returned as an event when there was or is a plan.
    pub async fn reset(&self, seed: Option<Vec<Task>>) -> Vec<EventMsg> {
        let (had_plan, tasks, plan) = {
            let mut planner = self.planner.lock().unwrap_or_else(PoisonError::into_inner);
            let had_plan = planner.plan().is_some();
            *planner = TaskPlanner::new(self.agent.as_str(), self.max_tasks);
            if let Some(seed) = seed {
                planner.load(seed, jiff::Timestamp::now());
            }
            (had_plan, planner.views(), planner.plan().cloned())
        };
        let mut events = Vec::new();
        if let Some(warning) = self.save(plan).await {
            events.push(warning);
        }
        if had_plan || !tasks.is_empty() {
            events.push(EventMsg::TaskPlanChanged { tasks });
        }
        events
    }

    pub fn views(&self) -> Vec<TaskView> {
        self.planner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .views()
    }

    pub fn progress(&self) -> TaskProgress {
        TaskProgress::of(&self.views())
    }

    /// Writes `plan` to the plan file (removes it for no plan), off the async workers:
    /// serialising a large plan after every call would hold up the whole run.
    async fn save(&self, plan: Option<TaskPlan>) -> Option<EventMsg> {
        let path = self.file.clone()?;
        let written = tokio::task::spawn_blocking(move || match plan {
            Some(plan) => write_atomic(&path, &plan.file_bytes().unwrap_or_default()),
            None => match std::fs::remove_file(&path) {
                Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
                Ok(()) | Err(_) => Ok(()),
            },
        })
        .await
        .unwrap_or_else(|error| Err(std::io::Error::other(error)));
        written.err().map(|error| EventMsg::Warning {
            message: format!("the task plan could not be saved to tasks/plan.json: {error}"),
        })
    }
}
