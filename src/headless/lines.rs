//! Streamed text held per agent until a whole line is ready, so several agents streaming
//! at once print readable lines instead of interleaved fragments.

use std::collections::BTreeMap;

use crate::protocol::AgentId;

/// Longest run of streamed text held back waiting for a line break.
const WRAP_AT: usize = 100;

/// Which stream of an agent a piece of text belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Channel {
    Reasoning,
    Text,
}

#[derive(Default)]
pub struct AgentLines {
    pending: BTreeMap<(AgentId, Channel), String>,
}

impl AgentLines {
    /// Adds streamed text and returns the lines it completed.
    pub fn push(&mut self, agent: &AgentId, channel: Channel, text: &str) -> Vec<String> {
        let pending = self.pending.entry((agent.clone(), channel)).or_default();
        pending.push_str(text);
        let mut lines = Vec::new();
        while let Some(cut) = line_cut(pending) {
            let line: String = pending.drain(..cut).collect();
            lines.push(line.trim_end().to_string());
            let skip = pending.len() - pending.trim_start_matches([' ', '\n']).len();
            pending.drain(..skip);
        }
        lines
    }

    /// The unfinished line of one stream, which is then empty.
    pub fn take(&mut self, agent: &AgentId, channel: Channel) -> Option<String> {
        self.pending
            .remove(&(agent.clone(), channel))
            .map(|rest| rest.trim_end().to_string())
            .filter(|rest| !rest.is_empty())
    }

    /// Every agent with unfinished text, in id order.
    pub fn agents(&self) -> Vec<AgentId> {
        let mut agents: Vec<AgentId> = self
            .pending
            .keys()
            .map(|(agent, _)| agent.clone())
            .collect();
        agents.dedup();
        agents
    }
}

/// Where to cut a complete line off the front of `pending`: after a newline, or at a space
/// once the text is longer than [`WRAP_AT`].
fn line_cut(pending: &str) -> Option<usize> {
    if let Some(newline) = pending.find('\n') {
        return Some(newline + 1);
    }
    if pending.chars().count() <= WRAP_AT {
        return None;
    }
    let limit = pending
        .char_indices()
        .nth(WRAP_AT)
        .map_or(pending.len(), |(index, _)| index);
    pending[..limit]
        .rfind(' ')
        .filter(|&space| space > 0)
        .map(|space| space + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_lines_come_out_and_long_runs_wrap_at_a_space() {
        let mut lines = AgentLines::default();
        let agent = AgentId::new("a");
        assert!(lines.push(&agent, Channel::Text, "Hello ").is_empty());
        assert_eq!(
            lines.push(&agent, Channel::Text, "world\nnext"),
            ["Hello world"]
        );
        assert_eq!(lines.take(&agent, Channel::Text).as_deref(), Some("next"));
        assert_eq!(lines.take(&agent, Channel::Text), None);
        let long = "word ".repeat(30);
        let out = lines.push(&agent, Channel::Reasoning, &long);
        assert_eq!(out.len(), 1);
        assert!(out[0].chars().count() <= 100);
        assert_eq!(lines.agents(), [agent]);
    }
}
