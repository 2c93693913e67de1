//! The plain display's lines for a tool the provider ran itself: what it searched or ran,
//! then its output and the pages it found, each with its link.

use std::io::{self, Write};

use super::{PlainPrinter, preview};
use crate::protocol::{AgentId, ProviderToolCall};
use crate::sanitize::sanitize_for_terminal as clean;

/// Sources listed under a search; the rest are counted.
const SHOWN_SOURCES: usize = 5;

impl<W: Write> PlainPrinter<W> {
    /// `☁ provider/web_search rust 2024 ✓`, then `  ↳ title — url` a source.
    pub(super) fn provider_tool(
        &mut self,
        agent: &AgentId,
        call: &ProviderToolCall,
    ) -> io::Result<()> {
        let head = format!(
            "☁ provider/{} {}",
            clean(&call.tool),
            preview(&call.input, 80)
        );
        let line = if call.ok {
            format!("{head} {}", self.style.good("✓"))
        } else {
            format!("{head} {}", self.style.bad("✗"))
        };
        self.agent_line(agent, &line)?;
        if !call.output.trim().is_empty() {
            let output = self
                .style
                .dim(&format!("  ↳ {}", preview(&call.output, 100)));
            self.agent_line(agent, &output)?;
        }
        for source in call.sources.iter().take(SHOWN_SOURCES) {
            let text = if source.title.is_empty() {
                clean(&source.url).to_string()
            } else {
                format!("{} — {}", preview(&source.title, 60), clean(&source.url))
            };
            let text = self.style.dim(&format!("  ↳ {text}"));
            self.agent_line(agent, &text)?;
        }
        if call.sources.len() > SHOWN_SOURCES {
            let more = format!("  ↳ … {} more", call.sources.len() - SHOWN_SOURCES);
            let more = self.style.dim(&more);
            self.agent_line(agent, &more)?;
        }
        Ok(())
    }
}
