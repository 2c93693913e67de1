//! Collects a stream of events into one complete assistant turn.

use std::collections::BTreeMap;

use super::error::BackendError;
use super::message::{FinishReason, ReasoningBlock, StreamEvent, ToolCall};
use super::tokens;
use crate::protocol::{ProviderToolCall, Usage};

/// Everything one model call produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AssistantTurn {
    pub text: String,
    pub reasoning: String,
    /// Signed reasoning blocks, to send back with the tool calls.
    pub reasoning_blocks: Vec<ReasoningBlock>,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
}

#[derive(Default)]
pub struct TurnBuilder {
    text: String,
    reasoning: String,
    reasoning_blocks: Vec<ReasoningBlock>,
    /// Where in `reasoning` the block awaiting its signature starts.
    unsigned_from: usize,
    calls: BTreeMap<usize, ToolCall>,
    usage: Usage,
    reported: bool,
    reported_cost: Option<f64>,
    /// The provider's own tool calls billed per call, counted from their cards (the
    /// providers report no such count in their usage).
    tool_calls: ToolCalls,
    finish: Option<FinishReason>,
}

/// Provider-run tool calls seen in this call, for the bill.
#[derive(Clone, Copy, Default)]
struct ToolCalls {
    x_searches: u64,
    code_runs: u64,
}

/// The cards of the providers' code tools: OpenAI's and xAI's `code_interpreter`,
/// Gemini's and Anthropic's `code_execution`, and the `bash_code_execution` and
/// `text_editor_code_execution` steps of Anthropic's current code execution tool.
const CODE_TOOLS: [&str; 4] = [
    "code_interpreter",
    "code_execution",
    "bash_code_execution",
    "text_editor_code_execution",
];

impl ToolCalls {
    fn count(&mut self, call: &ProviderToolCall) {
        if call.tool == "x_search" && call.ok {
            self.x_searches += 1;
        } else if CODE_TOOLS.contains(&call.tool.as_str()) {
            // A run that failed used the container all the same.
            self.code_runs += 1;
        }
    }

    /// `usage` with these counts.
    fn added_to(self, mut usage: Usage) -> Usage {
        usage.x_searches += self.x_searches;
        usage.code_runs += self.code_runs;
        usage
    }
}

impl TurnBuilder {
    pub fn push(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::TextDelta(text) => self.text.push_str(text),
            StreamEvent::ReasoningDelta(text) => self.reasoning.push_str(text),
            StreamEvent::ToolCallStart { index, id, name } => {
                let call = self.calls.entry(*index).or_insert_with(empty_call);
                if !id.is_empty() {
                    call.id.clone_from(id);
                }
                call.name.push_str(name);
            }
            StreamEvent::ToolCallArgsDelta { index, fragment } => {
                self.calls
                    .entry(*index)
                    .or_insert_with(empty_call)
                    .arguments
                    .push_str(fragment);
            }
            StreamEvent::ReasoningSignature(signature) => {
                let text = self.reasoning[self.unsigned_from..].to_string();
                self.unsigned_from = self.reasoning.len();
                self.reasoning_blocks.push(ReasoningBlock::Signed {
                    text,
                    signature: signature.clone(),
                });
            }
            StreamEvent::RedactedReasoning(data) => {
                self.reasoning_blocks
                    .push(ReasoningBlock::Redacted { data: data.clone() });
            }
            StreamEvent::ToolCallSignature { index, signature } => {
                self.calls
                    .entry(*index)
                    .or_insert_with(empty_call)
                    .signature = Some(signature.clone());
            }
            StreamEvent::ProviderBlock { wire, item } => {
                self.reasoning_blocks.push(ReasoningBlock::ProviderTool {
                    wire: *wire,
                    item: item.clone(),
                });
            }
            StreamEvent::ProviderTool(call) => self.tool_calls.count(call),
            StreamEvent::Usage(usage) => {
                self.usage = *usage;
                self.reported = true;
            }
            StreamEvent::ReportedCost(usd) => self.reported_cost = Some(*usd),
            StreamEvent::Finish(reason) => self.finish = Some(reason.clone()),
            StreamEvent::Retry { .. } => *self = Self::default(),
        }
    }

    /// The cost the provider's own client reported for this call, if it did.
    pub fn reported_cost(&self) -> Option<f64> {
        self.reported_cost
    }

    /// The usage the provider reported for this call, if it did.
    pub fn reported_usage(&self) -> Option<Usage> {
        self.reported.then(|| self.tool_calls.added_to(self.usage))
    }

    /// The call's usage estimated with a tokenizer from what streamed so far and the
    /// prompt's `prompt_tokens`.
    pub fn estimated_usage(&self, prompt_tokens: u64) -> Usage {
        let mut output: Vec<&str> = vec![&self.text];
        for call in self.calls.values() {
            output.push(&call.name);
            output.push(&call.arguments);
        }
        self.tool_calls
            .added_to(tokens::estimate(prompt_tokens, &output, &self.reasoning))
    }

    /// The finished turn. A stream that never sent its finish marker is truncated.
    pub fn finish(self) -> Result<AssistantTurn, BackendError> {
        if self.finish.is_none() {
            return Err(BackendError::Truncated);
        }
        let tool_calls = self
            .calls
            .into_iter()
            .map(|(index, mut call)| {
                if call.id.is_empty() {
                    call.id = format!("call_{index}");
                }
                call
            })
            .collect();
        Ok(AssistantTurn {
            text: self.text,
            reasoning: self.reasoning,
            reasoning_blocks: self.reasoning_blocks,
            tool_calls,
            usage: self.tool_calls.added_to(self.usage),
        })
    }
}

