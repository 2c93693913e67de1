//! The Messages API decoder on hand-written events: edge cases the wire tests do not reach.

use super::*;
use crate::backend::wire::feed;

fn decode(lines: &[(&str, &str)]) -> (Vec<StreamEvent>, Result<Flow, BackendError>) {
    let mut decoder = AnthropicDecoder::new(CallSite::new(
        "Anthropic",
        "claude-sonnet-4-5",
        "set ANTHROPIC_API_KEY",
    ));
    let mut out = VecDeque::new();
    let flow = feed(&mut decoder, lines.iter().copied(), &mut out);
    (out.into(), flow)
}

#[test]
fn a_tool_call_without_input_deltas_gets_an_empty_object() {
    let (events, flow) = decode(&[
        (
            "content_block_start",
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_01","name":"list_files","input":{}}}"#,
        ),
        (
            "content_block_delta",
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}"#,
        ),
        (
            "content_block_stop",
            r#"{"type":"content_block_stop","index":0}"#,
        ),
        ("message_stop", r#"{"type":"message_stop"}"#),
    ]);
    assert_eq!(flow, Ok(Flow::Finished));
    assert_eq!(
        events[1],
        StreamEvent::ToolCallArgsDelta {
            index: 0,
            fragment: "{}".into()
        }
    );
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::Stop))
    );
}

#[test]
fn server_tool_input_is_kept_to_send_back_not_run_and_stray_signatures_are_dropped() {
    let (events, _) = decode(&[
        (
            "content_block_start",
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{}}}"#,
        ),
        (
            "content_block_delta",
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"x\"}"}}"#,
        ),
        (
            "content_block_delta",
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"signature_delta","signature":"EqQB"}}"#,
        ),
        ("message_stop", r#"{"type":"message_stop"}"#),
    ]);
    // The server's call is not one for massgen to run: it is only kept, whole, to go
    // back with the next request. A signature for a block that is not an open thinking
    // block is dropped.
    assert_eq!(events.len(), 3, "{events:?}");
    assert_eq!(
        events[0],
        StreamEvent::ProviderBlock {
            wire: crate::backend::ProviderWire::Anthropic,
            item: serde_json::json!({"type": "server_tool_use", "id": "srvtoolu_01",
                                     "name": "web_search", "input": {"query": "x"}}),
        }
    );
    assert!(matches!(events[1], StreamEvent::Usage(_)), "{events:?}");
}

#[test]
fn finish_reasons_map_to_ours() {
    assert_eq!(finish_reason("stop_sequence"), FinishReason::Stop);
    assert_eq!(finish_reason("max_tokens"), FinishReason::Length);
    assert_eq!(finish_reason("refusal"), FinishReason::ContentFilter);
    assert_eq!(
        finish_reason("pause_turn"),
        FinishReason::Other("pause_turn".into())
    );
}
