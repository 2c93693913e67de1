//! The plain display's lines about an agent's MCP servers and refused tool calls.

use std::io::{self, Write};

use super::PlainPrinter;
use crate::protocol::{AgentId, McpServerState};
use crate::sanitize::sanitize_for_terminal as clean;

impl<W: Write> PlainPrinter<W> {
    pub(super) fn server_line(
        &mut self,
        agent: &AgentId,
        server: &str,
        state: &McpServerState,
    ) -> io::Result<()> {
        let line = match state {
            McpServerState::Starting => return Ok(()),
            McpServerState::Ready { tools } => self.style.dim(&format!(
                "🔌 MCP server {} ready: {}",
                clean(server),
                crate::text::plural(tools.len(), "tool")
            )),
            McpServerState::Failed { error } => self.style.warn(&format!(
                "! MCP server {} is unavailable: {}",
                clean(server),
                clean(error)
            )),
            McpServerState::Paused { retry_in_secs } => self.style.warn(&format!(
                "! MCP server {} keeps failing; paused for {retry_in_secs} s",
                clean(server)
            )),
        };
        self.agent_line(agent, &line)
    }

    pub(super) fn refused_line(
        &mut self,
        agent: &AgentId,
        tool: &str,
        path: &str,
        reason: &str,
    ) -> io::Result<()> {
        let line = self.style.warn(&format!(
            "⛔ {} refused for {}: {}",
            clean(tool),
            clean(path),
            clean(reason)
        ));
        self.agent_line(agent, &line)
    }
}
