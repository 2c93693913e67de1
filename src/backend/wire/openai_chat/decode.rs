//! Reads a Chat Completions stream (or a whole JSON reply) into provider-neutral events:
//! content and reasoning deltas, tool-call fragments assigned to calls, one usage report,
//! and the pages a provider's web search cited (OpenRouter's `url_citation` annotations).

use std::borrow::Cow;
use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;

use crate::backend::http::status::from_error_value;
use crate::backend::http::{CallSite, Flow, SseEvent, WireDecoder, parse_json};
use crate::backend::wire::{Few, First};
use crate::backend::{BackendError, FinishReason, StreamEvent};
use crate::protocol::{Source, Usage};

#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(default, borrow)]
    choices: First<Choice<'a>>,
    #[serde(default)]
    usage: Option<ChatUsage>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(default, borrow, alias = "message")]
    delta: Option<Delta<'a>>,
    #[serde(default, borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(default, borrow)]
    content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    reasoning_content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    reasoning: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    tool_calls: Few<ToolCallDelta<'a>>,
    /// OpenRouter's web plugin: the pages the answer cites.
    #[serde(default)]
    annotations: Option<Vec<Value>>,
}

#[derive(Deserialize)]
struct ToolCallDelta<'a> {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    function: Option<FunctionDelta<'a>>,
}

#[derive(Deserialize)]
struct FunctionDelta<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ChatUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
    #[serde(default)]
    completion_tokens_details: Option<CompletionDetails>,
    /// DeepSeek's name for cached prompt tokens.
    #[serde(default)]
    prompt_cache_hit_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct CompletionDetails {
    #[serde(default)]
    reasoning_tokens: Option<u64>,
}

impl ChatUsage {
    fn normalise(&self) -> Usage {
        Usage {
            input_tokens: self.prompt_tokens,
            output_tokens: self.completion_tokens,
            reasoning_tokens: self
                .completion_tokens_details
                .as_ref()
                .and_then(|details| details.reasoning_tokens)
                .unwrap_or(0),
            cached_input_tokens: self
                .prompt_tokens_details
                .as_ref()
                .and_then(|details| details.cached_tokens)
                .or(self.prompt_cache_hit_tokens)
                .unwrap_or(0),
            cache_creation_tokens: 0,
            estimated: false,
            web_searches: 0,
            x_searches: 0,
            code_runs: 0,
        }
    }
}

/// Reads one Chat Completions response.
pub struct ChatDecoder {
    site: CallSite,
    /// One entry per tool call seen: the server's `index` and the call's id.
    slots: Vec<(usize, String)>,
    finish: Option<FinishReason>,
    usage: Option<Usage>,
    /// Pages cited by a web search the provider ran.
    cited: Vec<Source>,
}

impl ChatDecoder {
    pub fn new(site: CallSite) -> Self {
        Self {
            site,
            slots: Vec::new(),
            finish: None,
            usage: None,
            cited: Vec::new(),
        }
    }

