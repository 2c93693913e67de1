//! OpenAI Responses API (`type: openai`): the event stream exactly as OpenAI documents it
//! (named events, `type` and `sequence_number` in every payload, the final response
//! repeating the output), the request body, tool round-trips, errors and retries.

use massgen::backend::{FinishReason, StreamEvent};
use massgen::config::BackendKind;
use massgen::protocol::Usage;
use serde_json::{Value, json};

use crate::faults;
use crate::harness::*;
use crate::mock_llm::{Reply, typed};

const RESPONSE_ID: &str = "resp_68af4030592c81938ec0a5fbab4a3e9f05438e46b5f69a3b";

/// A response object as the lifecycle events carry it.
fn response(status: &str, output: &[Value], usage: Value) -> Value {
    json!({
        "id": RESPONSE_ID, "object": "response", "created_at": 1756315696, "status": status,
        "background": false, "error": null, "incomplete_details": null,
        "instructions": "You are helpful.", "max_output_tokens": null, "max_tool_calls": null,
        "model": "gpt-5-2025-08-07", "output": output, "parallel_tool_calls": true,
        "previous_response_id": null, "prompt_cache_key": null,
        "reasoning": {"effort": "low", "summary": "auto"}, "safety_identifier": null,
        "service_tier": "auto", "store": true, "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "low"}, "tool_choice": "auto",
        "tools": [], "top_logprobs": 0, "top_p": 1.0, "truncation": "disabled",
        "usage": usage, "user": null, "metadata": {}
    })
}

fn usage(input: u64, cached: u64, output: u64, reasoning: u64) -> Value {
    json!({
        "input_tokens": input, "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": output, "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input + output
    })
}

/// Writes a Responses event stream the way OpenAI sends it: each event named on its
/// `event:` line and in its `type`, numbered by `sequence_number`, each output item
/// announced, streamed and repeated whole when done.
struct Script {
    events: Vec<String>,
    output: Vec<Value>,
    sequence: u64,
}

impl Script {
    fn new() -> Self {
        let mut script = Self {
            events: Vec::new(),
            output: Vec::new(),
            sequence: 0,
        };
        let start = response("in_progress", &[], Value::Null);
        script.event("response.created", json!({"response": start}));
        script.event("response.in_progress", json!({"response": start}));
        script
    }

    fn event(&mut self, kind: &str, mut data: Value) -> &mut Self {
        data["type"] = json!(kind);
        data["sequence_number"] = json!(self.sequence);
        self.sequence += 1;
        self.events.push(typed(&data));
        self
    }

    fn message(&mut self, id: &str, deltas: &[&str]) -> &mut Self {
        let index = self.output.len();
        let text = deltas.concat();
        let part = json!({"type": "output_text", "annotations": [], "logprobs": [], "text": text});
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {
                "id": id, "type": "message", "status": "in_progress", "content": [], "role": "assistant"
            }}),
        );
        self.event(
            "response.content_part.added",
            json!({"item_id": id, "output_index": index, "content_index": 0,
                   "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}}),
        );
        for delta in deltas {
            self.event(
                "response.output_text.delta",
                json!({"item_id": id, "output_index": index, "content_index": 0, "delta": delta,
                       "logprobs": [], "obfuscation": "Ue4kz"}),
            );
        }
        self.event(
            "response.output_text.done",
            json!({"item_id": id, "output_index": index, "content_index": 0, "text": text, "logprobs": []}),
        );
        self.event(
            "response.content_part.done",
            json!({"item_id": id, "output_index": index, "content_index": 0, "part": part}),
        );
        let item = json!({"id": id, "type": "message", "status": "completed", "content": [part], "role": "assistant"});
        self.done(index, item)
    }

    fn reasoning(&mut self, id: &str, parts: &[&[&str]]) -> &mut Self {
        let index = self.output.len();
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {"id": id, "type": "reasoning", "summary": []}}),
        );
        let mut summary = Vec::new();
        for (summary_index, deltas) in parts.iter().enumerate() {
            let text = deltas.concat();
            self.event(
                "response.reasoning_summary_part.added",
                json!({"item_id": id, "output_index": index, "summary_index": summary_index,
                       "part": {"type": "summary_text", "text": ""}}),
            );
            for delta in *deltas {
                self.event(
                    "response.reasoning_summary_text.delta",
                    json!({"item_id": id, "output_index": index, "summary_index": summary_index,
                           "delta": delta, "obfuscation": "k3Rq"}),
                );
            }
            self.event(
                "response.reasoning_summary_text.done",
                json!({"item_id": id, "output_index": index, "summary_index": summary_index, "text": text}),
            );
            let part = json!({"type": "summary_text", "text": text});
            self.event(
                "response.reasoning_summary_part.done",
                json!({"item_id": id, "output_index": index, "summary_index": summary_index, "part": part}),
            );
            summary.push(part);
        }
        self.done(
            index,
            json!({"id": id, "type": "reasoning", "summary": summary}),
        )
    }

    fn function_call(
        &mut self,
        id: &str,
        call_id: &str,
        name: &str,
        fragments: &[&str],
    ) -> &mut Self {
        let index = self.output.len();
        let arguments = fragments.concat();
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {
                "id": id, "type": "function_call", "status": "in_progress", "arguments": "",
                "call_id": call_id, "name": name
            }}),
        );
        for fragment in fragments {
            self.event(
                "response.function_call_arguments.delta",
                json!({"item_id": id, "output_index": index, "delta": fragment, "obfuscation": "7n"}),
            );
        }
        self.event(
            "response.function_call_arguments.done",
            json!({"item_id": id, "output_index": index, "arguments": arguments}),
        );
        self.done(
            index,
            json!({"id": id, "type": "function_call", "status": "completed",
                   "arguments": arguments, "call_id": call_id, "name": name}),
        )
    }

    fn done(&mut self, index: usize, item: Value) -> &mut Self {
        self.event(
            "response.output_item.done",
            json!({"output_index": index, "item": item}),
        );
        self.output.push(item);
        self
    }

    /// The events so far, without an ending.
    fn cut(&self) -> Vec<String> {
        self.events.clone()
    }

    fn completed(&mut self, usage: Value) -> Vec<String> {
        let response = response("completed", &self.output, usage);
        self.event("response.completed", json!({"response": response}));
        self.events.clone()
    }
}

