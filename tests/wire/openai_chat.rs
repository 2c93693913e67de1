//! Chat Completions (`grok`, `groq`, `vllm`, `chatcompletion`, `azure_openai`, …): the SSE
//! format as OpenAI documents it, plus the open-model servers' reasoning fields.

use std::time::{Duration, Instant};

use massgen::backend::{BackendError, FinishReason, StreamEvent};
use massgen::config::BackendKind;
use massgen::protocol::Usage;
use serde_json::json;

use crate::faults;
use crate::harness::*;
use crate::mock_llm::{Reply, data};

/// The end marker.
const DONE: &str = "data: [DONE]\n\n";

fn chunk(delta: serde_json::Value, finish: Option<&str>) -> String {
    data(
        &json!({
            "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "grok-4",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
        .to_string(),
    )
}

fn usage_chunk(prompt: u64, completion: u64, cached: u64, reasoning: u64) -> String {
    data(
        &json!({
            "id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
            "usage": {
                "prompt_tokens": prompt, "completion_tokens": completion,
                "total_tokens": prompt + completion,
                "prompt_tokens_details": {"cached_tokens": cached},
                "completion_tokens_details": {"reasoning_tokens": reasoning}
            }
        })
        .to_string(),
    )
}

fn text_reply(words: &[&str]) -> Reply {
    let mut events = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    events.extend(
        words
            .iter()
            .map(|word| chunk(json!({"content": word}), None)),
    );
    events.push(chunk(json!({}), Some("stop")));
    events.push(usage_chunk(12, 5, 0, 0));
    events.push(DONE.into());
    Reply::sse(&events)
}

const GROK: Protocol = Protocol {
    kind: BackendKind::Grok,
    model: "grok-4",
    path: "/v1",
    text_reply,
};

#[tokio::test]
async fn streams_plain_text_with_usage_and_sends_the_documented_request() {
    let (server, config) = GROK
        .serve(vec![text_reply(&["Two", " plus two", " is 4."])])
        .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(texts(&events), ["Two", " plus two", " is 4."]);
    assert!(events.contains(&StreamEvent::Usage(Usage {
        input_tokens: 12,
        output_tokens: 5,
        ..Usage::default()
    })));
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::Stop))
    );

    let request = &server.requests()[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(request.body["model"], "grok-4");
    assert_eq!(request.body["stream"], true);
    assert_eq!(
        request.body["stream_options"],
        json!({"include_usage": true})
    );
    assert_eq!(
        request.body["messages"],
        json!([
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": "What is 2+2?"}
        ])
    );
    assert!(request.body.get("tools").is_none());
}

#[tokio::test]
async fn reads_reasoning_content_and_reasoning_deltas() {
    let (_server, config) = GROK
        .serve(vec![Reply::sse(&[
            chunk(
                json!({"role": "assistant", "reasoning_content": "Think"}),
                None,
            ),
            chunk(json!({"reasoning_content": "ing…", "content": null}), None),
            chunk(json!({"reasoning": " more"}), None),
            chunk(json!({"content": "4"}), None),
            chunk(json!({}), Some("stop")),
            usage_chunk(10, 40, 0, 30),
            DONE.into(),
        ])])
        .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(reasoning(&events), "Thinking… more");
    assert_eq!(texts(&events), ["4"]);
    assert!(events.contains(&StreamEvent::Usage(Usage {
        input_tokens: 10,
        output_tokens: 40,
        reasoning_tokens: 30,
        ..Usage::default()
    })));
}

#[tokio::test]
async fn assembles_one_tool_call_split_across_chunks_and_sends_tools_in_openai_format() {
    let (server, config) = GROK.serve(vec![Reply::sse(&[
        chunk(json!({"role": "assistant", "content": null, "tool_calls": [
            {"index": 0, "id": "call_abc", "type": "function", "function": {"name": "get_weather", "arguments": ""}}
        ]}), None),
        chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"ci"}}]}), None),
        chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "ty\": \"Par"}}]}), None),
        chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "is\"}"}}]}), None),
        chunk(json!({}), Some("tool_calls")),
        DONE.into(),
    ])])
    .await;
    let turn = turn(&backend(&config), with_tools()).await;
    assert_eq!(turn.tool_calls.len(), 1);
    assert_eq!(turn.tool_calls[0].id, "call_abc");
    assert_eq!(turn.tool_calls[0].name, "get_weather");
    assert_eq!(turn.tool_calls[0].arguments, r#"{"city": "Paris"}"#);
    assert_eq!(
        server.requests()[0].body["tools"],
        json!([{"type": "function", "function": {
            "name": "get_weather", "description": "Weather for a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                           "required": ["city"], "additionalProperties": false}
        }}])
    );
}

