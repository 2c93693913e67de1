//! The agents' MCP servers as the status modal lists them; they live for the whole run,
//! across turns.

use crate::protocol::{AgentId, McpServerState};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerRow {
    pub agent: AgentId,
    pub server: String,
    pub state: McpServerState,
}

/// Records the newest state of `agent`'s `server`, keeping first-seen order.
pub fn update(rows: &mut Vec<ServerRow>, agent: &AgentId, server: &str, state: &McpServerState) {
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
