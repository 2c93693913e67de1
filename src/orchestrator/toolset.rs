//! Giving each agent its tools when the run starts: its workspace, and a router over what
//! its config offers.

use std::sync::Arc;

use super::emitter::Emitter;
use crate::config::Config;
use crate::protocol::{AgentInfo, EventMsg};
use crate::tools::{NoTools, ToolRouter};
use crate::workspace::Workspaces;

/// Where the agents' tools come from.
pub enum ToolSetup {
    /// Every agent gets this router (tests and tool-free runs).
    Shared(Arc<dyn ToolRouter>),
    /// Workspaces and tools as each agent's config says, under `project_dir/.massgen/`.
    FromConfig { project_dir: std::path::PathBuf },
}

/// Each agent's router (config order) and the run's workspaces.
pub struct AgentTools {
    pub routers: Vec<Arc<dyn ToolRouter>>,
    pub workspaces: Option<Arc<Workspaces>>,
}

pub async fn prepare(
    setup: ToolSetup,
    config: &Config,
    roster: &[AgentInfo],
    emitter: &mut Emitter,
) -> AgentTools {
    match setup {
        ToolSetup::Shared(router) => AgentTools {
            routers: vec![router; config.agents.len()],
            workspaces: None,
        },
        ToolSetup::FromConfig { project_dir } => {
            let wants_workspace = config
                .agents
                .iter()
                .any(|agent| agent.backend.tools.cwd.is_some());
            let workspaces = if wants_workspace {
                match Workspaces::create(&project_dir, config, roster) {
                    Ok(workspaces) => {
                        for (agent, index) in config.agents.iter().zip(0..) {
                            if let Some(dirs) = workspaces.dirs(index) {
                                emitter.emit(
                                    Some(&agent.id),
                                    EventMsg::WorkspaceAssigned {
                                        workspace: dirs.workspace.clone(),
                                        temp: dirs.temp.clone(),
                                        snapshot: dirs.snapshot.clone(),
                                    },
                                );
                            }
                        }
                        Some(Arc::new(workspaces))
                    }
                    Err(error) => {
                        emitter.emit(
                            None,
                            EventMsg::Warning {
                                message: format!(
                                    "agents get no workspaces: cannot create them under {}: {error}",
                                    project_dir.join(".massgen").display()
                                ),
                            },
                        );
                        None
                    }
                }
            } else {
                None
            };
            let no_tools: Arc<dyn ToolRouter> = Arc::new(NoTools);
            AgentTools {
                routers: vec![no_tools; config.agents.len()],
                workspaces,
            }
        }
    }
}