#[tokio::test]
async fn assembles_parallel_tool_calls_interleaved_by_index() {
    let (_server, config) = GROK.serve(vec![Reply::sse(&[
        chunk(json!({"tool_calls": [
            {"index": 0, "id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": ""}},
            {"index": 1, "id": "call_b", "type": "function", "function": {"name": "get_weather", "arguments": ""}}
        ]}), None),
        chunk(json!({"tool_calls": [{"index": 1, "function": {"arguments": "{\"city\":\"Rome\"}"}}]}), None),
        chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\":"}}]}), None),
        chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "\"Oslo\"}"}}]}), None),
        chunk(json!({}), Some("tool_calls")),
        DONE.into(),
    ])])
    .await;
    let turn = turn(&backend(&config), with_tools()).await;
    assert_eq!(
        ids_and_arguments(&turn),
        [
            ("call_a", r#"{"city":"Oslo"}"#),
            ("call_b", r#"{"city":"Rome"}"#)
        ]
    );
}

#[tokio::test]
async fn parallel_calls_that_all_claim_index_zero_stay_separate() {
    let (_server, config) = GROK.serve(vec![Reply::sse(&[
        chunk(json!({"tool_calls": [{"index": 0, "id": "call_a", "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"}}]}), None),
        chunk(json!({"tool_calls": [{"index": 0, "id": "call_b", "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}}]}), None),
        chunk(json!({}), Some("tool_calls")),
        DONE.into(),
    ])])
    .await;
    let turn = turn(&backend(&config), with_tools()).await;
    assert_eq!(turn.tool_calls.len(), 2);
    assert_eq!(turn.tool_calls[1].arguments, r#"{"city":"Rome"}"#);
}

#[tokio::test]
async fn replays_tool_calls_and_results_in_openai_format() {
    let (server, config) = GROK.serve(vec![text_reply(&["ok"])]).await;
    let _ = turn(&backend(&config), after_tool_call()).await;
    let messages = &server.requests()[0].body["messages"];
    assert_eq!(
        messages[2],
        json!({"role": "assistant", "content": "Let me check.", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}
        ]})
    );
    assert_eq!(
        messages[3],
        json!({"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"})
    );
}

#[tokio::test]
async fn reports_cached_tokens_from_the_usage_chunk() {
    let mut events = vec![chunk(json!({"content": "hi"}), Some("stop"))];
    events.push(usage_chunk(2000, 10, 1536, 0));
    events.push(DONE.into());
    let (_server, config) = GROK.serve(vec![Reply::sse(&events)]).await;
    let turn = turn(&backend(&config), question()).await;
    assert_eq!(
        turn.usage,
        Usage {
            input_tokens: 2000,
            output_tokens: 10,
            cached_input_tokens: 1536,
            ..Usage::default()
        }
    );
}

#[tokio::test]
async fn an_error_inside_the_stream_ends_the_call_with_its_message() {
    let (_server, config) = GROK
        .serve(vec![Reply::sse(&[
            chunk(json!({"content": "Hal"}), None),
            data(r#"{"error":{"message":"The model crashed","type":"invalid_request_error"}}"#),
        ])])
        .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        "xAI refused the request (HTTP 400): invalid_request_error: The model crashed"
    );
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says_then_succeeds() {
    faults::retry_after_is_honoured(
        &GROK,
        Reply::status(
            429,
            r#"{"error":{"message":"Rate limit reached","type":"rate_limit_exceeded"}}"#,
        )
        .with_header("retry-after", "1"),
    )
    .await;
}

#[tokio::test]
async fn a_500_is_retried_with_backoff_then_succeeds() {
    faults::server_error_is_retried_with_backoff(
        &GROK,
        Reply::status(500, r#"{"error":{"message":"internal"}}"#),
    )
    .await;
}

#[tokio::test]
async fn retries_are_bounded_and_the_last_error_is_reported() {
    let failure = || Reply::status(503, r#"{"error":{"message":"overloaded"}}"#);
    let (server, config) = GROK.serve(vec![failure(), failure()]).await;
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(retries(&events).len(), 1);
    assert_eq!(
        error.unwrap().to_string(),
        "xAI server error 503 (overloaded)"
    );
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_is_truncated_not_complete() {
    let cut = vec![
        chunk(json!({"content": "The answer"}), None),
        chunk(json!({"content": " is"}), None),
    ];
    faults::cut_stream_is_truncated(&GROK, cut).await;
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    faults::silence_times_out(&GROK).await;
    let head = vec![chunk(json!({"content": "Hal"}), None)];
    faults::a_stall_times_out(&GROK, head, "xAI").await;
}

#[tokio::test]
async fn a_rejected_key_names_the_variable_and_is_not_retried() {
    let rejection = Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-te***123.","type":"invalid_request_error","code":"invalid_api_key"}}"#,
    );
    let message = faults::rejected_key_message(&GROK, rejection).await;
    assert!(
        message.starts_with("invalid key for xAI: set XAI_API_KEY"),
        "{message}"
    );
}

#[tokio::test]
async fn an_unknown_model_is_named() {
    let not_found = Reply::status(
        404,
        r#"{"error":{"message":"The model `grok-9` does not exist","type":"invalid_request_error","code":"model_not_found"}}"#,
    );
    faults::unknown_model_is_named(&GROK, not_found, "grok-4").await;
}

#[tokio::test]
async fn a_context_length_error_is_recognised() {
    let too_long = Reply::status(
        400,
        r#"{"error":{"message":"This model's maximum context length is 131072 tokens. However, your messages resulted in 200000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
    );
    faults::long_prompt_is_recognised(&GROK, too_long).await;
}

#[tokio::test]
async fn a_server_that_ignores_stream_true_is_read_as_one_reply() {
    let body = json!({
        "id": "chatcmpl-2", "object": "chat.completion",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "Checking.", "reasoning_content": "hmm",
            "tool_calls": [{"id": "call_z", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lima\"}"}}]
        }}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}
    });
    let (_server, config) = GROK
        .serve(vec![Reply::status(200, &body.to_string())])
        .await;
    let turn = turn(&backend(&config), with_tools()).await;
    assert_eq!(turn.text, "Checking.");
    assert_eq!(turn.reasoning, "hmm");
    assert_eq!(turn.tool_calls[0].arguments, r#"{"city":"Lima"}"#);
    assert_eq!(turn.usage.total(), 10);
}

#[tokio::test]
async fn local_servers_get_no_authorization_header() {
    let (server, mut config) = serve(
        BackendKind::Vllm,
        "Qwen/Qwen3-8B",
        "/v1",
        vec![text_reply(&["hi"])],
    )
    .await;
    config.api_key = None;
    let _ = turn(&backend(&config), question()).await;
    assert_eq!(server.requests()[0].header("authorization"), None);
}

#[tokio::test]
async fn passthrough_options_and_sampling_settings_reach_the_body() {
    let (server, mut config) = GROK.serve(vec![text_reply(&["hi"])]).await;
    config.temperature = Some(0.3);
    config.max_tokens = Some(256);
    config.passthrough.insert("top_p".into(), json!(0.9));
    config
        .passthrough
        .insert("model".into(), json!("must-not-override"));
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["temperature"], 0.3);
    assert_eq!(body["max_tokens"], 256);
    assert_eq!(body["top_p"], 0.9);
    assert_eq!(body["model"], "grok-4");
}

#[tokio::test]
async fn azure_calls_the_deployment_with_the_api_key_header_and_version() {
    let (server, mut config) = serve(
        BackendKind::AzureOpenai,
        "my-gpt4o",
        "",
        vec![text_reply(&["hi"])],
    )
    .await;
    config.api_version = Some("2024-10-21".into());
    let _ = turn(&backend(&config), question()).await;
    let request = &server.requests()[0];
    assert_eq!(
        request.path,
        "/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21"
    );
    assert_eq!(request.header("api-key"), Some(KEY));
    assert_eq!(request.header("authorization"), None);
    assert_eq!(
        request.body["stream_options"],
        json!({"include_usage": true})
    );
}

#[tokio::test]
async fn a_retried_attempt_leaks_nothing_decoded_before_its_error() {
    // Text, a tool call and the error arrive in one network chunk.
    let failing = [
        chunk(json!({"content": "stale"}), None),
        chunk(json!({"tool_calls": [{"index": 0, "id": "call_x", "function": {"name": "vote", "arguments": "{}"}}]}), None),
        data(r#"{"error":{"message":"Overloaded","type":"server_error"}}"#),
    ]
    .concat();
    let (_server, config) = GROK
        .serve(vec![Reply::sse(&[failing]), text_reply(&["fresh"])])
        .await;
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(error, None);
    // The chunk's events never come out: the failed attempt is void as a whole.
    assert!(
        events
            .iter()
            .all(|event| !matches!(event, StreamEvent::ToolCallStart { .. })),
        "{events:?}"
    );
    assert_eq!(texts(&events), ["fresh"]);
    assert_eq!(retries(&events).len(), 1);
}

#[tokio::test]
async fn a_final_error_comes_after_the_events_decoded_before_it() {
    let failing = [
        chunk(json!({"content": "partial"}), None),
        data(r#"{"error":{"message":"bad request","type":"invalid_request_error"}}"#),
    ]
    .concat();
    let (_server, config) = GROK.serve(vec![Reply::sse(&[failing])]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(texts(&events), ["partial"]);
    assert!(error.is_some());
}

#[tokio::test]
async fn usage_repeated_in_every_chunk_is_reported_once_with_the_last_totals() {
    let (_server, config) = GROK.serve(vec![Reply::sse(&[
        data(&json!({"choices": [{"index": 0, "delta": {"content": "a"}}], "usage": {"prompt_tokens": 9, "completion_tokens": 1}}).to_string()),
        data(&json!({"choices": [{"index": 0, "delta": {"content": "b"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 9, "completion_tokens": 2}}).to_string()),
        DONE.into(),
    ])])
    .await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(
        usages(&events),
        [Usage {
            input_tokens: 9,
            output_tokens: 2,
            ..Usage::default()
        }]
    );
}

#[tokio::test]
async fn a_key_echoed_by_the_provider_never_reaches_the_error() {
    let (_server, config) = GROK
        .serve(vec![Reply::status(
            401,
            &format!(r#"{{"error":{{"message":"Incorrect API key provided: {KEY}"}}}}"#),
        )])
        .await;
    let (_, error) = collect(&backend(&config), question()).await;
    let message = error.unwrap().to_string();
    assert!(!message.contains(KEY), "{message}");
    assert!(
        message.contains("Incorrect API key provided: ***"),
        "{message}"
    );
}

#[tokio::test]
async fn a_refused_connection_is_retried() {
    // Bind and drop a listener: nothing answers on that port.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = config(
        BackendKind::Grok,
        "grok-4",
        &format!("http://127.0.0.1:{port}/v1"),
    );
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(retries(&events).len(), 1);
    assert_eq!(retries(&events)[0].2, "connection failed");
    assert!(
        matches!(error, Some(BackendError::Connection { .. })),
        "{error:?}"
    );
}

#[tokio::test]
async fn azure_by_default_streams_usage_and_names_max_completion_tokens() {
    let (server, mut config) = serve(
        BackendKind::AzureOpenai,
        "my-gpt5",
        "",
        vec![text_reply(&["hi"])],
    )
    .await;
    config.max_tokens = Some(100);
    let turn = turn(&backend(&config), question()).await;
    assert_eq!(turn.usage.total(), 17);
    let request = &server.requests()[0];
    assert!(
        request.path.ends_with("?api-version=2024-10-21"),
        "{}",
        request.path
    );
    assert_eq!(request.body["max_completion_tokens"], 100);
    assert!(request.body.get("max_tokens").is_none());
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection_and_cancels_a_backoff() {
    use futures::StreamExt;

    let (server, config) = GROK
        .serve(vec![Reply::SseThenHang(vec![chunk(
            json!({"content": "Hal"}),
            None,
        )])])
        .await;
    let first = backend(&config);
    let mut stream = first.stream(question());
    assert_eq!(
        stream.next().await,
        Some(Ok(StreamEvent::TextDelta("Hal".into())))
    );
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.hangups() == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.hangups(), 1, "the server saw the client hang up");

    // Dropped while waiting out a Retry-After: the retry is never sent.
    let (server, config) = GROK
        .serve(vec![
            Reply::status(429, "{}").with_header("retry-after", "1"),
            text_reply(&["late"]),
        ])
        .await;
    let second = backend(&retrying(config, 1));
    let mut stream = second.stream(question());
    assert!(matches!(
        stream.next().await,
        Some(Ok(StreamEvent::Retry { .. }))
    ));
    drop(stream);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(server.requests().len(), 1);
}
