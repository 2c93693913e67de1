//! Chat Completions calls that complete: text, reasoning fields, tool-call deltas, usage,
//! the request body (Azure's too), and a reply that is not streamed.

use massgen::backend::{FinishReason, StreamEvent};
use massgen::config::BackendKind;
use massgen::protocol::Usage;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::{Reply, data};

use super::*;

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
        request.path.ends_with("?api-version=2024-12-01-preview"),
        "{}",
        request.path
    );
    assert_eq!(request.body["max_completion_tokens"], 100);
    assert!(request.body.get("max_tokens").is_none());
}
