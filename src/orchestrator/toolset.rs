//! Giving each agent its tools when the run starts: its workspace, its MCP servers (all
//! started at once, progress reported as it comes), and a router over what its config
//! offers.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures::future::join_all;
use tokio::sync::mpsc;

use super::agent_router::AgentToolRouter;
use super::code_tools_setup::{set_up_all, shared_base};
use super::emitter::Emitter;
use crate::backend::Backend;
use crate::config::{Config, SkillsConfig, ToolSettings};
use crate::mcp::McpServers;
use crate::mcp::code_tools::CodeTools;
use crate::protocol::{AgentId, AgentInfo, EventMsg, McpServerState, SkillInfo};
use crate::tools::builtin::is_builtin_server;
use crate::tools::custom::{AgentSetup, CustomTools};
use crate::tools::read_media::ReadMedia;
use crate::tools::{BuiltinTools, PathPolicy, ToolRouter};
use crate::workspace::{ContextRootSpec, Workspaces};

/// Where the agents' tools come from.
pub enum ToolSetup {
    /// Every agent gets this router (tests and tool-free runs).
    Shared(Arc<dyn ToolRouter>),
    /// Workspaces and tools as each agent's config says, under `project_dir/.massgen/`.
    FromConfig { project_dir: std::path::PathBuf },
}

/// Each agent's router (config order), the run's workspaces and MCP servers.
pub struct AgentTools {
    pub routers: Vec<Arc<dyn ToolRouter>>,
    pub workspaces: Option<Arc<Workspaces>>,
    /// Every agent's running MCP servers, to stop when the run ends.
    pub mcp: Vec<Arc<McpServers>>,
    /// Every agent's Python tool worker, to stop when the run ends.
    pub custom: Vec<Arc<CustomTools>>,
    /// Agents whose custom tools could not be loaded, with why: the run does not start.
    pub failed: Vec<(AgentId, String)>,
    /// One per agent, config order: its code-based tools (their bridge lives as long).
    pub code_tools: Vec<Option<Arc<CodeTools>>>,
}

impl AgentTools {
    pub async fn shutdown(&self) {
        join_all(self.mcp.iter().map(|servers| servers.shutdown())).await;
        join_all(self.custom.iter().map(|tools| tools.shutdown())).await;
    }
}

/// Readies every agent's tools for a new turn: the paths attached to its question, no
/// snapshots from the turn before, and in memory mode (`memory`) the memory directories
/// with the last turn's merged memories.
pub async fn begin_turn(
    routers: &[Arc<dyn ToolRouter>],
    workspaces: Option<&Arc<Workspaces>>,
    attached: &[ContextRootSpec],
    memory: bool,
) {
    for router in routers {
        router.set_turn_context(attached);
    }
    if let Some(workspaces) = workspaces
        && let Err(error) = Arc::clone(workspaces).clear_snapshots().await
    {
        tracing::warn!(%error, "the previous turn's snapshots could not be cleared");
    }
    if memory
        && let Some(workspaces) = workspaces
        && let Err(error) = Arc::clone(workspaces).begin_memory_turn().await
    {
        tracing::warn!(%error, "the memory directories could not be prepared");
    }
}

/// How often MCP start-up progress is passed on while servers start.
const PROGRESS_TICK: Duration = Duration::from_millis(50);

