//! Compressing an agent's conversation to fit its model's context window, as MassGen does:
//! the system prompt and the question stay, the most recent messages stay (those within a
//! token budget past the threshold, MassGen's `ContextCompressor`; a share of them after a
//! provider's context-length error, its `compress_messages_for_recovery`), and the older
//! turns and tool results between are replaced by a record of them cut to fit (or, after
//! an error, by the model's summary of them when it wrote one); then the largest message is
//! truncated if the whole still does not fit.

use crate::backend::message::Message;
use crate::backend::tokens;

/// Which recent messages stay as they were.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Keep {
    /// As many of the latest messages as fit in this many tokens, with the record of the
    /// others (past the threshold).
    Tokens(u64),
    /// This share of the messages after the question, at least one (after an error).
    Share(f64),
}

/// A compressed conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Compressed {
    pub messages: Vec<Message>,
    /// The older messages replaced by the record.
    pub removed: usize,
}

/// MassGen's floor for a truncated message, in tokens.
const MIN_TRUNCATED_TOKENS: u64 = 1000;
/// MassGen's extra margin when truncating the largest message, in tokens.
const TRUNCATION_MARGIN: u64 = 500;
/// How the record lists the tool calls it replaced.
pub const CALLS_MADE: &str = "Tool calls in them: ";
/// MassGen's bound on the halvings that find where to cut.
const HALVINGS: u32 = 10;
/// How the notice in place of the older messages starts.
pub const RECOVERY_MARK: &str = "[CONTEXT RECOVERY - KEEP WORKING]";
const TRUNCATED_MARK: &str = "\n\n[... truncated to fit context ...]";

/// What takes the place of the older messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Replacement<'a> {
    /// MassGen's transcript of them, cut to fit.
    Transcript,
    /// The model's own summary of them (after a context-length error).
    Summary(&'a str),
}

/// Compresses `messages` so the recent ones in `keep` stay and everything fits in `fit`
/// tokens, the older ones replaced by their transcript; `None` when there was nothing to
/// take out.
pub fn compress(messages: &[Message], keep: Keep, fit: u64) -> Option<Compressed> {
    compress_replacing(messages, keep, fit, Replacement::Transcript)
}

/// [`compress`], the older messages replaced by `replacement`.
pub fn compress_replacing(
    messages: &[Message],
    keep: Keep,
    fit: u64,
    replacement: Replacement<'_>,
) -> Option<Compressed> {
    let (head_len, start) = split(messages, keep);
    let (head, rest) = messages.split_at(head_len);
    let (removed, recent) = rest.split_at(start - head_len);
    let mut result = head.to_vec();
    if !removed.is_empty() {
        let notice = match replacement {
            Replacement::Transcript => {
                let budget = match keep {
                    Keep::Tokens(target) => (target / 4).max(MIN_TRUNCATED_TOKENS),
                    Keep::Share(_) => (fit / 4).max(MIN_TRUNCATED_TOKENS),
                };
                record(removed, budget)
            }
            Replacement::Summary(summary) => summary_notice(removed, summary),
        };
        match result.last_mut() {
            Some(Message::User { content, .. }) => {
                content.push_str("\n\n");
                content.push_str(&notice);
            }
            _ => result.push(Message::user(notice)),
        }
    }
    result.extend_from_slice(recent);
    let truncated = truncate_largest(&mut result, fit);
    (!removed.is_empty() || truncated).then_some(Compressed {
        messages: result,
        removed: removed.len(),
    })
}

/// The older messages a compression keeping `keep` takes out.
pub fn removed(messages: &[Message], keep: Keep) -> &[Message] {
    let (head_len, start) = split(messages, keep);
    &messages[head_len..start]
}

/// Where the older messages start (after the head) and where the kept ones start.
fn split(messages: &[Message], keep: Keep) -> (usize, usize) {
    let head_len = head_len(messages);
    let (head, rest) = messages.split_at(head_len);
    let tail_budget = match keep {
        Keep::Tokens(target) => (target / 4 * 3).saturating_sub(count(head)),
        Keep::Share(_) => 0,
    };
    (head_len, head_len + keep_from(rest, keep, tail_budget))
}

/// The leading system messages and the question (the first user message after them).
fn head_len(messages: &[Message]) -> usize {
    let systems = messages
        .iter()
        .take_while(|message| matches!(message, Message::System { .. }))
        .count();
    match messages.get(systems) {
        Some(Message::User { .. }) => systems + 1,
        _ => systems,
    }
}

/// Where the kept recent messages start in `rest`. A tool result never starts them: its
/// call is kept with it, or a provider would refuse the orphaned result.
fn keep_from(rest: &[Message], keep: Keep, budget: u64) -> usize {
    if rest.is_empty() {
        return 0;
    }
    let mut start = match keep {
        Keep::Share(share) => {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let kept = ((rest.len() as f64 * share) as usize).max(1);
            rest.len() - kept.min(rest.len())
        }
        Keep::Tokens(_) => {
            let mut used = 0;
            let mut start = rest.len();
            for (index, message) in rest.iter().enumerate().rev() {
                used += count(std::slice::from_ref(message));
                if used > budget {
                    break;
                }
                start = index;
            }
            start.min(rest.len() - 1)
        }
    };
    while start > 0 && matches!(rest[start], Message::Tool { .. }) {
        start -= 1;
    }
    start
}

