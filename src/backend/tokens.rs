//! Token counts estimated with a tokenizer (OpenAI's o200k encoding), for calls whose
//! provider reported no usage or whose stream was cut before it could.
//!
//! Every provider tokenizes differently, so these are estimates, and are marked as such.

use std::sync::OnceLock;

use super::message::{Message, ReasoningBlock, ToolSpec};
use super::o200k::Encoder;
use crate::protocol::Usage;

/// What chat formats add around each message (role markers, separators).
const PER_MESSAGE_OVERHEAD: u64 = 4;

/// The tokenizer, built from the packed o200k table on the first estimate, never at
/// start-up: most providers report usage, so most runs never need it. `None` if the table
/// could not be read (a broken build); estimates then fall back to four bytes a token.
static TOKENIZER: OnceLock<Option<Encoder>> = OnceLock::new();

/// Whether the tokenizer has been built in this process (the footprint test checks that
/// `--help` and a demo turn do not build it).
pub fn tokenizer_loaded() -> bool {
    TOKENIZER.get().is_some()
}

fn tokenizer() -> Option<&'static Encoder> {
    TOKENIZER.get_or_init(Encoder::o200k).as_ref()
}

/// Text is counted in pieces of at most this many bytes, cut before a white-space
/// character where there is one: byte-pair encoding of one long run without white space
/// (a model streaming a single endless word) costs time and memory growing with the square
/// of its length. The tokenizer's own split puts a space with the word after it, so a cut
/// there changes no count.
const COUNT_PIECE_BYTES: usize = 4096;

/// Tokens in `text`.
pub fn count(text: &str) -> u64 {
    if text.is_empty() {
        return 0;
    }
    match tokenizer() {
        Some(encoder) => pieces(text).map(|piece| encoder.count(piece) as u64).sum(),
        None => text.len().div_ceil(4) as u64,
    }
}

/// `text` in pieces of at most [`COUNT_PIECE_BYTES`] (longer only for a character that
/// is), each but the last cut before white space when it holds any past its start.
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        if rest.len() <= COUNT_PIECE_BYTES {
            return Some(std::mem::take(&mut rest));
        }
        let mut end = COUNT_PIECE_BYTES;
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        if end == 0 {
            end = rest
                .char_indices()
                .nth(1)
                .map_or(rest.len(), |(index, _)| index);
        }
        let cut = rest[..end]
            .char_indices()
            .rev()
            .find(|(index, character)| *index > 0 && character.is_whitespace())
            .map_or(end, |(index, _)| index);
        let (piece, after) = rest.split_at(cut);
        rest = after;
        Some(piece)
    })
}

/// Tokens in a request: every message's text, tool calls and results, and the tool
/// schemas offered.
pub fn count_prompt(messages: &[Message], tools: &[ToolSpec]) -> u64 {
    let in_messages: u64 = messages
        .iter()
        .map(|message| PER_MESSAGE_OVERHEAD + count_message(message))
        .sum();
    let in_tools: u64 = tools
        .iter()
        .map(|tool| {
            count(&tool.name) + count(&tool.description) + count(&tool.parameters.to_string())
        })
        .sum();
    in_messages + in_tools
}

fn count_message(message: &Message) -> u64 {
    match message {
        Message::System { content } | Message::User { content, .. } => count(content),
        Message::Assistant {
            content,
            tool_calls,
            reasoning,
        } => {
            count(content)
                + tool_calls
                    .iter()
                    .map(|call| count(&call.name) + count(&call.arguments))
                    .sum::<u64>()
                + reasoning.iter().map(count_reasoning).sum::<u64>()
        }
        Message::Tool { name, content, .. } => count(name) + count(content),
    }
}

fn count_reasoning(block: &ReasoningBlock) -> u64 {
    match block {
        ReasoningBlock::Signed { text, .. } => count(text),
        ReasoningBlock::Redacted { .. } => 0,
        ReasoningBlock::ProviderTool { item, .. } => count(&item.to_string()),
    }
}

/// An estimated usage: the prompt's tokens in, and the generated text, reasoning and tool
/// calls out.
pub fn estimate(prompt_tokens: u64, output: &[&str], reasoning: &str) -> Usage {
    let reasoning_tokens = count(reasoning);
    Usage {
        input_tokens: prompt_tokens,
        output_tokens: output.iter().map(|text| count(text)).sum::<u64>() + reasoning_tokens,
        reasoning_tokens,
        cached_input_tokens: 0,
        cache_creation_tokens: 0,
        estimated: true,
        web_searches: 0,
        x_searches: 0,
        code_runs: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_counted_in_pieces_cut_before_white_space() {
        let prose = "The quick brown fox jumps over the lazy dog. ".repeat(400);
        let whole = tokenizer().unwrap().count(&prose) as u64;
        assert_eq!(
            count(&prose),
            whole,
            "a cut before a space changes no count"
        );
        let word = "w".repeat(1 << 20);
        let started = std::time::Instant::now();
        assert!(count(&word) > 0);
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
        let accents = "é".repeat(5000);
        let lengths: Vec<usize> = pieces(&accents).map(str::len).collect();
        assert!(lengths.iter().all(|length| *length <= COUNT_PIECE_BYTES));
        assert_eq!(lengths.iter().sum::<usize>(), accents.len());
    }

    #[test]
    fn counts_tokens_like_the_o200k_encoding() {
        assert_eq!(count(""), 0);
        assert_eq!(count("hello world"), 2);
        assert!(count(&"word ".repeat(100)) >= 100);
    }

    #[test]
    fn a_prompt_counts_every_message_and_tool() {
        let messages = vec![Message::system("Be brief."), Message::user("Hi there")];
        let bare = count_prompt(&messages, &[]);
        assert_eq!(
            bare,
            2 * PER_MESSAGE_OVERHEAD + count("Be brief.") + count("Hi there")
        );
        let tool = ToolSpec {
            name: "vote".into(),
            description: "Vote for the best answer".into(),
            parameters: serde_json::json!({"type": "object"}),
        };
        assert!(count_prompt(&messages, &[tool]) > bare);
    }

    #[test]
    fn an_estimate_is_marked_and_counts_reasoning_within_output() {
        let usage = estimate(10, &["The answer is 42."], "Let me think.");
        assert!(usage.estimated);
        assert_eq!(usage.input_tokens, 10);
        assert_eq!(usage.reasoning_tokens, count("Let me think."));
        assert_eq!(
            usage.output_tokens,
            count("The answer is 42.") + count("Let me think.")
        );
    }
}