fn empty_call() -> ToolCall {
    ToolCall {
        id: String::new(),
        name: String::new(),
        arguments: String::new(),
        signature: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assembles_text_and_split_parallel_tool_calls() {
        let mut builder = TurnBuilder::default();
        for event in [
            StreamEvent::TextDelta("Hel".into()),
            StreamEvent::TextDelta("lo".into()),
            StreamEvent::ToolCallStart {
                index: 1,
                id: "b".into(),
                name: "vote".into(),
            },
            StreamEvent::ToolCallStart {
                index: 0,
                id: "a".into(),
                name: "search".into(),
            },
            StreamEvent::ToolCallArgsDelta {
                index: 0,
                fragment: "{\"q\":".into(),
            },
            StreamEvent::ToolCallArgsDelta {
                index: 1,
                fragment: "{}".into(),
            },
            StreamEvent::ToolCallArgsDelta {
                index: 0,
                fragment: "\"x\"}".into(),
            },
            StreamEvent::Usage(Usage {
                input_tokens: 3,
                output_tokens: 2,
                ..Usage::default()
            }),
            StreamEvent::Finish(FinishReason::ToolCalls),
        ] {
            builder.push(&event);
        }
        let turn = builder.finish().unwrap();
        assert_eq!(turn.text, "Hello");
        assert_eq!(turn.tool_calls.len(), 2);
        assert_eq!(turn.tool_calls[0].name, "search");
        assert_eq!(turn.tool_calls[0].arguments, "{\"q\":\"x\"}");
        assert_eq!(turn.tool_calls[1].id, "b");
        assert_eq!(turn.usage.total(), 5);
    }

    /// A provider tool's card for `tool`, successful or not.
    fn card(tool: &str, ok: bool) -> StreamEvent {
        StreamEvent::ProviderTool(ProviderToolCall {
            call_id: "c".into(),
            tool: tool.into(),
            ok,
            ..ProviderToolCall::default()
        })
    }

    #[test]
    fn successful_x_search_cards_are_counted_into_the_usage() {
        let mut builder = TurnBuilder::default();
        for event in [
            card("x_search", true),
            StreamEvent::Usage(Usage {
                input_tokens: 3,
                web_searches: 1,
                ..Usage::default()
            }),
            card("x_search", true),
            // xAI bills only the calls that succeed; web searches are the decoder's count.
            card("x_search", false),
            card("web_search", true),
            StreamEvent::Finish(FinishReason::Stop),
        ] {
            builder.push(&event);
        }
        let reported = builder.reported_usage().unwrap();
        assert_eq!((reported.x_searches, reported.web_searches), (2, 1));
        assert_eq!(builder.estimated_usage(10).x_searches, 2);
        assert_eq!(builder.finish().unwrap().usage.x_searches, 2);
    }

    #[test]
    fn every_code_tool_card_is_counted_as_a_code_run() {
        let mut builder = TurnBuilder::default();
        for event in [
            card("code_interpreter", true),
            card("code_execution", false),
            card("bash_code_execution", true),
            card("text_editor_code_execution", true),
            card("google_search", true),
            StreamEvent::Usage(Usage::default()),
            StreamEvent::Finish(FinishReason::Stop),
        ] {
            builder.push(&event);
        }
        let usage = builder.finish().unwrap().usage;
        assert_eq!((usage.code_runs, usage.x_searches), (4, 0));
    }

    #[test]
    fn a_stream_without_finish_is_truncated() {
        let mut builder = TurnBuilder::default();
        builder.push(&StreamEvent::TextDelta("partial".into()));
        assert_eq!(builder.finish(), Err(BackendError::Truncated));
    }
}
