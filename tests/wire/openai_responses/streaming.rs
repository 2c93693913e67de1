//! Responses API calls that complete: text, reasoning summaries, function calls, usage,
//! an output limit, the request body, and a reply that is not streamed.

use massgen::backend::{FinishReason, StreamEvent};
use massgen::protocol::Usage;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::{Reply, typed};

use super::*;

#[tokio::test]
async fn streams_plain_text_with_usage_and_sends_the_documented_request() {
    let mut script = Script::new();
    script.events.push(": keep-alive\n\n".into());
    script.event(
        "response.web_search_call.in_progress",
        json!({"output_index": 0, "item_id": "ws_1"}),
    );
    let events = script
        .message("msg_1", &["Two", " plus two", " is 4."])
        .completed(usage(37, 0, 11, 0));
    let (server, config) = OPENAI.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(texts(&events), ["Two", " plus two", " is 4."]);
    assert_eq!(
        events[events.len() - 2..],
        [
            StreamEvent::Usage(Usage {
                input_tokens: 37,
                output_tokens: 11,
                ..Usage::default()
            }),
            StreamEvent::Finish(FinishReason::Stop),
        ]
    );

    let request = &server.requests()[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/responses");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(request.header("accept"), Some("text/event-stream"));
    assert_eq!(
        request.body,
        json!({
            "model": "gpt-5",
            "instructions": "You are helpful.",
            "input": [{"role": "user", "content": [{"type": "input_text", "text": "What is 2+2?"}]}],
            "stream": true,
            // MassGen turns reasoning summaries on for reasoning models.
            "reasoning": {"summary": "auto"}
        })
    );
}

#[tokio::test]
async fn reads_reasoning_summaries_with_parts_separated_by_a_blank_line() {
    let events = Script::new()
        .reasoning(
            "rs_68af4030baa48193b0b43b4c2a176a1a05438e46b5f69a3b",
            &[
                &["**Adding", " numbers**\n\nThe user asks for 2+2."],
                &["**Answering**\n\nIt is 4."],
            ],
        )
        .message("msg_2", &["4"])
        .completed(usage(20, 0, 120, 64));
    let (_server, config) = OPENAI.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(
        reasoning(&events),
        "**Adding numbers**\n\nThe user asks for 2+2.\n\n**Answering**\n\nIt is 4."
    );
    assert_eq!(texts(&events), ["4"]);
}

#[tokio::test]
async fn assembles_one_tool_call_split_across_chunks_and_sends_tools_in_responses_format() {
    let events = Script::new()
        .reasoning("rs_68af4041a2c88193a1d1f2b6c1e0e3a405438e46b5f69a3b", &[])
        .function_call(
            "fc_68af4041e1ac8193a67e8c2b52d3a75d05438e46b5f69a3b",
            "call_Xo7ibVTBmv0bUq6VqqFMCw1R",
            "get_weather",
            &["{\"ci", "ty\": \"Par", "is\"}"],
        )
        .completed(usage(80, 0, 30, 16));
    let (server, config) = OPENAI.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), with_tools()).await;
    assert_eq!(error, None);
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::ToolCalls))
    );
    let turn = assemble(&events);
    assert_eq!(turn.tool_calls.len(), 1);
    assert_eq!(turn.tool_calls[0].id, "call_Xo7ibVTBmv0bUq6VqqFMCw1R");
    assert_eq!(turn.tool_calls[0].name, "get_weather");
    assert_eq!(turn.tool_calls[0].arguments, r#"{"city": "Paris"}"#);
    assert_eq!(
        server.requests()[0].body["tools"],
        json!([{
            "type": "function", "name": "get_weather", "description": "Weather for a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                           "required": ["city"], "additionalProperties": false},
            "strict": false
        }])
    );
}

