//! Gemini calls that complete: text, thought parts, function calls with their
//! signatures, usage, finish reasons, the request body, and a reply without `alt=sse`.

use std::time::Duration;

use massgen::backend::{FinishReason, StreamEvent};
use massgen::config::BackendKind;
use massgen::protocol::Usage;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::Reply;

use super::*;

#[tokio::test]
async fn streams_plain_text_with_usage_and_sends_the_documented_request() {
    let (server, config) = GEMINI
        .serve(vec![text_reply(&["Two", " plus two", " is 4."])])
        .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(texts(&events), ["Two", " plus two", " is 4."]);
    assert_eq!(
        usages(&events),
        [Usage {
            input_tokens: 12,
            output_tokens: 5,
            ..Usage::default()
        }]
    );
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::Stop))
    );

    let request = &server.requests()[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, PATH);
    assert_eq!(request.header("x-goog-api-key"), Some(KEY));
    assert_eq!(request.header("authorization"), None);
    assert!(!request.path.contains(KEY), "{}", request.path);
    assert!(!request.path.contains("key="), "{}", request.path);
    assert_eq!(
        request.body,
        json!({
            "contents": [{"role": "user", "parts": [{"text": "What is 2+2?"}]}],
            "systemInstruction": {"parts": [{"text": "You are helpful."}]},
            // MassGen asks 2.5 models for their thoughts unless the config decides.
            "generationConfig": {"thinkingConfig": {"includeThoughts": true}}
        })
    );
}

#[tokio::test]
async fn reads_thought_parts_as_reasoning_and_counts_thoughts_as_output() {
    let (_server, config) = GEMINI
        .serve(vec![Reply::sse(&[
            event(&response(
                json!([{"text": "**Adding numbers**\n\nThe user asks for 2+2.", "thought": true}]),
                None,
                None,
            )),
            event(&response(
                json!([{"text": " That is 4.", "thought": true}]),
                None,
                None,
            )),
            event(&response(
                json!([{"text": "4"}]),
                Some("STOP"),
                Some(usage(10, 1, 39, 0)),
            )),
        ])])
        .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(
        reasoning(&events),
        "**Adding numbers**\n\nThe user asks for 2+2. That is 4."
    );
    assert_eq!(texts(&events), ["4"]);
    assert!(events.contains(&StreamEvent::Usage(Usage {
        input_tokens: 10,
        output_tokens: 40,
        reasoning_tokens: 39,
        ..Usage::default()
    })));
}

#[tokio::test]
async fn assembles_a_function_call_split_across_network_chunks_and_declares_tools_in_gemini_format()
{
    let call = event(&response(
        json!([call_part(
            "get_weather",
            json!({"city": "Paris"}),
            None,
            Some(SIGNATURE)
        )]),
        Some("STOP"),
        Some(usage(52, 6, 0, 0)),
    ));
    // The one event arrives in three pieces, cut inside the JSON and the CRLF framing.
    let (head, rest) = call.split_at(40);
    let (middle, tail) = rest.split_at(rest.len() - 3);
    let (server, config) = GEMINI
        .serve(vec![Reply::Sse(vec![
            (
                Duration::ZERO,
                event(&response(json!([{"text": "Let me check."}]), None, None)),
            ),
            (Duration::from_millis(20), head.to_string()),
            (Duration::from_millis(20), middle.to_string()),
            (Duration::from_millis(20), tail.to_string()),
        ])])
        .await;
    let (events, error) = collect(&backend(&config), with_tools()).await;
    assert_eq!(error, None);
    let turn = assemble(&events);
    assert_eq!(turn.text, "Let me check.");
    assert_eq!(turn.tool_calls.len(), 1);
    assert_eq!(turn.tool_calls[0].id, "call_0");
    assert_eq!(turn.tool_calls[0].name, "get_weather");
    assert_eq!(turn.tool_calls[0].arguments, r#"{"city":"Paris"}"#);
    assert_eq!(turn.tool_calls[0].signature.as_deref(), Some(SIGNATURE));
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::ToolCalls))
    );
    assert_eq!(
        server.requests()[0].body["tools"],
        json!([{"functionDeclarations": [{
            "name": "get_weather", "description": "Weather for a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                           "required": ["city"]}
        }]}])
    );
}

