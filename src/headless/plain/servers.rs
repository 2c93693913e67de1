//! The plain display's lines about an agent's MCP servers, refused tool calls and the files
//! attached to its question.

use std::io::{self, Write};

use super::PlainPrinter;
use crate::protocol::{AgentId, Attachment, McpServerState, describe_attachments};
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

    /// `📎 photo.png · image · 120 KiB`: what the agent's question carries.
    pub(super) fn attachments_line(
        &mut self,
        agent: &AgentId,
        attachments: &[Attachment],
    ) -> io::Result<()> {
        let line = self
            .style
            .dim(&format!("📎 {}", clean(&describe_attachments(attachments))));
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