fn text_reply(deltas: &[&str]) -> Reply {
    Reply::sse(
        &Script::new()
            .message(
                "msg_68af403c3b3c8193a6f32bb4d2d0b0a305438e46b5f69a3b",
                deltas,
            )
            .completed(usage(37, 0, 11, 0)),
    )
}

const OPENAI: Protocol = Protocol {
    kind: BackendKind::Openai,
    model: "gpt-5",
    path: "/v1",
    text_reply,
};

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
            "stream": true
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
async fn an_error_event_inside_the_stream_ends_the_call_with_its_message() {
    let mut script = Script::new();
    script.event(
        "response.output_item.added",
        json!({"output_index": 0, "item": {"id": "msg_6", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}}),
    );
    script.event(
        "response.output_text.delta",
        json!({"item_id": "msg_6", "output_index": 0, "content_index": 0, "delta": "Hal", "logprobs": []}),
    );
    script.event(
        "error",
        json!({"code": "invalid_prompt", "message": "Invalid prompt: your prompt was flagged as potentially violating our usage policy.", "param": null}),
    );
    let (_server, config) = OPENAI.serve(vec![Reply::sse(&script.cut())]).await;
    let (events, error) = collect(&backend(&retrying(config, 2)), question()).await;
    assert_eq!(texts(&events), ["Hal"]);
    assert_eq!(
        error.unwrap().to_string(),
        "OpenAI refused the request (HTTP 400): invalid_prompt: Invalid prompt: your prompt was \
         flagged as potentially violating our usage policy."
    );
}

#[tokio::test]
async fn a_failed_response_with_a_server_error_is_retried() {
    let mut script = Script::new();
    let mut failed = response("failed", &[], Value::Null);
    failed["error"] = json!({"code": "server_error", "message": "The server had an error while processing your request. Sorry about that!"});
    script.event("response.failed", json!({"response": failed}));
    let (server, config) = OPENAI
        .serve(vec![Reply::sse(&script.cut()), text_reply(&["4"])])
        .await;
    let (events, error) = collect(&backend(&retrying(config, 1)), question()).await;
    assert_eq!(error, None);
    let retries = retries(&events);
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0].2, "server error 500");
    assert_eq!(texts(&events), ["4"]);
    assert_eq!(server.requests().len(), 2);

    // Without a retry left, the provider's words reach the user.
    let (_server, config) = OPENAI.serve(vec![Reply::sse(&script.cut())]).await;
    let (_, error) = collect(&backend(&config), question()).await;
    assert_eq!(
        error.unwrap().to_string(),
        "OpenAI server error 500 (server_error: The server had an error while processing your \
         request. Sorry about that!)"
    );
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says_then_succeeds() {
    faults::retry_after_is_honoured(
        &OPENAI,
        Reply::status(
            429,
            r#"{"error":{"message":"Rate limit reached for gpt-5 in organization org-abc on tokens per min (TPM): Limit 30000, Used 29500, Requested 900.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#,
        )
        .with_header("retry-after", "1"),
    )
    .await;
}

#[tokio::test]
async fn a_500_is_retried_with_backoff_then_succeeds() {
    let failure = Reply::status(
        500,
        r#"{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}"#,
    );
    let events = faults::server_error_is_retried_with_backoff(&OPENAI, failure).await;
    assert_eq!(texts(&events), ["4"]);
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_is_truncated_not_complete() {
    let cut = Script::new().message("msg_7", &["The answer", " is"]).cut();
    faults::cut_stream_is_truncated(&OPENAI, cut).await;
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    faults::silence_times_out(&OPENAI).await;
    let mut script = Script::new();
    script.event(
        "response.output_text.delta",
        json!({"item_id": "msg_8", "output_index": 0, "content_index": 0, "delta": "Hal", "logprobs": []}),
    );
    faults::a_stall_times_out(&OPENAI, script.cut(), "OpenAI").await;
}

#[tokio::test]
async fn a_rejected_key_names_the_variable_and_is_not_retried() {
    let rejection = Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-test-***-123. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#,
    );
    let message = faults::rejected_key_message(&OPENAI, rejection).await;
    assert!(
        message.starts_with("invalid key for OpenAI: set OPENAI_API_KEY"),
        "{message}"
    );
    assert!(!message.contains(KEY), "{message}");
}

#[tokio::test]
async fn an_unknown_model_is_named() {
    let not_found = Reply::status(
        404,
        r#"{"error":{"message":"The model `gpt-5` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#,
    );
    faults::unknown_model_is_named(&OPENAI, not_found, "gpt-5").await;
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