#[tokio::test]
async fn reads_parallel_function_calls_in_one_response() {
    // Gemini 3: ids on every call, the signature on the first call of the step only.
    let (_server, config) = GEMINI
        .serve(vec![Reply::sse(&[
            event(&response(
                json!([
                    call_part(
                        "get_weather",
                        json!({"city": "Oslo"}),
                        Some("fc_8kq2"),
                        Some(SIGNATURE)
                    ),
                    call_part(
                        "get_weather",
                        json!({"city": "Rome"}),
                        Some("fc_3vx7"),
                        None
                    )
                ]),
                None,
                None,
            )),
            event(&response(
                json!([call_part(
                    "get_weather",
                    json!({"city": "Lima"}),
                    Some("fc_0zp4"),
                    None
                )]),
                Some("STOP"),
                Some(usage(60, 30, 0, 0)),
            )),
        ])])
        .await;
    let turn = turn(&backend(&config), with_tools()).await;
    let calls: Vec<(&str, &str, Option<&str>)> = turn
        .tool_calls
        .iter()
        .map(|call| {
            (
                call.id.as_str(),
                call.arguments.as_str(),
                call.signature.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("fc_8kq2", r#"{"city":"Oslo"}"#, Some(SIGNATURE)),
            ("fc_3vx7", r#"{"city":"Rome"}"#, None),
            ("fc_0zp4", r#"{"city":"Lima"}"#, None),
        ]
    );
}

#[tokio::test]
async fn replays_function_calls_with_signatures_and_results_in_gemini_format() {
    let (server, config) = GEMINI.serve(vec![text_reply(&["ok"])]).await;
    let mut request = after_tool_call();
    if let Some(massgen::backend::Message::Assistant { tool_calls, .. }) =
        std::sync::Arc::make_mut(&mut request.messages).get_mut(2)
    {
        tool_calls[0].signature = Some(SIGNATURE.into());
    }
    let _ = turn(&backend(&config), request).await;
    let body = &server.requests()[0].body;
    assert_eq!(
        body["systemInstruction"],
        json!({"parts": [{"text": "You are helpful."}]})
    );
    assert_eq!(
        body["contents"],
        json!([
            {"role": "user", "parts": [{"text": "What is 2+2?"}]},
            {"role": "model", "parts": [
                {"text": "Let me check."},
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                 "thoughtSignature": SIGNATURE}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "get_weather", "response": {"result": "sunny, 21 C"}}}
            ]}
        ])
    );
}

#[tokio::test]
async fn reports_cached_and_thought_tokens_normalised() {
    let (_server, config) = GEMINI
        .serve(vec![Reply::sse(&[
            event(&response(
                json!([{"text": "hi"}]),
                None,
                Some(json!({"promptTokenCount": 2000, "totalTokenCount": 2000})),
            )),
            event(&response(
                json!([{"text": ""}]),
                Some("STOP"),
                Some(usage(2000, 10, 120, 1536)),
            )),
        ])])
        .await;
    let turn = turn(&backend(&config), question()).await;
    assert_eq!(
        turn.usage,
        Usage {
            input_tokens: 2000,
            output_tokens: 130,
            reasoning_tokens: 120,
            cached_input_tokens: 1536,
            cache_creation_tokens: 0,
            estimated: false,
            web_searches: 0,
            x_searches: 0,
            code_runs: 0,
        }
    );
    assert_eq!(turn.usage.total(), 2130);
}

#[tokio::test]
async fn other_finish_reasons_and_a_blocked_prompt_are_reported() {
    let cut_short = |reason: &str| {
        Reply::sse(&[event(&response(
            json!([{"text": "Once upon"}]),
            Some(reason),
            Some(usage(5, 2, 0, 0)),
        ))])
    };
    let (_server, config) = GEMINI
        .serve(vec![
            cut_short("MAX_TOKENS"),
            cut_short("SAFETY"),
            cut_short("MALFORMED_FUNCTION_CALL"),
            Reply::sse(&[event(&json!({
                "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
                "usageMetadata": {"promptTokenCount": 7, "totalTokenCount": 7},
                "modelVersion": MODEL
            }))]),
        ])
        .await;
    let backend = backend(&config);
    for expected in [
        FinishReason::Length,
        FinishReason::ContentFilter,
        FinishReason::Other("MALFORMED_FUNCTION_CALL".into()),
    ] {
        let (events, error) = collect(&backend, question()).await;
        assert_eq!(error, None);
        assert_eq!(events.last(), Some(&StreamEvent::Finish(expected)));
    }
    let (_, error) = collect(&backend, question()).await;
    assert_eq!(
        error.unwrap().to_string(),
        "Gemini blocked the prompt: PROHIBITED_CONTENT"
    );
}

#[tokio::test]
async fn a_server_that_ignores_alt_sse_is_read_as_one_reply() {
    let body = json!([
        response(
            json!([{"text": "Thinking about it.", "thought": true}]),
            None,
            None
        ),
        response(
            json!([
                {"text": "Checking."},
                call_part("get_weather", json!({"city": "Lima"}), None, None)
            ]),
            Some("STOP"),
            Some(usage(7, 3, 0, 0)),
        )
    ]);
    let (_server, config) = GEMINI
        .serve(vec![Reply::Status {
            status: 200,
            headers: vec![(
                "content-type".into(),
                "application/json; charset=UTF-8".into(),
            )],
            body: body.to_string(),
        }])
        .await;
    let turn = turn(&backend(&config), with_tools()).await;
    assert_eq!(turn.text, "Checking.");
    assert_eq!(turn.reasoning, "Thinking about it.");
    assert_eq!(turn.tool_calls[0].arguments, r#"{"city":"Lima"}"#);
    assert_eq!(turn.usage.total(), 10);
}

#[tokio::test]
async fn the_base_url_may_carry_the_version_and_the_model_its_prefix() {
    let (server, config) = serve(
        BackendKind::Gemini,
        "models/gemini-2.5-flash",
        "/v1beta/",
        vec![text_reply(&["hi"])],
    )
    .await;
    let _ = turn(&backend(&config), question()).await;
    assert_eq!(server.requests()[0].path, PATH);
}

#[tokio::test]
async fn passthrough_options_and_sampling_settings_reach_the_body() {
    let (server, mut config) = GEMINI.serve(vec![text_reply(&["hi"])]).await;
    config.temperature = Some(0.3);
    config.max_tokens = Some(256);
    config.passthrough.insert(
        "thinkingConfig".into(),
        json!({"thinkingBudget": 1024, "includeThoughts": true}),
    );
    config.passthrough.insert("top_p".into(), json!(0.9));
    config.passthrough.insert(
        "generationConfig".into(),
        json!({"topK": 40, "temperature": 1.5, "maxOutputTokens": 9}),
    );
    config.passthrough.insert(
        "safetySettings".into(),
        json!([{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_ONLY_HIGH"}]),
    );
    config.passthrough.insert(
        "toolConfig".into(),
        json!({"functionCallingConfig": {"mode": "ANY"}}),
    );
    config
        .passthrough
        .insert("tools".into(), json!([{"googleSearch": {}}]));
    config
        .passthrough
        .insert("contents".into(), json!("must-not-override"));
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(
        body["generationConfig"],
        json!({
            "temperature": 0.3,
            "maxOutputTokens": 256,
            "thinkingConfig": {"thinkingBudget": 1024, "includeThoughts": true},
            "topP": 0.9,
            "topK": 40
        })
    );
    assert_eq!(
        body["safetySettings"],
        json!([{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_ONLY_HIGH"}])
    );
    assert_eq!(
        body["toolConfig"],
        json!({"functionCallingConfig": {"mode": "ANY"}})
    );
    assert_eq!(body["tools"], json!([{"googleSearch": {}}]));
    assert_eq!(body["contents"][0]["parts"][0]["text"], "What is 2+2?");
}
