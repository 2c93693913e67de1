//! Reads a Messages API event stream: content blocks (text, thinking, tool use) opened,
//! filled by deltas and closed by index; usage from `message_start` and `message_delta`,
//! reported once at `message_stop`, the end marker; `error` events; and a whole JSON
//! `message` as a fallback. Server tools' calls and results are read in `server_blocks`.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;

use crate::backend::http::status::from_error_value;
use crate::backend::http::{CallSite, Flow, SseEvent, WireDecoder, parse_json};
use crate::backend::{BackendError, FinishReason, StreamEvent};

mod server_blocks;
mod usage;

use server_blocks::ServerBlocks;
use usage::WireUsage;

/// One event's `data`. Fields absent from an event type stay at their defaults; only the
/// rare events (`content_block_start`, `error`) are read into `Value`s.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(default, borrow, rename = "type")]
    kind: Cow<'a, str>,
    #[serde(default)]
    index: Option<usize>,
    #[serde(default, borrow)]
    delta: Option<Delta<'a>>,
    #[serde(default)]
    content_block: Option<Value>,
    #[serde(default)]
    message: Option<StartedMessage>,
    #[serde(default)]
    usage: Option<WireUsage>,
    #[serde(default)]
    error: Option<Value>,
}

/// A `content_block_delta`'s or a `message_delta`'s `delta`.
#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(default, borrow, rename = "type")]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    partial_json: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    thinking: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    signature: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    stop_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct StartedMessage {
    #[serde(default)]
    usage: Option<WireUsage>,
}

/// What an open content block is.
enum Block {
    Text,
    /// Its signature arrives in `signature_delta`s and closes the block.
    Thinking {
        signature: String,
        closed: bool,
    },
    ToolUse {
        /// Our index for the call: 0, 1, … in the order the calls start.
        slot: usize,
        /// Arguments given whole in the start event (not the empty `{}` of a stream).
        given: Option<String>,
        /// An `input_json_delta` has been passed on.
        streamed: bool,
        closed: bool,
    },
    /// Server tools (kept by `ServerBlocks`) and whatever comes next.
    Other,
}

/// Reads one Messages API response.
pub struct AnthropicDecoder {
    site: CallSite,
    /// Content blocks by their wire index, in the order they started.
    blocks: Vec<(usize, Block)>,
    tool_calls: usize,
    /// The provider's own tool calls and results.
    server: ServerBlocks,
    usage: WireUsage,
    stop: Option<FinishReason>,
}

impl AnthropicDecoder {
    pub fn new(site: CallSite) -> Self {
        Self {
            site,
            blocks: Vec::new(),
            tool_calls: 0,
            server: ServerBlocks::default(),
            usage: WireUsage::default(),
            stop: None,
        }
    }

    fn block(&mut self, index: Option<usize>) -> Option<&mut Block> {
        let index = index?;
        self.blocks
            .iter_mut()
            .rev()
            .find(|(wire, _)| *wire == index)
            .map(|(_, block)| block)
    }

    /// `content_block_start`, or one block of a whole reply.
    fn start(&mut self, index: usize, block: &Value, out: &mut VecDeque<StreamEvent>) {
        let text = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or_default();
        let started = match text("type") {
            "text" => {
                push_text(out, text("text"), StreamEvent::TextDelta);
                Block::Text
            }
            "thinking" => {
                push_text(out, text("thinking"), StreamEvent::ReasoningDelta);
                Block::Thinking {
                    signature: text("signature").to_string(),
                    closed: false,
                }
            }
            "redacted_thinking" => {
                out.push_back(StreamEvent::RedactedReasoning(text("data").to_string()));
                Block::Other
            }
            "tool_use" => {
                let slot = self.tool_calls;
                self.tool_calls += 1;
                out.push_back(StreamEvent::ToolCallStart {
                    index: slot,
                    id: text("id").to_string(),
                    name: text("name").to_string(),
                });
                let given = block
                    .get("input")
                    .filter(|input| input.as_object().is_some_and(|map| !map.is_empty()))
                    .map(Value::to_string);
                Block::ToolUse {
                    slot,
                    given,
                    streamed: false,
                    closed: false,
                }
            }
            "server_tool_use" => {
                self.server.start_use(index, block);
                Block::Other
            }
            kind if server_blocks::is_result(kind) => {
                self.server.result(block, out);
                Block::Other
            }
            _ => Block::Other,
        };
        self.blocks.push((index, started));
    }

