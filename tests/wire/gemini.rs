//! Gemini `streamGenerateContent?alt=sse` (`type: gemini`): every event a whole
//! `GenerateContentResponse`, `\r\n`-framed as Google sends it, with no end marker.

use std::time::Duration;

use massgen::backend::{FinishReason, StreamEvent};
use massgen::config::BackendKind;
use massgen::protocol::Usage;
use serde_json::{Value, json};

use crate::faults;
use crate::harness::*;
use crate::mock_llm::Reply;

const MODEL: &str = "gemini-2.5-flash";
const PATH: &str = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";
/// A Gemini 3 thought signature (opaque base64).
const SIGNATURE: &str = "CiQB0e2Kb3fI0Tg1Kx9yT1m3ZgYQ8Kq2o5mN1d7e+VqvS4pXyZ0KcgEB0e2Kbw==";

/// One `data:` event as Google frames it.
fn event(response: &Value) -> String {
    format!("data: {response}\r\n\r\n")
}

/// A `GenerateContentResponse` with these parts, finish reason and usage.
fn response(parts: Value, finish: Option<&str>, usage: Option<Value>) -> Value {
    let mut candidate = json!({"content": {"parts": parts, "role": "model"}, "index": 0});
    if let Some(reason) = finish {
        candidate["finishReason"] = json!(reason);
    }
    let mut response = json!({
        "candidates": [candidate],
        "modelVersion": MODEL,
        "responseId": "Ra3yaOjvM5mZ1dkPn8ar6A4"
    });
    if let Some(usage) = usage {
        response["usageMetadata"] = usage;
    }
    response
}

fn usage(prompt: u64, candidates: u64, thoughts: u64, cached: u64) -> Value {
    let mut usage = json!({
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates + thoughts,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt}]
    });
    if thoughts > 0 {
        usage["thoughtsTokenCount"] = json!(thoughts);
    }
    if cached > 0 {
        usage["cachedContentTokenCount"] = json!(cached);
        usage["cacheTokensDetails"] = json!([{"modality": "TEXT", "tokenCount": cached}]);
    }
    usage
}

fn text_events(words: &[&str]) -> Vec<String> {
    let last = words.len().saturating_sub(1);
    words
        .iter()
        .enumerate()
        .map(|(at, word)| {
            if at == last {
                event(&response(
                    json!([{"text": word}]),
                    Some("STOP"),
                    Some(usage(12, 5, 0, 0)),
                ))
            } else {
                event(&response(
                    json!([{"text": word}]),
                    None,
                    Some(json!({"promptTokenCount": 12, "totalTokenCount": 12})),
                ))
            }
        })
        .collect()
}

fn text_reply(words: &[&str]) -> Reply {
    Reply::sse(&text_events(words))
}

fn call_part(name: &str, args: Value, id: Option<&str>, signature: Option<&str>) -> Value {
    let mut part = json!({"functionCall": {"name": name, "args": args}});
    if let Some(id) = id {
        part["functionCall"]["id"] = json!(id);
    }
    if let Some(signature) = signature {
        part["thoughtSignature"] = json!(signature);
    }
    part
}

fn api_error(code: u16, status: &str, message: &str) -> Value {
    json!({"error": {"code": code, "message": message, "status": status}})
}

/// An error reply whose HTTP status is the error's `code`.
fn error_reply(code: u16, status: &str, message: &str) -> Reply {
    Reply::status(code, &api_error(code, status, message).to_string())
}

