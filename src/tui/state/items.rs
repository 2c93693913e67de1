//! What a card lists: the items of one agent's output (text, reasoning, tool calls,
//! markers), streamed text bounded to its tail, and how tools are named on a card.

use super::code::CodeLines;
use crate::protocol::AnswerLabel;

/// A tool call as its card shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCard {
    pub call_id: String,
    /// `server/tool` for MCP tools (`mcp__server__tool`), else the tool name.
    pub name: String,
    pub arguments: String,
    pub state: ToolState,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolState {
    Running,
    Done {
        ok: bool,
        output: String,
        duration_ms: u64,
    },
    /// The model's provider ran the tool on its own servers (web search, code
    /// execution); `output` is what it printed and the sources it found.
    Provider {
        ok: bool,
        output: String,
    },
    /// Planning mode kept the call from running.
    Blocked {
        message: String,
    },
}

/// How much of one streamed item (text or reasoning) a card keeps: past twice this, the
/// front is dropped down to it, so a model streaming without end costs the screen a
/// bounded amount. The turn's log keeps every character.
pub const KEPT_STREAMED_BYTES: usize = 256 * 1024;

/// What stands where the front of a long streamed item was dropped.
pub const DROPPED_NOTE: &str = "[… earlier text not kept here; the turn's log has all of it]\n";

/// The last [`KEPT_STREAMED_BYTES`] of `text` (from a line start when one is near), after
/// [`DROPPED_NOTE`], once `text` is over twice that; `None` while it is not.
pub(super) fn kept_tail(text: &str) -> Option<String> {
    if text.len() <= 2 * KEPT_STREAMED_BYTES {
        return None;
    }
    let mut start = text.len() - KEPT_STREAMED_BYTES;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    if let Some(newline) = text[start..].find('\n').filter(|at| *at < 4096) {
        start += newline + 1;
    }
    Some(format!("{DROPPED_NOTE}{}", &text[start..]))
}

/// Streamed text and the highlighting of its code blocks, kept as lines complete.
#[derive(Clone, Debug, Default)]
pub struct TextBlock {
    pub text: String,
    pub code: CodeLines,
}

impl TextBlock {
    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
        self.code.update(&self.text);
    }

    /// Drops the front of text streamed past the card's bound ([`KEPT_STREAMED_BYTES`]);
    /// highlighting starts over on what is kept.
    pub(super) fn keep_tail(&mut self) {
        if let Some(tail) = kept_tail(&self.text) {
            self.set(&tail);
        }
    }

    /// Replaces the text (a final answer given whole); highlighting starts over.
    pub fn set(&mut self, text: &str) {
        *self = Self::from(text);
    }
}

impl From<&str> for TextBlock {
    fn from(text: &str) -> Self {
        let mut block = Self::default();
        block.push(text);
        block
    }
}

/// Two blocks are equal when their text is: the highlighting follows from it.
impl PartialEq for TextBlock {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

/// One piece of an agent's output, in the order it happened.
#[derive(Clone, Debug, PartialEq)]
pub enum CardItem {
    /// Streamed answer text; consecutive deltas extend one item.
    Text(TextBlock),
    /// Streamed reasoning; shown collapsed to one line unless expanded.
    Reasoning(String),
    Tool(ToolCard),
    /// A new round began (a restart after new answers, or the first round).
    Round {
        round: u32,
        answers_seen: Vec<AnswerLabel>,
    },
    Answer {
        label: AnswerLabel,
        content: String,
    },
    Vote {
        target_label: AnswerLabel,
        target: String,
        reason: String,
    },
    VoteIgnored {
        target: String,
        why: String,
    },
    Retry {
        reason: String,
        delay_ms: u64,
        attempt: u32,
        max_retries: u32,
    },
    Error(String),
    Notice(String),
    /// The workspace was saved after an answer.
    Snapshot {
        files: u64,
        bytes: u64,
        skipped: usize,
    },
    /// The winner's final answer, streamed.
    Final {
        label: AnswerLabel,
        body: TextBlock,
        done: bool,
    },
}

impl CardItem {
    /// The tool call, if the item is one.
    pub fn tool(&self) -> Option<&ToolCard> {
        if let Self::Tool(tool) = self {
            Some(tool)
        } else {
            None
        }
    }
}

/// The text of an item that grows while it streams; empty for the others.
pub fn growing_text(item: &CardItem) -> &str {
    match item {
        CardItem::Text(block) | CardItem::Final { body: block, .. } => &block.text,
        CardItem::Reasoning(text) => text,
        CardItem::Tool(_)
        | CardItem::Round { .. }
        | CardItem::Answer { .. }
        | CardItem::Vote { .. }
        | CardItem::VoteIgnored { .. }
        | CardItem::Retry { .. }
        | CardItem::Error(_)
        | CardItem::Notice(_)
        | CardItem::Snapshot { .. } => "",
    }
}

/// A provider's own tool as its card names it: `web_search` → `provider/web_search`.
pub fn provider_tool_name(name: &str) -> String {
    format!("provider/{name}")
}

/// `mcp__server__tool` → `server/tool`; a Python custom tool `custom_tool__name` →
/// `category/name` as an MCP tool shows its server, `custom/name` in the `default`
/// category; other names unchanged.
pub fn display_tool_name(name: &str, category: Option<&str>) -> String {
    if let Some(tool) = name.strip_prefix(crate::config::CUSTOM_TOOL_PREFIX) {
        let category = category.filter(|category| !category.is_empty() && *category != "default");
        return format!("{}/{tool}", category.unwrap_or("custom"));
    }
    match name
        .strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
    {
        Some((server, tool)) => format!("{server}/{tool}"),
        None => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AgentId, AgentInfo};
    use crate::tui::state::AgentCard;

    #[test]
    fn mcp_and_custom_tools_are_named_by_where_they_come_from() {
        assert_eq!(
            display_tool_name("mcp__search__fetch", None),
            "search/fetch"
        );
        assert_eq!(
            display_tool_name("custom_tool__two_num_tool", None),
            "custom/two_num_tool"
        );
        assert_eq!(
            display_tool_name("custom_tool__two_num_tool", Some("math")),
            "math/two_num_tool"
        );
        assert_eq!(
            display_tool_name("custom_tool__two_num_tool", Some("default")),
            "custom/two_num_tool"
        );
        assert_eq!(display_tool_name("new_answer", None), "new_answer");
    }

    #[test]
    fn a_card_keeps_the_tail_of_text_streamed_without_end() {
        let info = AgentInfo::roster([(AgentId::new("a"), "p".to_string(), "m".to_string())]);
        let mut card = AgentCard::new(info[0].clone());
        for index in 0..200_000 {
            card.push_text(&format!("w{index:07}"));
        }
        for _ in 0..200_000 {
            card.push_reasoning("reasoned");
        }
        let [CardItem::Text(block), CardItem::Reasoning(reasoning)] = &card.items[..] else {
            panic!("{} items", card.items.len());
        };
        for kept in [&block.text, reasoning] {
            assert!(kept.len() <= 2 * KEPT_STREAMED_BYTES + DROPPED_NOTE.len());
            assert!(kept.starts_with(DROPPED_NOTE));
        }
        assert!(block.text.ends_with("w0199999"), "the newest text is shown");
    }
}
