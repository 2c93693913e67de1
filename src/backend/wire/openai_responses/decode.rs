//! Reads one Responses API event stream into [`StreamEvent`]s: text and refusal deltas,
//! reasoning summaries (parts separated by a blank line) and raw reasoning text, function
//! calls keyed by `output_index` with `call_id` as their id, usage and the finish reason from
//! `response.completed` / `response.incomplete`, and `response.failed` / `error` events.
//! The built-in tools' items (web search, code interpreter) are read in `provider_tools`.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde_json::Value;

use crate::backend::http::status::from_error_value;
use crate::backend::http::{CallSite, Flow, SseEvent, WireDecoder, parse_json};
use crate::backend::{BackendError, FinishReason, StreamEvent};

mod events;
mod provider_tools;

use events::{Event, Item, Output, ResponseState};
use provider_tools::ProviderTools;

/// A function call seen in this response.
struct CallSlot {
    /// Its `output_index`, which is also the index of its stream events.
    index: usize,
    /// Its item id (`fc_…`), which argument deltas also carry.
    item_id: String,
    /// `ToolCallStart` has been sent.
    started: bool,
    /// Some arguments have been sent; the full text in `.done` events is then a repeat.
    has_arguments: bool,
}

/// Reads one Responses API response.
pub struct ResponsesDecoder {
    site: CallSite,
    calls: Vec<CallSlot>,
    /// Some reasoning text has been sent.
    reasoning_seen: bool,
    /// The next reasoning text starts a new summary part or reasoning item.
    separate_reasoning: bool,
    /// Web searches and code the provider ran.
    provider_tools: ProviderTools,
}

impl ResponsesDecoder {
    pub fn new(site: CallSite) -> Self {
        Self {
            site,
            calls: Vec::new(),
            reasoning_seen: false,
            separate_reasoning: false,
            provider_tools: ProviderTools::default(),
        }
    }

    fn handle(
        &mut self,
        event: Event<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        match event.kind.as_ref() {
            "response.output_text.delta" | "response.refusal.delta" if !event.delta.is_empty() => {
                out.push_back(StreamEvent::TextDelta(event.delta.into_owned()));
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                self.reasoning(event.delta, out);
            }
            "response.reasoning_summary_part.added" => {
                self.separate_reasoning = self.reasoning_seen;
            }
            "response.output_item.added" | "response.output_item.done" => {
                if let Some(item) = event.item {
                    match item.kind.as_ref() {
                        "function_call" => self.call_item(event.output_index, &item, out),
                        "reasoning" => self.separate_reasoning = self.reasoning_seen,
                        _ if event.kind == "response.output_item.done" => {
                            self.finished_item(&item, out);
                        }
                        _ => {}
                    }
                }
            }
            "response.function_call_arguments.delta" if !event.delta.is_empty() => {
                let slot = self.slot(event.output_index, &event.item_id);
                let call = &mut self.calls[slot];
                call.has_arguments = true;
                out.push_back(StreamEvent::ToolCallArgsDelta {
                    index: call.index,
                    fragment: event.delta.into_owned(),
                });
            }
            "response.function_call_arguments.done" if !event.arguments.is_empty() => {
                let slot = self.slot(event.output_index, &event.item_id);
                self.whole_arguments(slot, event.arguments, out);
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                let status = event.kind.trim_start_matches("response.");
                let state = event.response.unwrap_or_default();
                return self.conclude(status, state, out);
            }
            _ => {}
        }
        Ok(Flow::Continue)
    }

    /// A finished item of another kind: the provider's own tool call, or a message whose
    /// citations its search cards list.
    fn finished_item(&mut self, item: &Item<'_>, out: &mut VecDeque<StreamEvent>) {
        if !self.provider_tools.item(item, out) && item.kind == "message" {
            self.provider_tools.message(item);
        }
    }

    fn reasoning(&mut self, delta: Cow<'_, str>, out: &mut VecDeque<StreamEvent>) {
        if delta.is_empty() {
            return;
        }
        if self.separate_reasoning {
            self.separate_reasoning = false;
            out.push_back(StreamEvent::ReasoningDelta("\n\n".into()));
        }
        self.reasoning_seen = true;
        out.push_back(StreamEvent::ReasoningDelta(delta.into_owned()));
    }

    /// A `function_call` item, announced or complete: starts the call once, and sends its
    /// arguments if no delta did.
    fn call_item(
        &mut self,
        output_index: Option<usize>,
        item: &Item<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) {
        let slot = self.slot(output_index, &item.id);
        let call = &mut self.calls[slot];
        if !call.started {
            call.started = true;
            let id = if item.call_id.is_empty() {
                &item.id
            } else {
                &item.call_id
            };
            out.push_back(StreamEvent::ToolCallStart {
                index: call.index,
                id: id.to_string(),
                name: item.name.to_string(),
            });
        }
        self.whole_arguments(slot, Cow::Borrowed(&item.arguments), out);
    }