const GEMINI: Protocol = Protocol {
    kind: BackendKind::Gemini,
    model: MODEL,
    path: "",
    text_reply,
};

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
            "systemInstruction": {"parts": [{"text": "You are helpful."}]}
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
        request.messages.get_mut(2)
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
async fn an_error_inside_the_stream_ends_the_call_with_its_message() {
    let (_server, config) = GEMINI
        .serve(vec![Reply::sse(&[
            event(&response(json!([{"text": "Hal"}]), None, None)),
            event(&api_error(
                400,
                "INVALID_ARGUMENT",
                "Request contains an invalid argument.",
            )),
        ])])
        .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        "Gemini refused the request (HTTP 400): INVALID_ARGUMENT: Request contains an invalid argument."
    );

    // An overload reported mid-stream is retried; the partial text is void.
    let overloaded = Reply::sse(&[
        event(&response(json!([{"text": "Hal"}]), None, None)),
        event(&api_error(
            503,
            "UNAVAILABLE",
            "The model is overloaded. Please try again later.",
        )),
    ]);
    faults::retried_call_stands_alone(&GEMINI, overloaded).await;
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says_then_succeeds() {
    faults::retry_after_is_honoured(
        &GEMINI,
        error_reply(
            429,
            "RESOURCE_EXHAUSTED",
            "Resource has been exhausted (e.g. check quota).",
        )
        .with_header("retry-after", "1"),
    )
    .await;
}

#[tokio::test]
async fn a_429_without_retry_after_waits_for_the_retry_delay_in_its_body() {
    let body = json!({"error": {
        "code": 429,
        "message": "Resource has been exhausted (e.g. check quota).",
        "status": "RESOURCE_EXHAUSTED",
        "details": [
            {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{
                "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
                "quotaDimensions": {"location": "global", "model": MODEL},
                "quotaValue": "10"
            }]},
            {"@type": "type.googleapis.com/google.rpc.Help", "links": [{
                "description": "Learn more about Gemini API quotas",
                "url": "https://ai.google.dev/gemini-api/docs/rate-limits"
            }]},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}
        ]
    }});
    faults::retry_after_is_honoured(&GEMINI, Reply::status(429, &body.to_string())).await;
}

#[tokio::test]
async fn a_500_is_retried_with_backoff_then_succeeds() {
    let failure = error_reply(500, "INTERNAL", "An internal error has occurred.");
    let events = faults::server_error_is_retried_with_backoff(&GEMINI, failure).await;
    assert_eq!(texts(&events), ["4"]);
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_is_truncated_not_complete() {
    let cut: Vec<String> = text_events(&["The answer", " is", " 4."])[..2].to_vec();
    // A clean close before any finish reason is as incomplete as a reset.
    faults::cut_stream_is_truncated(&GEMINI, cut).await;
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    faults::silence_times_out(&GEMINI).await;
    let head = text_events(&["Hal", "!"])[..1].to_vec();
    faults::a_stall_times_out(&GEMINI, head, "Gemini").await;
}

#[tokio::test]
async fn a_rejected_key_names_the_variable_and_is_not_retried() {
    // Google answers a bad key with 400 INVALID_ARGUMENT, a revoked one with 401/403.
    let invalid = json!({"error": {
        "code": 400,
        "message": "API key not valid. Please pass a valid API key.",
        "status": "INVALID_ARGUMENT",
        "details": [{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "API_KEY_INVALID",
            "domain": "googleapis.com",
            "metadata": {"service": "generativelanguage.googleapis.com"}
        }]
    }});
    for reply in [
        Reply::status(400, &invalid.to_string()),
        error_reply(
            401,
            "UNAUTHENTICATED",
            "Request had invalid authentication credentials.",
        ),
    ] {
        let message = faults::rejected_key_message(&GEMINI, reply).await;
        assert!(
            message.starts_with("invalid key for Gemini: set GOOGLE_API_KEY or GEMINI_API_KEY"),
            "{message}"
        );
        assert!(!message.contains(KEY), "{message}");
    }
}

#[tokio::test]
async fn an_unknown_model_is_named() {
    let not_found = error_reply(
        404,
        "NOT_FOUND",
        "models/gemini-2.5-flash is not found for API version v1beta, or is not supported for generateContent.",
    );
    faults::unknown_model_is_named(&GEMINI, not_found, MODEL).await;
}

#[tokio::test]
async fn a_context_length_error_is_recognised() {
    let too_long = error_reply(
        400,
        "INVALID_ARGUMENT",
        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    );
    faults::long_prompt_is_recognised(&GEMINI, too_long).await;
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
