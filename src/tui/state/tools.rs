//! What the UI keeps of the agents' tools: their MCP servers (for the status view; they
//! live for the whole run, across turns), their workspace directories, refused calls and
//! saved snapshots.

use std::path::PathBuf;

use super::{CardItem, UiState};
use crate::protocol::{AgentId, Event, EventMsg, McpServerState};

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

impl UiState {
    pub(super) fn fold_tools(&mut self, event: &Event) {
        let agent = event.agent.as_ref();
        if let EventMsg::WorkspaceAssigned {
            workspace,
            temp,
            snapshot,
        } = &event.msg
            && let Some(agent) = agent
        {
            self.workspaces.retain(|dirs| &dirs.agent != agent);
            self.workspaces.push(WorkspaceDirs {
                agent: agent.clone(),
                workspace: workspace.clone(),
                temp: temp.clone(),
                snapshot: snapshot.clone(),
            });
        } else if let EventMsg::McpServerStatus { server, state } = &event.msg
            && let Some(agent) = agent
        {
            update(&mut self.servers, agent, server, state);
        } else if let EventMsg::ToolRefused { tool, path, reason } = &event.msg
            && let Some(card) = self.agent_mut(agent)
        {
            card.items
                .push(CardItem::Notice(refusal(tool, path, reason)));
        } else if let EventMsg::WorkspaceSnapshot {
            files,
            bytes,
            skipped,
        } = &event.msg
            && let Some(card) = self.agent_mut(agent)
        {
            card.items.push(CardItem::Snapshot {
                files: *files,
                bytes: *bytes,
                skipped: skipped.len(),
            });
        }
    }
}

/// A refused tool call as the card and the timeline say it.
pub fn refusal(tool: &str, path: &str, reason: &str) -> String {
    format!("⛔ {tool} refused for {path}: {reason}")
}

/// Records the newest state of `agent`'s `server`, keeping first-seen order.
fn update(rows: &mut Vec<ServerRow>, agent: &AgentId, server: &str, state: &McpServerState) {
    match rows
        .iter_mut()
        .find(|row| &row.agent == agent && row.server == server)
    {
        Some(row) => row.state = state.clone(),
        None => rows.push(ServerRow {
            agent: agent.clone(),
            server: server.to_string(),
            state: state.clone(),
        }),
    }
}
