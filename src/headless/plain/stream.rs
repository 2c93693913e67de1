//! Agents' streamed text and reasoning, printed a whole line at a time.

use std::io::{self, Write};

use super::PlainPrinter;
use crate::headless::lines::Channel;
use crate::protocol::AgentId;
use crate::sanitize::sanitize_for_terminal;

impl<W: Write> PlainPrinter<W> {
    /// Prints the lines `text` completes for `agent`; its reasoning goes first.
    pub(super) fn stream(
        &mut self,
        agent: &AgentId,
        text: &str,
        channel: Channel,
    ) -> io::Result<()> {
        if channel == Channel::Text {
            self.flush_reasoning(agent)?;
        }
        for line in self.lines.push(agent, channel, text) {
            self.print_stream_line(agent, &line, channel)?;
        }
        Ok(())
    }

    fn print_stream_line(
        &mut self,
        agent: &AgentId,
        line: &str,
        channel: Channel,
    ) -> io::Result<()> {
        let line = sanitize_for_terminal(line);
        if line.trim().is_empty() {
            return Ok(());
        }
        let tag = self.tag(agent);
        match channel {
            Channel::Reasoning => {
                let body = self.style.dim(&format!("💭 {line}"));
                writeln!(self.out, "{tag} {body}")
            }
            Channel::Text => writeln!(self.out, "{tag} {line}"),
        }
    }

    pub(super) fn flush_reasoning(&mut self, agent: &AgentId) -> io::Result<()> {
        match self.lines.take(agent, Channel::Reasoning) {
            Some(rest) => self.print_stream_line(agent, &rest, Channel::Reasoning),
            None => Ok(()),
        }
    }

    pub(super) fn flush_agent(&mut self, agent: &AgentId) -> io::Result<()> {
        for channel in [Channel::Reasoning, Channel::Text] {
            if let Some(rest) = self.lines.take(agent, channel) {
                self.print_stream_line(agent, &rest, channel)?;
            }
        }
        Ok(())
    }

    pub(super) fn flush_all(&mut self) -> io::Result<()> {
        for agent in self.lines.agents() {
            self.flush_agent(&agent)?;
        }
        Ok(())
    }
}