    /// A call's complete arguments, sent only when no delta brought them.
    fn whole_arguments(
        &mut self,
        slot: usize,
        arguments: Cow<'_, str>,
        out: &mut VecDeque<StreamEvent>,
    ) {
        let call = &mut self.calls[slot];
        if !call.has_arguments && !arguments.is_empty() {
            call.has_arguments = true;
            out.push_back(StreamEvent::ToolCallArgsDelta {
                index: call.index,
                fragment: arguments.into_owned(),
            });
        }
    }

    /// The position in `calls` of the call an event is about, added if new. The item id
    /// decides when both sides know it, else the output index.
    fn slot(&mut self, output_index: Option<usize>, item_id: &str) -> usize {
        let item_id = Some(item_id).filter(|id| !id.is_empty());
        let found = self
            .calls
            .iter()
            .position(|call| match (item_id, output_index) {
                (Some(id), _) if !call.item_id.is_empty() => call.item_id == id,
                (_, Some(index)) => call.index == index,
                (_, None) => false,
            });
        if let Some(slot) = found {
            if let (Some(id), true) = (item_id, self.calls[slot].item_id.is_empty()) {
                self.calls[slot].item_id = id.to_string();
            }
            return slot;
        }
        let fresh = self
            .calls
            .iter()
            .map(|call| call.index + 1)
            .max()
            .unwrap_or(0);
        self.calls.push(CallSlot {
            index: output_index.unwrap_or(fresh),
            item_id: item_id.map(str::to_string).unwrap_or_default(),
            started: false,
            has_arguments: false,
        });
        self.calls.len() - 1
    }

    /// The end of the response: usage, then the finish reason, or the failure.
    fn conclude(
        &mut self,
        status: &str,
        state: ResponseState<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let failed = status == "failed"
            || (status != "completed" && state.error.as_ref().is_some_and(Value::is_object));
        if failed {
            let error = state.error.unwrap_or(Value::Null);
            return Err(from_error_value(&self.site, &error, &["code", "type"]));
        }
        self.provider_tools.flush(out);
        if let Some(usage) = &state.usage {
            let mut usage = usage.normalise();
            usage.web_searches = self.provider_tools.search_count;
            out.push_back(StreamEvent::Usage(usage));
        }
        let reason = if status == "incomplete" {
            let details = state.incomplete_details.unwrap_or_default();
            match details.reason.as_ref() {
                "max_output_tokens" | "" => FinishReason::Length,
                "content_filter" => FinishReason::ContentFilter,
                other => FinishReason::Other(other.to_string()),
            }
        } else if self.calls.is_empty() {
            FinishReason::Stop
        } else {
            FinishReason::ToolCalls
        };
        out.push_back(StreamEvent::Finish(reason));
        Ok(Flow::Finished)
    }
}

impl WireDecoder for ResponsesDecoder {
    fn event(
        &mut self,
        event: SseEvent<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let data = event.data.trim();
        if data.is_empty() || data == "[DONE]" {
            return Ok(Flow::Continue);
        }
        let mut parsed: Event<'_> = parse_json(&self.site, data)?;
        if parsed.kind.is_empty() {
            parsed.kind = Cow::Borrowed(event.event);
        }
        if parsed.kind == "error" {
            let value: Value = parse_json(&self.site, data)?;
            return Err(from_error_value(&self.site, &value, &["code", "type"]));
        }
        self.handle(parsed, out)
    }

    fn whole_body(
        &mut self,
        text: &str,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let state: ResponseState<'_> = parse_json(&self.site, text)?;
        let output: Output<'_> = parse_json(&self.site, text)?;
        for (position, item) in output.output.unwrap_or_default().iter().enumerate() {
            match item.kind.as_ref() {
                "message" => {
                    self.provider_tools.message(item);
                    for part in item.content.iter().flatten() {
                        let text = if part.text.is_empty() {
                            &part.refusal
                        } else {
                            &part.text
                        };
                        if !text.is_empty() {
                            out.push_back(StreamEvent::TextDelta(text.to_string()));
                        }
                    }
                }
                "reasoning" => {
                    // The summary when there is one, else the raw reasoning text.
                    let parts = match (&item.summary, &item.content) {
                        (Some(summary), _) if !summary.is_empty() => summary.as_slice(),
                        (_, Some(content)) => content.as_slice(),
                        (_, None) => &[],
                    };
                    for part in parts {
                        self.separate_reasoning = self.reasoning_seen;
                        self.reasoning(Cow::Borrowed(&part.text), out);
                    }
                }
                "function_call" => self.call_item(Some(position), item, out),
                _ => {
                    self.provider_tools.item(item, out);
                }
            }
        }
        let status = match state.status.as_ref() {
            "" if state.error.as_ref().is_some_and(Value::is_object) => "failed".to_string(),
            "" => "completed".to_string(),
            status => status.to_string(),
        };
        self.conclude(&status, state, out)
    }
}

#[cfg(test)]
mod tests;
