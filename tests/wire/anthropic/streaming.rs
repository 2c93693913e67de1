//! Anthropic calls that complete: text, extended thinking (signed and sent back), tool
//! use, prompt-cache usage, the request body, and a reply that is not streamed.

use massgen::backend::{FinishReason, StreamEvent};
use massgen::config::BackendKind;
use massgen::protocol::Usage;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::{Reply, typed};

use super::*;

#[tokio::test]
async fn streams_plain_text_with_usage_and_sends_the_documented_request() {
    // The "Basic streaming request" example of Anthropic's streaming guide, byte for byte.
    let reply = Reply::sse(&[
        "event: message_start\ndata: {\"type\": \"message_start\", \"message\": {\"id\": \"msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY\", \"type\": \"message\", \"role\": \"assistant\", \"content\": [], \"model\": \"claude-sonnet-4-5-20250929\", \"stop_reason\": null, \"stop_sequence\": null, \"usage\": {\"input_tokens\": 25, \"output_tokens\": 1}}}\n\n".into(),
        "event: content_block_start\ndata: {\"type\": \"content_block_start\", \"index\": 0, \"content_block\": {\"type\": \"text\", \"text\": \"\"}}\n\n".into(),
        "event: ping\ndata: {\"type\": \"ping\"}\n\n".into(),
        "event: content_block_delta\ndata: {\"type\": \"content_block_delta\", \"index\": 0, \"delta\": {\"type\": \"text_delta\", \"text\": \"Hello\"}}\n\n".into(),
        "event: content_block_delta\ndata: {\"type\": \"content_block_delta\", \"index\": 0, \"delta\": {\"type\": \"text_delta\", \"text\": \"!\"}}\n\n".into(),
        "event: content_block_stop\ndata: {\"type\": \"content_block_stop\", \"index\": 0}\n\n".into(),
        "event: message_delta\ndata: {\"type\": \"message_delta\", \"delta\": {\"stop_reason\": \"end_turn\", \"stop_sequence\":null}, \"usage\": {\"output_tokens\": 15}}\n\n".into(),
        "event: message_stop\ndata: {\"type\": \"message_stop\"}\n\n".into(),
    ]);
    let (server, config) = CLAUDE.serve(vec![reply]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(texts(&events), ["Hello", "!"]);
    assert_eq!(
        usages(&events),
        [Usage {
            input_tokens: 25,
            output_tokens: 15,
            ..Usage::default()
        }]
    );
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::Stop))
    );

    let request = &server.requests()[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(request.header("authorization"), None);
    assert_eq!(
        request.body,
        json!({
            "model": MODEL,
            "max_tokens": 8192,
            "system": "You are helpful.",
            "messages": [{"role": "user", "content": [{"type": "text", "text": "What is 2+2?"}]}],
            "stream": true
        })
    );
}

#[tokio::test]
async fn a_base_url_that_already_ends_in_v1_is_not_doubled() {
    let (server, config) =
        serve(BackendKind::Claude, MODEL, "/v1", vec![text_reply(&["hi"])]).await;
    let _ = turn(&backend(&config), question()).await;
    assert_eq!(server.requests()[0].path, "/v1/messages");
}

#[tokio::test]
async fn reads_extended_thinking_as_reasoning() {
    let mut events = vec![
        message_start(40, 0, 0),
        block_start(0, json!({"type": "thinking", "thinking": ""})),
        thinking(0, "I need to add 2 and 2.\n\n"),
        thinking(0, "That is 4."),
        signature(0, "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"),
        block_stop(0),
        redacted_thinking(1, "EmwKAhgBEgy3va3pzix"),
        block_stop(1),
        block_start(2, json!({"type": "text", "text": ""})),
        text(2, "2 + 2 = 4."),
        block_stop(2),
    ];
    events.extend(end("end_turn", 120));
    let (_server, config) = CLAUDE.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(reasoning(&events), "I need to add 2 and 2.\n\nThat is 4.");
    assert_eq!(texts(&events), ["2 + 2 = 4."]);
    // Thinking counts as output; Anthropic reports no separate thinking-token figure.
    assert_eq!(
        usages(&events),
        [Usage {
            input_tokens: 40,
            output_tokens: 120,
            ..Usage::default()
        }]
    );
}

