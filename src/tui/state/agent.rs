//! One agent's card: who it is, what it is doing, what it has used, and everything it
//! produced this turn as an ordered list of items (text, reasoning, tools, markers).

use jiff::Timestamp;

use super::code::CodeLines;
use super::plan::TaskTree;
use crate::protocol::{AgentInfo, AgentStatus, AnswerLabel, ProviderToolCall, Spend, TaskView};

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
fn kept_tail(text: &str) -> Option<String> {
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
    fn keep_tail(&mut self) {
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

/// How far a card's output went when the user scrolled up: a paused card shows only this
/// much, so new output cannot move what the user is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputMark {
    pub items: usize,
    /// Bytes of the last item's growing text (answer, reasoning or final answer).
    pub tail_len: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AgentCard {
    pub info: AgentInfo,
    pub status: AgentStatus,
    pub round: u32,
    /// When the agent first became active this turn.
    pub started_at: Option<Timestamp>,
    /// Tokens and cost of this turn so far.
    pub spend: Spend,
    pub answers: u32,
    /// Tool calls begun and not yet ended (kept as a count: the status bar reads it every
    /// frame, whatever the length of the output).
    pub running_tools: usize,
    pub is_winner: bool,
    pub items: Vec<CardItem>,
    /// The agent's task plan, whole, as it last reported it.
    pub tasks: Vec<TaskView>,
    /// `tasks` in tree order, with counts and the current task.
    pub task_tree: TaskTree,
    /// The winner's: how the plan its work carried out ended (its tasks' final states).
    pub plan_outcome: Option<crate::protocol::PlanOutcome>,
    /// The running round's time limit, counted from its start.
    pub round_clock: Option<super::RoundClock>,
}

impl AgentCard {
    pub fn new(info: AgentInfo) -> Self {
        Self {
            info,
            status: AgentStatus::Waiting,
            round: 0,
            started_at: None,
            spend: Spend::default(),
            answers: 0,
            running_tools: 0,
            is_winner: false,
            items: Vec::new(),
            tasks: Vec::new(),
            task_tree: TaskTree::default(),
            plan_outcome: None,
            round_clock: None,
        }
    }

    /// The winner, shown as one: chosen, and its presentation was not cancelled.
    pub fn won(&self) -> bool {
        self.is_winner && self.status != AgentStatus::Cancelled
    }

    /// Clears the turn's output, keeping who the agent is.
    pub fn reset_for_turn(&mut self) {
        *self = Self::new(self.info.clone());
    }

    /// A tool the provider ran: a card already finished, its output and pages shown
    /// when it is opened.
    pub fn push_provider_tool(&mut self, call: &ProviderToolCall) {
        self.items.push(CardItem::Tool(ToolCard {
            call_id: call.call_id.clone(),
            name: provider_tool_name(&call.tool),
            arguments: call.input.clone(),
            state: ToolState::Provider {
                ok: call.ok,
                output: call.summary(),
            },
        }));
    }

    /// Appends streamed text to the last item if it is of the same kind.
    pub fn push_text(&mut self, text: &str) {
        if let Some(CardItem::Text(existing)) = self.items.last_mut() {
            existing.push(text);
            existing.keep_tail();
        } else {
            self.items.push(CardItem::Text(TextBlock::from(text)));
        }
    }

    /// Appends streamed reasoning. During the final presentation it goes before the
    /// answer being presented, so the answer stays last.
    pub fn push_reasoning(&mut self, text: &str) {
        let presenting = matches!(self.items.last(), Some(CardItem::Final { done: false, .. }));
        let at = self.items.len() - usize::from(presenting);
        if let Some(CardItem::Reasoning(existing)) = at
            .checked_sub(1)
            .and_then(|before| self.items.get_mut(before))
        {
            existing.push_str(text);
            if let Some(tail) = kept_tail(existing) {
                *existing = tail;
            }
        } else {
            self.items.insert(at, CardItem::Reasoning(text.to_string()));
        }
    }

    /// The final presentation being streamed (reasoning may have come after its start).
    pub fn final_mut(&mut self) -> Option<(&mut TextBlock, &mut bool)> {
        self.items.iter_mut().rev().find_map(|item| {
            if let CardItem::Final { body, done, .. } = item {
                Some((body, done))
            } else {
                None
            }
        })
    }

    pub fn tool_mut(&mut self, call_id: &str) -> Option<&mut ToolCard> {
        self.items.iter_mut().rev().find_map(|item| {
            if let CardItem::Tool(card) = item
                && card.call_id == call_id
            {
                Some(card)
            } else {
                None
            }
        })
    }

    /// Where the output ends now.
    pub fn output_mark(&self) -> OutputMark {
        OutputMark {
            items: self.items.len(),
            tail_len: self.items.last().map_or(0, |item| growing_text(item).len()),
        }
    }

    /// Lines and items produced after `mark`, for the "N new" hint of a paused card.
    pub fn new_since(&self, mark: OutputMark) -> usize {
        let tail = mark
            .items
            .checked_sub(1)
            .and_then(|last| self.items.get(last))
            .map_or(0, |item| {
                growing_text(item)
                    .get(mark.tail_len..)
                    .map_or(0, |added| added.matches('\n').count())
            });
        tail + self.items.len().saturating_sub(mark.items)
    }

    /// The model name without a vendor prefix (`openai/gpt-5` → `gpt-5`), for tabs.
    pub fn short_model(&self) -> &str {
        self.info
            .model
            .rsplit('/')
            .next()
            .unwrap_or(&self.info.model)
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

/// `mcp__server__tool` → `server/tool`; other names unchanged.
pub fn display_tool_name(name: &str) -> String {
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
    use crate::protocol::AgentId;

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
