//! Reads one Responses API event stream into [`StreamEvent`]s: text and refusal deltas,
//! reasoning summaries (parts separated by a blank line) and raw reasoning text, function
//! calls keyed by `output_index` with `call_id` as their id, usage and the finish reason from
//! `response.completed` / `response.incomplete`, and `response.failed` / `error` events.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde::Deserialize;
use serde::de::{Deserializer, Visitor};
use serde_json::Value;

use crate::backend::http::status::from_stream_error;
use crate::backend::http::{CallSite, Flow, SseEvent, WireDecoder, parse_json};
use crate::backend::{BackendError, FinishReason, StreamEvent};
use crate::protocol::Usage;

/// A string field, borrowed from the event text unless it holds escapes; `null` and a
/// missing field read as empty. (serde borrows a `Cow` only when it is not inside an
/// `Option`, so an `Option<Cow>` would cost an allocation per field per token.)
fn text<'de: 'a, 'a, D: Deserializer<'de>>(deserializer: D) -> Result<Cow<'a, str>, D::Error> {
    struct Text;
    impl<'de> Visitor<'de> for Text {
        type Value = Cow<'de, str>;
        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("any JSON value, read as a string when it is one")
        }
        fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(text))
        }
        fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
            Ok(Cow::Owned(text.to_string()))
        }
        fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
            Ok(Cow::Owned(text))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        // A field that is not a string in some future event kind must not fail the call.
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(Cow::Borrowed(""))
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            while map
                .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                .is_some()
            {}
            Ok(Cow::Borrowed(""))
        }
    }
    deserializer.deserialize_any(Text)
}

/// One event, reduced to the fields massgen reads; the rest is skipped unread. Every event
/// names itself in `type`, the same name as its SSE `event:` line.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "text")]
    kind: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    delta: Cow<'a, str>,
    #[serde(default)]
    output_index: Option<usize>,
    #[serde(default, borrow, deserialize_with = "text")]
    item_id: Cow<'a, str>,
    /// `response.output_item.added` / `.done`.
    #[serde(default, borrow)]
    item: Option<Item<'a>>,
    /// `response.function_call_arguments.done`.
    #[serde(default, borrow, deserialize_with = "text")]
    arguments: Cow<'a, str>,
    /// `response.completed`, `.incomplete`, `.failed` (and the lifecycle events).
    #[serde(default, borrow)]
    response: Option<ResponseState<'a>>,
}

/// The parts of a response object that say how it ended; its `output` is not read again.
#[derive(Default, Deserialize)]
struct ResponseState<'a> {
    #[serde(default, borrow, deserialize_with = "text")]
    status: Cow<'a, str>,
    #[serde(default)]
    usage: Option<ApiUsage>,
    #[serde(default, borrow)]
    incomplete_details: Option<IncompleteDetails<'a>>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Default, Deserialize)]
struct IncompleteDetails<'a> {
    #[serde(default, borrow, deserialize_with = "text")]
    reason: Cow<'a, str>,
}

/// The output of a whole (non-streamed) response.
#[derive(Deserialize)]
struct Output<'a> {
    #[serde(default, borrow)]
    output: Option<Vec<Item<'a>>>,
}

/// An output item: `message`, `reasoning`, `function_call`, or a kind massgen ignores.
#[derive(Deserialize)]
struct Item<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "text")]
    kind: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    id: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    call_id: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    name: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    arguments: Cow<'a, str>,
    #[serde(default, borrow)]
    content: Option<Vec<Part<'a>>>,
    #[serde(default, borrow)]
    summary: Option<Vec<Part<'a>>>,
}

/// An `output_text`, `refusal`, `summary_text` or `reasoning_text` part.
#[derive(Deserialize)]
struct Part<'a> {
    #[serde(default, borrow, deserialize_with = "text")]
    text: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    refusal: Cow<'a, str>,
}

/// OpenAI's usage: `input_tokens` already includes the cached ones and `output_tokens` the
/// reasoning ones, which is the normalised meaning.
#[derive(Deserialize)]
struct ApiUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    #[serde(default)]
    input_tokens_details: Option<InputDetails>,
    #[serde(default)]
    output_tokens_details: Option<OutputDetails>,
}

#[derive(Deserialize)]
struct InputDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct OutputDetails {
    #[serde(default)]
    reasoning_tokens: Option<u64>,
}

impl ApiUsage {
    fn normalise(&self) -> Usage {
        Usage {
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            reasoning_tokens: self
                .output_tokens_details
                .as_ref()
                .and_then(|details| details.reasoning_tokens)
                .unwrap_or(0),
            cached_input_tokens: self
                .input_tokens_details
                .as_ref()
                .and_then(|details| details.cached_tokens)
                .unwrap_or(0),
            cache_creation_tokens: 0,
        }
    }
}

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
}