#[tokio::test]
async fn assembles_one_tool_call_split_across_chunks_and_sends_tools_in_anthropic_format() {
    // The shape of the guide's "Streaming request with tool use" example.
    let mut events = vec![
        message_start(472, 0, 0),
        block_start(0, json!({"type": "text", "text": ""})),
        typed(&json!({"type": "ping"})),
        text(0, "Okay, let's check"),
        text(0, " the weather for Paris:"),
        block_stop(0),
        tool_use(1, "toolu_01T1x1fJ34qAmk2tNTrN7Up6"),
        input(1, ""),
        input(1, "{\"city\":"),
        input(1, " \"Par"),
        input(1, "is\"}"),
        block_stop(1),
    ];
    events.extend(end("tool_use", 89));
    let (server, config) = CLAUDE.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), with_tools()).await;
    assert_eq!(error, None);
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::ToolCalls))
    );
    let turn = assemble(&events);
    assert_eq!(turn.text, "Okay, let's check the weather for Paris:");
    assert_eq!(
        tool_calls(&turn),
        [(
            "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
            "get_weather",
            r#"{"city": "Paris"}"#
        )]
    );
    assert_eq!(
        server.requests()[0].body["tools"],
        json!([{
            "name": "get_weather", "description": "Weather for a city",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                             "required": ["city"], "additionalProperties": false}
        }])
    );
}

#[tokio::test]
async fn assembles_parallel_tool_calls_including_one_without_input() {
    let mut events = vec![
        message_start(500, 0, 0),
        block_start(0, json!({"type": "text", "text": ""})),
        text(0, "Checking both."),
        block_stop(0),
        tool_use(1, "toolu_01A09q90qw90lq917835lq9"),
        input(1, ""),
        input(1, "{\"city\": \"Os"),
        input(1, "lo\"}"),
        block_stop(1),
        tool_use(2, "toolu_01B5kfNZ3JqVKL7rTmYgXDRQ"),
        input(2, "{\"city\": \"Rome\"}"),
        block_stop(2),
        block_start(
            3,
            json!({"type": "tool_use", "id": "toolu_01C8wLyEs3zXNfKq9h4dPbA2", "name": "list_cities", "input": {}}),
        ),
        block_stop(3),
    ];
    events.extend(end("tool_use", 140));
    let (_server, config) = CLAUDE.serve(vec![Reply::sse(&events)]).await;
    let turn = turn(&backend(&config), with_tools()).await;
    assert_eq!(
        tool_calls(&turn),
        [
            (
                "toolu_01A09q90qw90lq917835lq9",
                "get_weather",
                r#"{"city": "Oslo"}"#
            ),
            (
                "toolu_01B5kfNZ3JqVKL7rTmYgXDRQ",
                "get_weather",
                r#"{"city": "Rome"}"#
            ),
            ("toolu_01C8wLyEs3zXNfKq9h4dPbA2", "list_cities", "{}"),
        ]
    );
}

#[tokio::test]
async fn replays_tool_calls_and_results_in_anthropic_format() {
    let (server, config) = CLAUDE.serve(vec![text_reply(&["ok"])]).await;
    let mut request = after_tool_call();
    std::sync::Arc::make_mut(&mut request.messages)
        .push(massgen::backend::Message::user("Also, is it windy?"));
    let _ = turn(&backend(&config), request).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["system"], "You are helpful.");
    assert_eq!(
        body["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "What is 2+2?"}]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Let me check."},
                {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "call_1", "content": "sunny, 21 C", "is_error": false},
                {"type": "text", "text": "Also, is it windy?"}
            ]}
        ])
    );
}

#[tokio::test]
async fn normalises_prompt_cache_usage_and_reports_it_once() {
    let mut events = vec![
        message_start(21, 188, 1800),
        block_start(0, json!({"type": "text", "text": ""})),
        text(0, "Cached."),
        block_stop(0),
    ];
    events.extend(end("max_tokens", 393));
    let (_server, config) = CLAUDE.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(
        usages(&events),
        [Usage {
            input_tokens: 21 + 188 + 1800,
            output_tokens: 393,
            reasoning_tokens: 0,
            cached_input_tokens: 1800,
            cache_creation_tokens: 188,
            estimated: false,
            web_searches: 0,
            x_searches: 0,
            code_runs: 0,
        }]
    );
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::Length))
    );
}