/// `backends` (config order) answer their agents' `read_media`.
pub async fn prepare(
    setup: ToolSetup,
    (config, backends): (&Config, &[Arc<dyn Backend>]),
    roster: &[AgentInfo],
    emitter: &mut Emitter,
) -> AgentTools {
    match setup {
        ToolSetup::Shared(router) => AgentTools {
            routers: vec![router; config.agents.len()],
            workspaces: None,
            mcp: Vec::new(),
            custom: Vec::new(),
            failed: Vec::new(),
            code_tools: vec![None; config.agents.len()],
        },
        ToolSetup::FromConfig { project_dir } => {
            let workspaces = create_workspaces(&project_dir, config, roster, emitter);
            warn_of_shadowed_servers(config, emitter);
            let (mcp, receivers) = start_mcp(config, emitter).await;
            let context: Vec<ContextRootSpec> = workspaces
                .as_ref()
                .map_or_else(Vec::new, |ws| ws.layout().context.clone());
            let policies: Vec<Option<Arc<PathPolicy>>> = (0..config.agents.len())
                .map(|index| {
                    let dirs = workspaces.as_ref().and_then(|ws| ws.dirs(index))?;
                    let shared_tools = shared_base(&project_dir, &config.agents[index]);
                    Some(Arc::new(PathPolicy::new(
                        dirs.workspace.clone(),
                        std::iter::once(dirs.temp.clone())
                            .chain(shared_tools)
                            .collect(),
                        context.clone(),
                    )))
                })
                .collect();
            let code_tools =
                set_up_all(&project_dir, config, workspaces.as_ref(), &mcp, emitter).await;
            let (custom, failed) = start_custom(config, roster, &policies).await;
            let mut routers: Vec<Arc<dyn ToolRouter>> = Vec::with_capacity(config.agents.len());
            for (((((agent, backend), policy), tools), (servers, notices)), code) in config
                .agents
                .iter()
                .zip(backends)
                .zip(&policies)
                .zip(&custom)
                .zip(mcp.iter().zip(receivers))
                .zip(&code_tools)
            {
                let settings = &agent.backend.tools;
                let builtin = policy
                    .as_ref()
                    .map(|policy| BuiltinTools::new(Arc::clone(policy), settings));
                routers.push(Arc::new(
                    AgentToolRouter::new(settings.clone(), builtin, servers.clone(), notices)
                        .with_custom(tools.clone())
                        .with_code_only(code.as_ref().map(|code| code.code_only.clone()))
                        .with_read_media(read_media(settings, backend, policy.as_ref())),
                ));
            }
            AgentTools {
                routers,
                workspaces,
                mcp: mcp.into_iter().flatten().collect(),
                custom: custom.into_iter().flatten().collect(),
                failed,
                code_tools,
            }
        }
    }
}

/// MassGen's `read_media` for an agent with `enable_multimodal_tools`, a workspace and a
/// model to ask (an agent CLI's own loop reads files with its own tools).
fn read_media(
    settings: &ToolSettings,
    backend: &Arc<dyn Backend>,
    policy: Option<&Arc<PathPolicy>>,
) -> Option<ReadMedia> {
    let policy = policy.filter(|_| settings.multimodal_tools && backend.agent_loop().is_none())?;
    Some(ReadMedia::new(Arc::clone(backend), Arc::clone(policy)))
}

/// Starts every agent's Python tool worker at once; the agents whose tools did not load,
/// with why.
async fn start_custom(
    config: &Config,
    roster: &[AgentInfo],
    policies: &[Option<Arc<PathPolicy>>],
) -> (Vec<Option<Arc<CustomTools>>>, Vec<(AgentId, String)>) {
    let starts = config.agents.iter().zip(policies).map(|(agent, policy)| {
        let info = roster.iter().find(|info| info.id == agent.id);
        let tools = &agent.backend.tools;
        let setup = AgentSetup {
            agent_id: agent.id.to_string(),
            backend_name: info.map_or_else(String::new, |info| info.backend.clone()),
            backend_type: agent.backend.kind.to_string(),
            model: agent.backend.model.clone(),
            policy: policy.clone(),
            network: tools.command_line.as_ref().is_none_or(|line| line.network),
        };
        async move {
            if tools.custom_tools.is_empty() {
                return None;
            }
            Some(CustomTools::start(&tools.custom_tools, setup).await)
        }
    });
    let mut failed = Vec::new();
    let mut custom = Vec::with_capacity(config.agents.len());
    for (agent, started) in config.agents.iter().zip(join_all(starts).await) {
        custom.push(match started {
            Some(Ok(tools)) => Some(Arc::new(tools)),
            Some(Err(message)) => {
                failed.push((agent.id.clone(), message));
                None
            }
            None => None,
        });
    }
    (custom, failed)
}

/// A server named like a built-in one has its same-named tools hidden behind the built-in
/// tools of an agent with a workspace.
fn warn_of_shadowed_servers(config: &Config, emitter: &mut Emitter) {
    for agent in &config.agents {
        let tools = &agent.backend.tools;
        if tools.cwd.is_none() {
            continue;
        }
        for server in &tools.mcp_servers {
            if is_builtin_server(&server.name) {
                emitter.emit(
                    Some(&agent.id),
                    EventMsg::Warning {
                        message: format!(
                            "MCP server `{}` has the name of massgen's built-in tools, which \
                             take precedence over its tools of the same names; rename it to \
                             offer both",
                            server.name
                        ),
                    },
                );
            }
        }
    }
}