impl ResponsesDecoder {
    pub fn new(site: CallSite) -> Self {
        Self {
            site,
            calls: Vec::new(),
            reasoning_seen: false,
            separate_reasoning: false,
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
            return Err(stream_error(&self.site, &error));
        }
        if let Some(usage) = &state.usage {
            out.push_back(StreamEvent::Usage(usage.normalise()));
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
            return Err(stream_error(&self.site, &value));
        }
        self.handle(parsed, out)
    }

    fn whole_body(
        &mut self,
        body: &[u8],
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let text = String::from_utf8_lossy(body);
        let state: ResponseState<'_> = parse_json(&self.site, &text)?;
        let output: Output<'_> = parse_json(&self.site, &text)?;
        for (position, item) in output.output.unwrap_or_default().iter().enumerate() {
            match item.kind.as_ref() {
                "message" => {
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
                _ => {}
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

/// An `error` event (`{type: "error", code, message, param}`, or the error nested under
/// `error`), or a failed response's `error` object.
fn stream_error(site: &CallSite, value: &Value) -> BackendError {
    let error = value
        .get("error")
        .filter(|error| error.is_object())
        .unwrap_or(value);
    let kind = text_field(error, "code")
        .or_else(|| text_field(error, "type").filter(|kind| *kind != "error"))
        .unwrap_or_default();
    let message = text_field(error, "message").unwrap_or("the provider reported an error");
    from_stream_error(site, kind, message)
}

fn text_field<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|text| !text.is_empty())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn site() -> CallSite {
        CallSite {
            provider: "OpenAI".into(),
            model: "gpt-5".into(),
            key_fix: "set OPENAI_API_KEY".into(),
        }
    }

    /// Feeds `(event name, data)` pairs; returns the events and the last flow or error.
    fn decode(events: &[(&str, Value)]) -> (Vec<StreamEvent>, Result<Flow, BackendError>) {
        let mut decoder = ResponsesDecoder::new(site());
        let mut out = VecDeque::new();
        let mut flow = Ok(Flow::Continue);
        for (name, data) in events {
            let data = data.to_string();
            flow = decoder.event(
                SseEvent {
                    event: name,
                    data: &data,
                },
                &mut out,
            );
            if flow.is_err() {
                break;
            }
        }
        (out.into_iter().collect(), flow)
    }

    fn typed(kind: &'static str, mut data: Value) -> (&'static str, Value) {
        data["type"] = json!(kind);
        (kind, data)
    }

    fn completed() -> (&'static str, Value) {
        typed(
            "response.completed",
            json!({"response": {"status": "completed"}}),
        )
    }

    #[test]
    fn summary_parts_and_reasoning_items_are_separated_by_a_blank_line() {
        let (events, flow) = decode(&[
            typed(
                "response.output_item.added",
                json!({"output_index": 0, "item": {"type": "reasoning", "id": "rs_1", "summary": []}}),
            ),
            typed(
                "response.reasoning_summary_part.added",
                json!({"item_id": "rs_1", "output_index": 0, "summary_index": 0}),
            ),
            typed(
                "response.reasoning_summary_text.delta",
                json!({"item_id": "rs_1", "output_index": 0, "summary_index": 0, "delta": "**Plan**"}),
            ),
            typed(
                "response.reasoning_summary_part.added",
                json!({"item_id": "rs_1", "output_index": 0, "summary_index": 1}),
            ),
            typed(
                "response.reasoning_summary_text.delta",
                json!({"item_id": "rs_1", "output_index": 0, "summary_index": 1, "delta": "Add."}),
            ),
            typed(
                "response.output_item.added",
                json!({"output_index": 1, "item": {"type": "reasoning", "id": "rs_2"}}),
            ),
            typed(
                "response.reasoning_text.delta",
                json!({"item_id": "rs_2", "output_index": 1, "content_index": 0, "delta": "raw"}),
            ),
            completed(),
        ]);
        assert_eq!(flow, Ok(Flow::Finished));
        let reasoning: String = events
            .iter()
            .filter_map(|event| match event {
                StreamEvent::ReasoningDelta(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(reasoning, "**Plan**\n\nAdd.\n\nraw");
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Finish(FinishReason::Stop))
        );
    }

    #[test]
    fn arguments_repeated_in_done_events_are_not_sent_twice() {
        let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "vote", "arguments": ""});
        let mut done = item.clone();
        done["arguments"] = json!("{\"agent_id\":\"agent1\"}");
        let (events, _) = decode(&[
            typed(
                "response.output_item.added",
                json!({"output_index": 0, "item": item}),
            ),
            typed(
                "response.function_call_arguments.delta",
                json!({"item_id": "fc_1", "output_index": 0, "delta": "{\"agent_id\":\"agent1\"}"}),
            ),
            typed(
                "response.function_call_arguments.done",
                json!({"item_id": "fc_1", "output_index": 0, "arguments": "{\"agent_id\":\"agent1\"}"}),
            ),
            typed(
                "response.output_item.done",
                json!({"output_index": 0, "item": done}),
            ),
            completed(),
        ]);
        assert_eq!(
            events,
            [
                StreamEvent::ToolCallStart {
                    index: 0,
                    id: "call_1".into(),
                    name: "vote".into()
                },
                StreamEvent::ToolCallArgsDelta {
                    index: 0,
                    fragment: "{\"agent_id\":\"agent1\"}".into()
                },
                StreamEvent::Finish(FinishReason::ToolCalls),
            ]
        );
    }

    #[test]
    fn a_call_that_only_arrives_complete_is_still_read() {
        let (events, _) = decode(&[
            typed(
                "response.output_item.done",
                json!({"output_index": 2, "item": {
                "type": "function_call", "id": "fc_9", "call_id": "call_9", "name": "new_answer",
                "arguments": "{\"content\":\"4\"}", "status": "completed"}}),
            ),
            completed(),
        ]);
        assert_eq!(
            events[..2],
            [
                StreamEvent::ToolCallStart {
                    index: 2,
                    id: "call_9".into(),
                    name: "new_answer".into()
                },
                StreamEvent::ToolCallArgsDelta {
                    index: 2,
                    fragment: "{\"content\":\"4\"}".into()
                },
            ]
        );
    }

    #[test]
    fn the_event_name_stands_in_for_a_missing_type_and_unknown_events_are_ignored() {
        let (events, flow) = decode(&[
            (
                "response.output_text.delta",
                json!({"output_index": 0, "content_index": 0, "delta": "Hi"}),
            ),
            typed(
                "response.web_search_call.searching",
                json!({"output_index": 1, "item_id": "ws_1"}),
            ),
            ("response.completed", json!({"response": {}})),
        ]);
        assert_eq!(flow, Ok(Flow::Finished));
        assert_eq!(
            events,
            [
                StreamEvent::TextDelta("Hi".into()),
                StreamEvent::Finish(FinishReason::Stop)
            ]
        );
    }

    #[test]
    fn null_fields_read_as_absent() {
        let (events, flow) = decode(&[
            typed(
                "response.output_text.delta",
                json!({"item_id": null, "output_index": null, "delta": null}),
            ),
            typed(
                "response.output_item.added",
                json!({"output_index": 0, "item": {"type": "function_call", "id": null,
                       "call_id": "call_1", "name": "vote", "arguments": null}}),
            ),
        ]);
        assert_eq!(flow, Ok(Flow::Continue));
        assert_eq!(
            events,
            [StreamEvent::ToolCallStart {
                index: 0,
                id: "call_1".into(),
                name: "vote".into()
            }]
        );
    }

    #[test]
    fn incomplete_responses_say_why() {
        let (events, _) = decode(&[typed(
            "response.incomplete",
            json!({"response": {"status": "incomplete", "incomplete_details": {"reason": "content_filter"}}}),
        )]);
        assert_eq!(events, [StreamEvent::Finish(FinishReason::ContentFilter)]);
    }

    #[test]
    fn a_whole_reply_that_is_only_an_error_is_an_error() {
        let mut decoder = ResponsesDecoder::new(site());
        let body = br#"{"error":{"code":"server_error","message":"Something went wrong"}}"#;
        let result = decoder.whole_body(body, &mut VecDeque::new());
        assert!(
            matches!(result, Err(BackendError::Server { status: 500, .. })),
            "{result:?}"
        );
    }

    #[test]
    fn nested_and_flat_error_events_are_both_read() {
        let (_, flat) = decode(&[typed(
            "error",
            json!({"code": "rate_limit_exceeded", "message": "Slow down", "param": null}),
        )]);
        assert!(
            matches!(flat, Err(BackendError::RateLimited { .. })),
            "{flat:?}"
        );
        let (_, nested) = decode(&[typed(
            "error",
            json!({"error": {"type": "invalid_request_error", "code": null, "message": "Bad input"}}),
        )]);
        assert_eq!(
            nested.map_err(|error| error.to_string()),
            Err("OpenAI refused the request (HTTP 400): invalid_request_error: Bad input".into())
        );
    }

    #[test]
    fn an_event_with_unexpected_field_types_is_skipped_not_fatal() {
        let mut decoder = ResponsesDecoder::new(crate::backend::http::CallSite {
            provider: "OpenAI".into(),
            model: "gpt-5".into(),
            key_fix: String::new(),
        });
        let mut out = VecDeque::new();
        let flow = decoder.event(
            SseEvent {
                event: "response.future_thing",
                data: r#"{"type":"response.future_thing","delta":{"parts":[1,2]},"item_id":7}"#,
            },
            &mut out,
        );
        assert_eq!(flow, Ok(Flow::Continue));
        assert!(out.is_empty());
    }
}