#[tokio::test]
async fn passthrough_options_and_sampling_settings_reach_the_body() {
    let (server, mut config) = CLAUDE
        .serve(vec![text_reply(&["hi"]), text_reply(&["hi"])])
        .await;
    config.temperature = Some(0.3);
    config.max_tokens = Some(4096);
    config.passthrough.insert("top_k".into(), json!(40));
    config
        .passthrough
        .insert("metadata".into(), json!({"user_id": "agent_a"}));
    config
        .passthrough
        .insert("model".into(), json!("must-not-override"));
    config.passthrough.insert("stream".into(), json!(false));
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["temperature"], 0.3);
    assert_eq!(body["max_tokens"], 4096);
    assert_eq!(body["top_k"], 40);
    assert_eq!(body["metadata"], json!({"user_id": "agent_a"}));
    assert_eq!(body["model"], MODEL);
    assert_eq!(body["stream"], true);

    // Extended thinking: `max_tokens` must stay above the thinking budget.
    config.temperature = None;
    config.passthrough.clear();
    config.passthrough.insert(
        "thinking".into(),
        json!({"type": "enabled", "budget_tokens": 10000}),
    );
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[1].body;
    assert_eq!(
        body["thinking"],
        json!({"type": "enabled", "budget_tokens": 10000})
    );
    assert_eq!(body["max_tokens"], 14096);
}

#[tokio::test]
async fn a_server_that_ignores_stream_true_is_read_as_one_reply() {
    let body = json!({
        "id": "msg_01Aq9w938a90dw8q", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [
            {"type": "thinking", "thinking": "Need the weather.", "signature": "EqQBCgIYAhIM"},
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV", "name": "get_weather", "input": {"city": "Lima"}}
        ],
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 7, "cache_read_input_tokens": 3, "output_tokens": 5}
    });
    let (_server, config) = CLAUDE
        .serve(vec![Reply::status(200, &body.to_string())])
        .await;
    let turn = turn(&backend(&config), with_tools()).await;
    assert_eq!(turn.text, "Checking.");
    assert_eq!(turn.reasoning, "Need the weather.");
    assert_eq!(
        tool_calls(&turn),
        [(
            "toolu_01D7FLrfh4GYq7yT1ULFeyMV",
            "get_weather",
            r#"{"city":"Lima"}"#
        )]
    );
    assert_eq!(turn.usage.input_tokens, 10);
    assert_eq!(turn.usage.cached_input_tokens, 3);
    assert_eq!(turn.usage.output_tokens, 5);
}

#[tokio::test]
async fn signed_thinking_goes_back_unchanged_before_the_tool_calls() {
    let mut first = vec![
        message_start(40, 0, 0),
        block_start(0, json!({"type": "thinking", "thinking": ""})),
        thinking(0, "Check the weather."),
        signature(0, "EqQBCgIYAhIM"),
        signature(0, "1gbcDa9GJwZA"),
        block_stop(0),
        redacted_thinking(1, "EmwKAhgBEgy3va3pzix"),
        block_stop(1),
        tool_use(2, "toolu_01"),
        input(2, r#"{"city":"Paris"}"#),
        block_stop(2),
    ];
    first.extend(end("tool_use", 60));
    let (server, config) = CLAUDE
        .serve(vec![Reply::sse(&first), text_reply(&["Sunny."])])
        .await;
    let backend = backend(&config);
    let turn = turn(&backend, with_tools()).await;
    assert_eq!(
        turn.reasoning_blocks,
        [
            massgen::backend::ReasoningBlock::Signed {
                text: "Check the weather.".into(),
                signature: "EqQBCgIYAhIM1gbcDa9GJwZA".into(),
            },
            massgen::backend::ReasoningBlock::Redacted {
                data: "EmwKAhgBEgy3va3pzix".into(),
            },
        ]
    );
    let mut next = with_tools();
    std::sync::Arc::make_mut(&mut next.messages).push(massgen::backend::Message::Assistant {
        content: turn.text.clone(),
        tool_calls: turn.tool_calls.clone(),
        reasoning: turn.reasoning_blocks.clone(),
    });
    std::sync::Arc::make_mut(&mut next.messages).push(massgen::backend::Message::Tool {
        call_id: turn.tool_calls[0].id.clone(),
        name: "get_weather".into(),
        content: "sunny".into(),
        is_error: false,
    });
    let _ = crate::harness::turn(&backend, next).await;
    let assistant = &server.requests()[1].body["messages"][1];
    assert_eq!(assistant["role"], "assistant");
    assert_eq!(
        assistant["content"][0],
        json!({"type": "thinking", "thinking": "Check the weather.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA"})
    );
    assert_eq!(
        assistant["content"][1],
        json!({"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"})
    );
    assert_eq!(assistant["content"][2]["type"], "tool_use");
}
