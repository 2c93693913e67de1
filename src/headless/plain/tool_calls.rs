//! The plain display's lines about an agent's tool calls starting and finishing.

use std::io::{self, Write};

use super::{PlainPrinter, preview};
use crate::protocol::AgentId;
use crate::sanitize::sanitize_for_terminal as clean;

impl<W: Write> PlainPrinter<W> {
    pub(super) fn tool_started_line(
        &mut self,
        agent: &AgentId,
        tool: &str,
        arguments: &str,
    ) -> io::Result<()> {
        let line = format!("⚙ {} {}", clean(tool), preview(arguments, 80));
        self.agent_line(agent, &line)
    }

    pub(super) fn tool_finished_line(
        &mut self,
        agent: &AgentId,
        tool: &str,
        ok: bool,
        output: &str,
        duration_ms: u64,
    ) -> io::Result<()> {
        let line = if ok {
            self.style
                .good(&format!("✓ {} ({duration_ms} ms)", clean(tool)))
        } else {
            self.style
                .bad(&format!("✗ {}: {}", clean(tool), preview(output, 100)))
        };
        self.agent_line(agent, &line)
    }
}
