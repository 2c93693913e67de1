//! Streamed text held per agent until a whole line is ready, so several agents streaming
//! at once print readable lines instead of interleaved fragments.

use std::collections::BTreeMap;

use crate::protocol::AgentId;

/// Longest run of streamed text held back waiting for a line break.
const WRAP_AT: usize = 100;
/// A word longer than this (no space to wrap at) is cut here: what is held per agent
/// stays small however a model streams.
const HOLD_AT_MOST: usize = 1024;

/// Which stream of an agent a piece of text belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Channel {
    Reasoning,
    Text,
}

/// An agent's unfinished reasoning and text.
#[derive(Default)]
struct Pending {
    reasoning: String,
    text: String,
}

impl Pending {
    fn channel(&mut self, channel: Channel) -> &mut String {
        match channel {
            Channel::Reasoning => &mut self.reasoning,
            Channel::Text => &mut self.text,
        }
    }
}

#[derive(Default)]
pub struct AgentLines {
    pending: BTreeMap<AgentId, Pending>,
}

impl AgentLines {
    /// Adds streamed text and returns the lines it completed.
    pub fn push(&mut self, agent: &AgentId, channel: Channel, text: &str) -> Vec<String> {
        // Called per token: look up by reference, so the id is cloned once per agent.
        if !self.pending.contains_key(agent) {
            self.pending.insert(agent.clone(), Pending::default());
        }
        let Some(entry) = self.pending.get_mut(agent) else {
            return Vec::new();
        };
        let pending = entry.channel(channel);
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
        let rest = std::mem::take(self.pending.get_mut(agent)?.channel(channel));
        Some(rest.trim_end().to_string()).filter(|rest| !rest.is_empty())
    }

    /// Every agent with unfinished text, in id order.
    pub fn agents(&self) -> Vec<AgentId> {
        self.pending
            .iter()
            .filter(|(_, pending)| !pending.reasoning.is_empty() || !pending.text.is_empty())
            .map(|(agent, _)| agent.clone())
            .collect()
    }
}

/// Where to cut a complete line off the front of `pending`: after a newline, or at a space
/// once the text is longer than [`WRAP_AT`].
fn line_cut(pending: &str) -> Option<usize> {
    if let Some(newline) = pending.find('\n') {
        return Some(newline + 1);
    }
    if pending.len() <= WRAP_AT || pending.chars().count() <= WRAP_AT {
        return None;
    }
    let limit = pending
        .char_indices()
        .nth(WRAP_AT)
        .map_or(pending.len(), |(index, _)| index);
    let at_space = pending[..limit]
        .rfind(' ')
        .filter(|&space| space > 0)
        .map(|space| space + 1);
    at_space.or_else(|| {
        (pending.len() > HOLD_AT_MOST).then(|| {
            (0..=HOLD_AT_MOST)
                .rev()
                .find(|&index| pending.is_char_boundary(index))
                .filter(|&index| index > 0)
                .unwrap_or(pending.len())
        })
    })
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

    #[test]
    fn a_word_without_end_is_cut_instead_of_held_whole() {
        let mut lines = AgentLines::default();
        let agent = AgentId::new("a");
        let mut out = Vec::new();
        for _ in 0..10_000 {
            out.extend(lines.push(&agent, Channel::Text, "wwwwwwwé"));
        }
        assert!(out.len() >= 70, "{}", out.len());
        assert!(out.iter().all(|line| line.len() <= HOLD_AT_MOST));
        let held = lines.take(&agent, Channel::Text).unwrap_or_default();
        assert!(held.len() <= HOLD_AT_MOST);
        assert_eq!(
            out.concat().len() + held.len(),
            10_000 * "wwwwwwwé".len(),
            "nothing is lost"
        );
    }
}
