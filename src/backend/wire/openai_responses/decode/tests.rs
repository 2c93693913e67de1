//! The Responses decoder on hand-written events: edge cases the wire tests do not reach.

use serde_json::json;

use super::*;
use crate::backend::wire::feed;

fn site() -> CallSite {
    CallSite::new("OpenAI", "gpt-5", "set OPENAI_API_KEY")
}

/// Feeds `(event name, data)` pairs; returns the events and the last flow or error.
fn decode(events: &[(&str, Value)]) -> (Vec<StreamEvent>, Result<Flow, BackendError>) {
    let texts: Vec<(&str, String)> = events
        .iter()
        .map(|(name, data)| (*name, data.to_string()))
        .collect();
    let mut decoder = ResponsesDecoder::new(site());
    let mut out = VecDeque::new();
    let flow = feed(
        &mut decoder,
        texts.iter().map(|(name, data)| (*name, data.as_str())),
        &mut out,
    );
    (out.into(), flow)
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
    let body = r#"{"error":{"code":"server_error","message":"Something went wrong"}}"#;
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
    let mut decoder = ResponsesDecoder::new(site());
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
