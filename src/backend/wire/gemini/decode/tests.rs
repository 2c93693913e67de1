//! The Gemini decoder on hand-written events: edge cases the wire tests do not reach.

use super::*;
use crate::backend::wire::feed;

fn site() -> CallSite {
    CallSite::new(
        "Gemini",
        "gemini-2.5-flash",
        "set GOOGLE_API_KEY or GEMINI_API_KEY",
    )
}

/// Feeds unnamed events, then the end of the stream unless one failed.
fn decode(events: &[&str]) -> (Vec<StreamEvent>, Result<Flow, BackendError>) {
    let mut decoder = GeminiDecoder::new(site());
    let mut out = VecDeque::new();
    let flow = feed(
        &mut decoder,
        events.iter().map(|data| ("", *data)),
        &mut out,
    )
    .and_then(|_| decoder.end(&mut out));
    (out.into(), flow)
}

#[test]
fn finish_reasons_map_to_ours() {
    assert_eq!(finish_reason("STOP"), FinishReason::Stop);
    assert_eq!(finish_reason("MAX_TOKENS"), FinishReason::Length);
    for filtered in [
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
    ] {
        assert_eq!(finish_reason(filtered), FinishReason::ContentFilter);
    }
    assert_eq!(
        finish_reason("MALFORMED_FUNCTION_CALL"),
        FinishReason::Other("MALFORMED_FUNCTION_CALL".into())
    );
}

#[test]
fn a_stream_without_a_finish_reason_is_incomplete() {
    let (events, flow) = decode(&[
        r#"{"candidates":[{"content":{"parts":[{"text":"Hal"}],"role":"model"},"index":0}]}"#,
    ]);
    assert_eq!(events, [StreamEvent::TextDelta("Hal".into())]);
    assert_eq!(flow, Ok(Flow::Continue));
}

#[test]
fn only_the_last_usage_is_reported_once() {
    let (events, flow) = decode(&[
        r#"{"candidates":[{"content":{"parts":[{"text":"4"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9}}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":1,"totalTokenCount":10}}"#,
    ]);
    assert_eq!(flow, Ok(Flow::Finished));
    assert_eq!(
        events,
        [
            StreamEvent::TextDelta("4".into()),
            StreamEvent::Usage(Usage {
                input_tokens: 9,
                output_tokens: 1,
                ..Usage::default()
            }),
            StreamEvent::Finish(FinishReason::Stop),
        ]
    );
}

#[test]
fn a_blocked_prompt_is_an_error_naming_the_reason() {
    let (_, flow) = decode(&[
        r#"{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":12,"totalTokenCount":12}}"#,
    ]);
    assert_eq!(
        flow,
        Err(BackendError::Failed {
            message: "Gemini blocked the prompt: PROHIBITED_CONTENT".into()
        })
    );
}

#[test]
fn a_reply_without_alt_sse_is_read_as_a_json_array() {
    let body = r#"[{"candidates":[{"content":{"parts":[{"text":"Two"}],"role":"model"},"index":0}]},
        {"candidates":[{"content":{"parts":[{"functionCall":{"name":"vote","args":{"agent_id":"agent1"}}}],"role":"model"},"finishReason":"STOP","index":0}],
         "usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":3,"totalTokenCount":8}}]"#;
    let mut decoder = GeminiDecoder::new(site());
    let mut out = VecDeque::new();
    assert_eq!(decoder.whole_body(body, &mut out), Ok(Flow::Finished));
    let events: Vec<StreamEvent> = out.into();
    assert_eq!(events[0], StreamEvent::TextDelta("Two".into()));
    assert_eq!(
        events[2],
        StreamEvent::ToolCallArgsDelta {
            index: 0,
            fragment: r#"{"agent_id":"agent1"}"#.into()
        }
    );
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::ToolCalls))
    );
}