    fn delta(&mut self, index: Option<usize>, delta: Delta<'_>, out: &mut VecDeque<StreamEvent>) {
        match &*delta.kind {
            "text_delta" => {
                if let Some(text) = delta.text.filter(|text| !text.is_empty()) {
                    out.push_back(StreamEvent::TextDelta(text.into_owned()));
                }
            }
            "thinking_delta" => {
                if let Some(thinking) = delta.thinking.filter(|text| !text.is_empty()) {
                    out.push_back(StreamEvent::ReasoningDelta(thinking.into_owned()));
                }
            }
            "input_json_delta" => {
                let Some(fragment) = delta.partial_json.filter(|json| !json.is_empty()) else {
                    return;
                };
                if let Some(Block::ToolUse {
                    slot,
                    streamed,
                    closed: false,
                    ..
                }) = self.block(index)
                {
                    *streamed = true;
                    out.push_back(StreamEvent::ToolCallArgsDelta {
                        index: *slot,
                        fragment: fragment.into_owned(),
                    });
                } else if let Some(index) = index {
                    self.server.delta(index, &fragment);
                }
            }
            "signature_delta" => {
                if let Some(Block::Thinking {
                    signature,
                    closed: false,
                }) = self.block(index)
                    && let Some(part) = delta.signature
                {
                    signature.push_str(&part);
                }
            }
            // `citations_delta` and newer kinds carry nothing we keep.
            _ => {}
        }
    }

    /// `message_stop`: the one usage report, then the finish.
    fn finish(&mut self, out: &mut VecDeque<StreamEvent>) -> Flow {
        for (_, block) in &mut self.blocks {
            close(block, out);
        }
        self.server.finish(out);
        out.push_back(StreamEvent::Usage(self.usage.normalise()));
        out.push_back(StreamEvent::Finish(
            self.stop.take().unwrap_or(FinishReason::Stop),
        ));
        Flow::Finished
    }
}

/// Ends a block: a thinking block hands over its signature; a tool call whose input never
/// streamed still gets an object.
fn close(block: &mut Block, out: &mut VecDeque<StreamEvent>) {
    match block {
        Block::Thinking { signature, closed } if !*closed => {
            *closed = true;
            if !signature.is_empty() {
                out.push_back(StreamEvent::ReasoningSignature(std::mem::take(signature)));
            }
        }
        Block::ToolUse {
            slot,
            given,
            streamed,
            closed,
        } if !*closed => {
            *closed = true;
            if !*streamed {
                out.push_back(StreamEvent::ToolCallArgsDelta {
                    index: *slot,
                    fragment: given.take().unwrap_or_else(|| "{}".to_string()),
                });
            }
        }
        Block::Text | Block::Thinking { .. } | Block::ToolUse { .. } | Block::Other => {}
    }
}

fn push_text(out: &mut VecDeque<StreamEvent>, text: &str, event: fn(String) -> StreamEvent) {
    if !text.is_empty() {
        out.push_back(event(text.to_string()));
    }
}

impl WireDecoder for AnthropicDecoder {
    fn event(
        &mut self,
        event: SseEvent<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let data: Event<'_> = parse_json(&self.site, event.data.trim())?;
        let kind = if data.kind.is_empty() {
            event.event
        } else {
            &data.kind
        };
        match kind {
            "message_start" => {
                if let Some(usage) = data.message.and_then(|message| message.usage) {
                    self.usage.update(&usage);
                }
            }
            "content_block_start" => {
                if let (Some(index), Some(block)) = (data.index, &data.content_block) {
                    self.start(index, block, out);
                }
            }
            "content_block_delta" => {
                if let Some(delta) = data.delta {
                    self.delta(data.index, delta, out);
                }
            }
            "content_block_stop" => {
                if let Some(block) = self.block(data.index) {
                    close(block, out);
                }
                self.server.stop(data.index, out);
            }
            "message_delta" => {
                if let Some(reason) = data.delta.and_then(|delta| delta.stop_reason) {
                    self.stop = Some(finish_reason(&reason));
                }
                if let Some(usage) = data.usage {
                    self.usage.update(&usage);
                }
            }
            "message_stop" => return Ok(self.finish(out)),
            "error" => {
                let error = data.error.unwrap_or(Value::Null);
                return Err(from_error_value(&self.site, &error, &["type"]));
            }
            // `ping` and event types added after this was written.
            _ => {}
        }
        Ok(Flow::Continue)
    }

    /// A server that ignored `stream: true`: one `message` object (or an `error` one).
    fn whole_body(
        &mut self,
        text: &str,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let message: Value = parse_json(&self.site, text)?;
        if let Some(error) = message.get("error") {
            return Err(from_error_value(&self.site, error, &["type"]));
        }
        let blocks = message.get("content").and_then(Value::as_array);
        for (index, block) in blocks.into_iter().flatten().enumerate() {
            self.start(index, block, out);
        }
        if let Some(usage) = message
            .get("usage")
            .and_then(|usage| WireUsage::deserialize(usage).ok())
        {
            self.usage.update(&usage);
        }
        if let Some(reason) = message.get("stop_reason").and_then(Value::as_str) {
            self.stop = Some(finish_reason(reason));
        }
        Ok(self.finish(out))
    }
}

pub fn finish_reason(reason: &str) -> FinishReason {
    match reason {
        "end_turn" | "stop_sequence" => FinishReason::Stop,
        "tool_use" => FinishReason::ToolCalls,
        "max_tokens" | "model_context_window_exceeded" => FinishReason::Length,
        "refusal" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_string()),
    }
}

#[cfg(test)]
mod tests;
