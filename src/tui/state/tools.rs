//! What the UI keeps of the agents' tools: their MCP servers (for the status view; they
//! live for the whole run, across turns), their workspace directories, their skills, and how
//! a refused call reads.

use std::path::{Path, PathBuf};

use crate::protocol::{AgentId, McpServerState, SkillInfo};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerRow {
    pub agent: AgentId,
    pub server: String,
    pub state: McpServerState,
}

/// Where one agent's files are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceDirs {
    pub agent: AgentId,
    pub workspace: PathBuf,
    pub temp: PathBuf,
    pub snapshot: PathBuf,
}

/// The agents' MCP servers and workspace directories.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgentTools {
    /// Every agent's MCP servers, newest state each.
    pub servers: Vec<ServerRow>,
    /// The agents' workspace directories, for the workspace browser.
    pub workspaces: Vec<WorkspaceDirs>,
    /// `use_skills`: what the run listed (`/skills`); `None` while skills are off.
    pub skills: Option<ListedSkills>,
}

/// The skills agents are told about, and the directories looked in for them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListedSkills {
    pub skills: Vec<SkillInfo>,
    pub searched: Vec<String>,
}

impl AgentTools {
    pub(super) fn assign_workspace(
        &mut self,
        agent: &AgentId,
        workspace: &Path,
        temp: &Path,
        snapshot: &Path,
    ) {
        self.workspaces.retain(|dirs| &dirs.agent != agent);
        self.workspaces.push(WorkspaceDirs {
            agent: agent.clone(),
            workspace: workspace.to_path_buf(),
            temp: temp.to_path_buf(),
            snapshot: snapshot.to_path_buf(),
        });
    }

    /// Records the newest state of `agent`'s `server`, keeping first-seen order.
    pub(super) fn server_status(&mut self, agent: &AgentId, server: &str, state: &McpServerState) {
        match self
            .servers
            .iter_mut()
            .find(|row| &row.agent == agent && row.server == server)
        {
            Some(row) => row.state = state.clone(),
            None => self.servers.push(ServerRow {
                agent: agent.clone(),
                server: server.to_string(),
                state: state.clone(),
            }),
        }
    }
}

/// A refused tool call as the card and the timeline say it.
pub fn refusal(tool: &str, path: &str, reason: &str) -> String {
    format!("⛔ {tool} refused for {path}: {reason}")
}