fn create_workspaces(
    project_dir: &Path,
    config: &Config,
    roster: &[AgentInfo],
    emitter: &mut Emitter,
) -> Option<Arc<Workspaces>> {
    if !config
        .agents
        .iter()
        .any(|agent| agent.backend.tools.cwd.is_some())
    {
        if config.orchestrator.coordination.skills.is_some() {
            emitter.emit(
                None,
                EventMsg::Warning {
                    message: "use_skills: no agent has a workspace (`cwd`) and file tools to \
                              read skills with, so agents are not told about them"
                        .into(),
                },
            );
        }
        return None;
    }
    match Workspaces::create(project_dir, config, roster) {
        Ok(workspaces) => {
            if let Some(skills) = &config.orchestrator.coordination.skills {
                emitter.emit(None, skills_listed(project_dir, skills, &workspaces));
            }
            if let Some(skills) = &config.orchestrator.coordination.skills
                && workspaces.layout().skills.skills.is_empty()
            {
                emitter.emit(
                    None,
                    EventMsg::Warning {
                        message: format!(
                            "use_skills: no skills found (no */SKILL.md in {} or ~/.agent/skills)",
                            project_dir.join(&skills.directory).display()
                        ),
                    },
                );
            }
            for problem in &workspaces.layout().skills.problems {
                emitter.emit(
                    None,
                    EventMsg::Warning {
                        message: format!(
                            "skill left out: {}: {}",
                            problem.file.display(),
                            problem.reason
                        ),
                    },
                );
            }
            for (index, agent) in config.agents.iter().enumerate() {
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
}

/// The skills agents are told about, for the front ends' `/skills`.
fn skills_listed(project_dir: &Path, skills: &SkillsConfig, workspaces: &Workspaces) -> EventMsg {
    let mut searched = vec![project_dir.join(&skills.directory).display().to_string()];
    searched.extend(
        skills
            .user_directory
            .iter()
            .map(|dir| dir.display().to_string()),
    );
    EventMsg::SkillsListed {
        skills: workspaces
            .layout()
            .skills
            .skills
            .iter()
            .map(|skill| SkillInfo {
                name: skill.name.clone(),
                description: skill.description.clone(),
                source: skill.source,
                file: skill.file.clone(),
            })
            .collect(),
        searched,
    }
}

/// Starts every agent's MCP servers at once, passing their progress on as it comes. Each
/// agent's receiver then carries its servers' later state changes.
async fn start_mcp(
    config: &Config,
    emitter: &mut Emitter,
) -> (
    Vec<Option<Arc<McpServers>>>,
    Vec<mpsc::UnboundedReceiver<EventMsg>>,
) {
    let mut receivers = Vec::with_capacity(config.agents.len());
    let mut starts = Vec::with_capacity(config.agents.len());
    for agent in &config.agents {
        let (tx, rx) = mpsc::unbounded_channel();
        receivers.push(rx);
        let servers = agent.backend.tools.mcp_servers.clone();
        starts.push(async move {
            if servers.is_empty() {
                return None;
            }
            let report = move |server: &str, state: McpServerState| {
                let _ = tx.send(EventMsg::McpServerStatus {
                    server: server.to_string(),
                    state,
                });
            };
            Some(Arc::new(McpServers::start(&servers, report).await))
        });
    }
    let started = join_all(starts);
    tokio::pin!(started);
    let mcp = loop {
        tokio::select! {
            mcp = &mut started => break mcp,
            () = tokio::time::sleep(PROGRESS_TICK) => pass_on(config, &mut receivers, emitter),
        }
    };
    pass_on(config, &mut receivers, emitter);
    (mcp, receivers)
}

fn pass_on(
    config: &Config,
    receivers: &mut [mpsc::UnboundedReceiver<EventMsg>],
    emitter: &mut Emitter,
) {
    for (agent, receiver) in config.agents.iter().zip(receivers) {
        while let Ok(event) = receiver.try_recv() {
            emitter.emit(Some(&agent.id), event);
        }
    }
}