    fn chunk(
        &mut self,
        chunk: Chunk<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<(), BackendError> {
        if let Some(error) = chunk.error {
            return Err(from_error_value(&self.site, &error, &["type", "code"]));
        }
        if let Some(choice) = chunk.choices.0 {
            if let Some(delta) = choice.delta {
                self.delta(delta, out);
            }
            if let Some(reason) = choice.finish_reason {
                self.finish = Some(finish_reason(&reason));
            }
        }
        // Some servers repeat running totals in every chunk: keep the last, report it once.
        if let Some(usage) = chunk.usage {
            self.usage = Some(usage.normalise());
        }
        Ok(())
    }

    fn delta(&mut self, delta: Delta<'_>, out: &mut VecDeque<StreamEvent>) {
        if let Some(annotations) = &delta.annotations {
            super::web_plugin::cite(annotations, &mut self.cited);
        }
        if let Some(reasoning) = delta.reasoning_content.or(delta.reasoning)
            && !reasoning.is_empty()
        {
            out.push_back(StreamEvent::ReasoningDelta(reasoning.into_owned()));
        }
        if let Some(content) = delta.content
            && !content.is_empty()
        {
            out.push_back(StreamEvent::TextDelta(content.into_owned()));
        }
        for (position, call) in delta.tool_calls.items().enumerate() {
            let wire_index = call.index.unwrap_or(position);
            let id = call.id.filter(|id| !id.is_empty());
            let (name, arguments) = call
                .function
                .map_or((None, None), |function| (function.name, function.arguments));
            let slot = self.slot(wire_index, id.as_deref());
            if id.is_some() || name.is_some() {
                out.push_back(StreamEvent::ToolCallStart {
                    index: slot,
                    id: id.map(Cow::into_owned).unwrap_or_default(),
                    name: name.map(Cow::into_owned).unwrap_or_default(),
                });
            }
            if let Some(arguments) = arguments
                && !arguments.is_empty()
            {
                out.push_back(StreamEvent::ToolCallArgsDelta {
                    index: slot,
                    fragment: arguments.into_owned(),
                });
            }
        }
    }

    /// The one usage report, then the finish (`Stop` when no finish reason came).
    fn complete(&mut self, out: &mut VecDeque<StreamEvent>) {
        if !self.cited.is_empty() {
            let cited = std::mem::take(&mut self.cited);
            out.push_back(StreamEvent::ProviderTool(super::web_plugin::card(cited)));
        }
        if let Some(usage) = self.usage.take() {
            out.push_back(StreamEvent::Usage(usage));
        }
        out.push_back(StreamEvent::Finish(
            self.finish.take().unwrap_or(FinishReason::Stop),
        ));
    }

    /// Our index for a tool-call delta. A new id under an index already in use is a new
    /// call: some servers send every parallel call with index 0.
    fn slot(&mut self, wire_index: usize, id: Option<&str>) -> usize {
        let latest = self
            .slots
            .iter()
            .rposition(|(index, _)| *index == wire_index);
        match (latest, id) {
            (Some(slot), None) => slot,
            (Some(slot), Some(id)) if self.slots[slot].1.is_empty() || self.slots[slot].1 == id => {
                if self.slots[slot].1.is_empty() {
                    self.slots[slot].1 = id.to_string();
                }
                slot
            }
            (Some(_) | None, id) => {
                self.slots
                    .push((wire_index, id.map(str::to_string).unwrap_or_default()));
                self.slots.len() - 1
            }
        }
    }
}

impl WireDecoder for ChatDecoder {
    fn event(
        &mut self,
        event: SseEvent<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.complete(out);
            return Ok(Flow::Finished);
        }
        if event.event == "error" {
            let value: Value = parse_json(&self.site, data)?;
            return Err(from_error_value(&self.site, &value, &["type", "code"]));
        }
        let chunk: Chunk<'_> = parse_json(&self.site, data)?;
        self.chunk(chunk, out)?;
        Ok(Flow::Continue)
    }

    /// Some servers close the stream after the finish reason without `[DONE]`.
    fn end(&mut self, out: &mut VecDeque<StreamEvent>) -> Result<Flow, BackendError> {
        if self.finish.is_some() {
            self.complete(out);
            Ok(Flow::Finished)
        } else {
            Ok(Flow::Continue)
        }
    }

    fn whole_body(
        &mut self,
        text: &str,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let chunk: Chunk<'_> = parse_json(&self.site, text)?;
        self.chunk(chunk, out)?;
        self.complete(out);
        Ok(Flow::Finished)
    }
}

pub fn finish_reason(reason: &str) -> FinishReason {
    match reason {
        "stop" | "end_turn" | "eos" => FinishReason::Stop,
        "tool_calls" | "function_call" => FinishReason::ToolCalls,
        "length" => FinishReason::Length,
        "content_filter" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_string()),
    }
}