#[tokio::test]
async fn assembles_parallel_tool_calls_after_text_by_output_index() {
    let events = Script::new()
        .message("msg_3", &["Checking both."])
        .function_call(
            "fc_a",
            "call_a",
            "get_weather",
            &["{\"city\":", "\"Oslo\"}"],
        )
        .function_call("fc_b", "call_b", "get_weather", &["{\"city\":\"Rome\"}"])
        .completed(usage(90, 0, 40, 0));
    let (_server, config) = OPENAI.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), with_tools()).await;
    assert_eq!(error, None);
    assert!(events.contains(&StreamEvent::ToolCallStart {
        index: 2,
        id: "call_b".into(),
        name: "get_weather".into()
    }));
    let turn = assemble(&events);
    assert_eq!(turn.text, "Checking both.");
    assert_eq!(
        ids_and_arguments(&turn),
        [
            ("call_a", r#"{"city":"Oslo"}"#),
            ("call_b", r#"{"city":"Rome"}"#)
        ]
    );
}

#[tokio::test]
async fn replays_tool_calls_and_results_as_responses_items() {
    let (server, config) = OPENAI.serve(vec![text_reply(&["It is sunny."])]).await;
    let _ = turn(&backend(&config), after_tool_call()).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["instructions"], "You are helpful.");
    assert_eq!(
        body["input"],
        json!([
            {"role": "user", "content": [{"type": "input_text", "text": "What is 2+2?"}]},
            {"role": "assistant", "content": "Let me check."},
            {"type": "function_call", "call_id": "call_1", "name": "get_weather",
             "arguments": "{\"city\":\"Paris\"}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "sunny, 21 C"}
        ])
    );
}

#[tokio::test]
async fn reports_cached_and_reasoning_tokens_normalised() {
    let events = Script::new()
        .reasoning("rs_4", &[&["Thinking."]])
        .message("msg_4", &["4"])
        .completed(usage(2006, 1920, 300, 256));
    let (_server, config) = OPENAI.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(
        usages(&events),
        [Usage {
            input_tokens: 2006,
            output_tokens: 300,
            reasoning_tokens: 256,
            cached_input_tokens: 1920,
            cache_creation_tokens: 0,
            estimated: false,
            web_searches: 0,
            x_searches: 0,
            code_runs: 0,
        }]
    );
    assert_eq!(assemble(&events).usage.uncached_input_tokens(), 86);
}

#[tokio::test]
async fn an_output_limit_ends_the_response_as_incomplete_with_length() {
    let mut script = Script::new();
    script.message("msg_5", &["The answer is"]);
    let mut response = response("incomplete", &script.output, usage(40, 0, 16, 0));
    response["incomplete_details"] = json!({"reason": "max_output_tokens"});
    let mut events = script.cut();
    events.push(typed(
        &json!({"type": "response.incomplete", "sequence_number": 99, "response": response}),
    ));
    let (_server, config) = OPENAI.serve(vec![Reply::sse(&events)]).await;
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(
        events[events.len() - 2..],
        [
            StreamEvent::Usage(Usage {
                input_tokens: 40,
                output_tokens: 16,
                ..Usage::default()
            }),
            StreamEvent::Finish(FinishReason::Length),
        ]
    );
}

#[tokio::test]
async fn passthrough_options_and_sampling_settings_reach_the_body() {
    let (server, mut config) = OPENAI.serve(vec![text_reply(&["hi"])]).await;
    config.temperature = Some(0.3);
    config.max_tokens = Some(256);
    // MassGen's default OpenAI agent settings.
    config.passthrough.insert(
        "reasoning".into(),
        json!({"effort": "low", "summary": "auto"}),
    );
    config
        .passthrough
        .insert("text".into(), json!({"verbosity": "low"}));
    config
        .passthrough
        .insert("model".into(), json!("must-not-override"));
    config.passthrough.insert("stream".into(), json!(false));
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["temperature"], 0.3);
    assert_eq!(body["max_output_tokens"], 256);
    assert!(body.get("max_tokens").is_none());
    assert_eq!(
        body["reasoning"],
        json!({"effort": "low", "summary": "auto"})
    );
    assert_eq!(body["text"], json!({"verbosity": "low"}));
    assert_eq!(body["model"], "gpt-5");
    assert_eq!(body["stream"], true);
}

#[tokio::test]
async fn a_server_that_ignores_stream_true_is_read_as_one_reply() {
    let body = json!({
        "id": RESPONSE_ID, "object": "response", "created_at": 1756315696, "status": "completed",
        "error": null, "incomplete_details": null, "model": "gpt-5-2025-08-07",
        "output": [
            {"id": "rs_9", "type": "reasoning", "summary": [
                {"type": "summary_text", "text": "**Weather**"},
                {"type": "summary_text", "text": "Look it up."}
            ]},
            {"id": "msg_9", "type": "message", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "annotations": [], "text": "Checking."}]},
            {"id": "fc_9", "type": "function_call", "status": "completed",
             "arguments": "{\"city\":\"Lima\"}", "call_id": "call_9", "name": "get_weather"}
        ],
        "usage": usage(7, 0, 3, 1)
    });
    let (_server, config) = OPENAI
        .serve(vec![Reply::status(200, &body.to_string())])
        .await;
    let (events, error) = collect(&backend(&config), with_tools()).await;
    assert_eq!(error, None);
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::ToolCalls))
    );
    let turn = assemble(&events);
    assert_eq!(turn.text, "Checking.");
    assert_eq!(turn.reasoning, "**Weather**\n\nLook it up.");
    assert_eq!(turn.tool_calls[0].id, "call_9");
    assert_eq!(turn.tool_calls[0].arguments, r#"{"city":"Lima"}"#);
    assert_eq!(turn.usage.total(), 10);
    assert_eq!(turn.usage.reasoning_tokens, 1);
}

#[tokio::test]
async fn a_local_server_without_a_key_gets_no_authorization_header() {
    let (server, mut config) = OPENAI.serve(vec![text_reply(&["hi"])]).await;
    config.api_key = None;
    let _ = turn(&keyless_backend(&config), question()).await;
    assert_eq!(server.requests()[0].path, "/v1/responses");
    assert_eq!(server.requests()[0].header("authorization"), None);
}