/// What the agent is told in place of the older messages: MassGen's recovery notice and
/// its transcript of them, cut to `budget`.
fn record(removed: &[Message], budget: u64) -> String {
    format!(
        "{RECOVERY_MARK}\n\n\
         Your conversation outgrew your model's context window and was compressed: {} \
         earlier messages were replaced by the record below, cut to fit. Your files are as you \
         left them. Continue from where you left off; do not start the task over.\n{}\n---\n\n{}",
        removed.len(),
        calls_made(removed),
        truncate_to(&transcript(removed), budget)
    )
}

/// The recovery notice around the model's summary of the older messages: keep working,
/// the work is not done.
fn summary_notice(removed: &[Message], summary: &str) -> String {
    format!(
        "{RECOVERY_MARK}\n\n\
         Your conversation outgrew your model's context window and was compressed: {} \
         earlier messages were replaced by the summary of your progress below, written by \
         your model. Your files are as you left them. The task is not finished: keep working \
         on what remains, and submit an answer only once it is complete.\n{}\n---\n\n{}\n\n---\n\n\
         Continue working now, from where the summary leaves off.",
        removed.len(),
        calls_made(removed),
        summary.trim()
    )
}

/// MassGen's transcript of messages: `[role]`, `[Tool Call: name]`, `[Tool Result]`.
pub fn transcript(messages: &[Message]) -> String {
    messages
        .iter()
        .map(|message| match message {
            Message::System { content } => format!("[system]\n{content}"),
            Message::User { content, .. } => format!("[user]\n{content}"),
            Message::Assistant {
                content,
                tool_calls,
                ..
            } => {
                let mut parts = Vec::new();
                if !content.is_empty() {
                    parts.push(format!("[assistant]\n{content}"));
                }
                parts.extend(tool_calls.iter().map(|call| {
                    format!("[Tool Call: {}]\nArguments: {}", call.name, call.arguments)
                }));
                parts.join("\n\n---\n\n")
            }
            Message::Tool { content, .. } => format!("[Tool Result]\n{content}"),
        })
        .collect::<Vec<_>>()
        .join("\n\n---\n\n")
}

/// `Tool calls in them: search (8), read_file (2).`, in the order first made, so the
/// count survives a transcript cut short; empty when they made none.
fn calls_made(removed: &[Message]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for message in removed {
        if let Message::Assistant { tool_calls, .. } = message {
            for call in tool_calls {
                match counts.iter_mut().find(|(name, _)| *name == call.name) {
                    Some((_, count)) => *count += 1,
                    None => counts.push((&call.name, 1)),
                }
            }
        }
    }
    if counts.is_empty() {
        return String::new();
    }
    let listed: Vec<String> = counts
        .iter()
        .map(|(name, count)| format!("{name} ({count})"))
        .collect();
    format!("{CALLS_MADE}{}.\n", listed.join(", "))
}

/// MassGen's last step: when the messages still exceed `fit`, the largest one is cut by
/// the excess (and a margin), never below a thousand tokens. Whether it cut.
fn truncate_largest(messages: &mut [Message], fit: u64) -> bool {
    let total = count(messages);
    if total <= fit {
        return false;
    }
    let Some((index, largest)) = messages
        .iter()
        .map(|message| tokens::count(message.content()))
        .enumerate()
        .max_by_key(|(_, tokens)| *tokens)
    else {
        return false;
    };
    let target = largest
        .saturating_sub(total - fit)
        .saturating_sub(TRUNCATION_MARGIN)
        .max(MIN_TRUNCATED_TOKENS);
    if target >= largest {
        return false;
    }
    let content = match &mut messages[index] {
        Message::System { content }
        | Message::User { content, .. }
        | Message::Assistant { content, .. }
        | Message::Tool { content, .. } => content,
    };
    *content = truncate_to(content, target);
    true
}

/// `text` cut to at most `budget` tokens (found by halving, at most ten times, as MassGen
/// does), marked as cut.
pub fn truncate_to(text: &str, budget: u64) -> String {
    if tokens::count(text) <= budget {
        return text.to_string();
    }
    // A token is at least a byte: the first `budget` bytes always fit.
    let mut low = floor_boundary(text, usize::try_from(budget).unwrap_or(usize::MAX));
    let mut high = text.len();
    for _ in 0..HALVINGS {
        if low >= high {
            break;
        }
        let middle = floor_boundary(text, (low + high).div_ceil(2));
        if middle <= low {
            break;
        }
        if tokens::count(&text[..middle]) <= budget {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    format!("{}{TRUNCATED_MARK}", &text[..floor_boundary(text, low)])
}

fn floor_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// Tokens in `messages`, as the orchestrator estimates a prompt.
pub fn count(messages: &[Message]) -> u64 {
    tokens::count_prompt(messages, &[])
}

#[cfg(test)]
#[path = "compression_tests.rs"]
mod tests;
