//! Setting up each agent's code-based tools when its tools are readied
//! (`enable_code_based_tools`): the files in its workspace or the shared directory, their
//! bridge, and a warning when an agent cannot have them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::emitter::Emitter;
use crate::config::{AgentConfig, Config};
use crate::mcp::McpServers;
use crate::mcp::code_tools::{self, CodeTools};
use crate::protocol::EventMsg;
use crate::workspace::Workspaces;

/// `shared_tools_directory` of an agent with code-based tools, resolved against the
/// project directory (where MassGen resolves it: the directory it runs in).
pub(super) fn shared_base(project_dir: &Path, agent: &AgentConfig) -> Option<PathBuf> {
    let code = agent.backend.tools.code_based.as_ref()?;
    let dir = Path::new(code.shared_directory.as_deref()?);
    Some(if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        project_dir.join(dir)
    })
}

/// One entry per agent, config order: its code-based tools when it has them.
pub(super) async fn set_up_all(
    project_dir: &Path,
    config: &Config,
    workspaces: Option<&Arc<Workspaces>>,
    mcp: &[Option<Arc<McpServers>>],
    emitter: &mut Emitter,
) -> Vec<Option<Arc<CodeTools>>> {
    let mut all = Vec::with_capacity(config.agents.len());
    for (index, (agent, servers)) in config.agents.iter().zip(mcp).enumerate() {
        let Some(code) = &agent.backend.tools.code_based else {
            all.push(None);
            continue;
        };
        let workspace = workspaces.and_then(|workspaces| workspaces.dirs(index));
        let Some(workspace) = workspace else {
            warn(
                emitter,
                agent,
                "enable_code_based_tools: the agent has no workspace (`cwd`) to hold the \
                 tools' code, so its MCP tools stay direct tools"
                    .into(),
            );
            all.push(None);
            continue;
        };
        let Some(servers) = servers else {
            all.push(None);
            continue;
        };
        let shared = shared_base(project_dir, agent);
        let set_up = code_tools::set_up(
            Arc::clone(servers),
            &agent.backend.tools.mcp_servers,
            &workspace.workspace,
            shared.as_deref(),
            &code.direct_servers,
        )
        .await;
        match set_up {
            Ok(tools) => all.push(Some(Arc::new(tools))),
            Err(error) => {
                warn(
                    emitter,
                    agent,
                    format!(
                        "enable_code_based_tools: the tools' code could not be written \
                         ({error}), so its MCP tools stay direct tools"
                    ),
                );
                all.push(None);
            }
        }
    }
    all
}

fn warn(emitter: &mut Emitter, agent: &AgentConfig, message: String) {
    emitter.emit(Some(&agent.id), EventMsg::Warning { message });
}
