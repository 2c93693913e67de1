//! The `GenerateContentRequest` body: `contents` with `user`/`model` roles, the system
//! instruction, function declarations, generation settings, replayed function calls and
//! results; the config's options are routed in `options`, `extra_body` merged last. A call
//! whose only functions are workflow tools and that enables a built-in tool sends the
//! workflow as JSON text instead (`text_workflow`).

use serde_json::{Map, Value, json};

use super::{options, text_reply, text_workflow};
use crate::backend::wire::{WireOptions, strip_schema_keys};
use crate::backend::{ChatRequest, Message, ToolCall, ToolSpec};
use crate::protocol::{Attachment, AttachmentContent, sendable};

/// JSON-schema keys that Gemini's function declarations reject.
const REJECTED_SCHEMA_KEYS: [&str; 2] = ["$schema", "additionalProperties"];

pub fn body(options: &WireOptions, request: &ChatRequest) -> Value {
    let mut body = Map::new();
    let as_text = text_workflow::offered(request, options.server_tools).is_some();
    let (mut system, contents) = contents(&request.messages, as_text);
    body.insert("contents".into(), Value::Array(contents));
    if as_text {
        system.push(json!({ "text": text_workflow::instructions(&request.tools) }));
    }
    if !system.is_empty() {
        body.insert("systemInstruction".into(), json!({ "parts": system }));
    }
    let mut tools = Vec::new();
    if !request.tools.is_empty() && !as_text {
        let declarations: Vec<Value> = request.tools.iter().map(declaration).collect();
        tools.push(json!({ "functionDeclarations": declarations }));
    }
    super::builtin_tools::add(&mut tools, options.server_tools);
    let mut generation = Map::new();
    if let Some(temperature) = options.temperature {
        generation.insert("temperature".into(), json!(temperature));
    }
    if let Some(max_tokens) = options.max_tokens {
        generation.insert("maxOutputTokens".into(), json!(max_tokens));
    }
    let routed = options::route(options);
    tools.extend(routed.tools);
    for (key, value) in routed.top {
        body.entry(key).or_insert(value);
    }
    if as_text {
        text_workflow::drop_function_calling(&mut body);
    }
    for (key, value) in routed.generation {
        generation.entry(key).or_insert(value);
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    if !generation.is_empty() {
        body.insert("generationConfig".into(), Value::Object(generation));
    }
    options.merge_extra_body(&mut body);
    Value::Object(body)
}

/// One function declaration. A schema without properties is left out: Gemini refuses an
/// `OBJECT` with none.
fn declaration(tool: &ToolSpec) -> Value {
    let mut declaration = json!({"name": tool.name, "description": tool.description});
    let has_properties = tool
        .parameters
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty());
    if has_properties {
        declaration["parameters"] = strip_schema_keys(&tool.parameters, &REJECTED_SCHEMA_KEYS);
    }
    declaration
}

/// One attachment as `inline_data`, or `file_data` for a URL.
fn attachment_part(attachment: &Attachment) -> Value {
    match attachment.content() {
        Some(AttachmentContent::Url(url)) => json!({"file_data": {
            "mime_type": attachment.media_type,
            "file_uri": url,
        }}),
        _ => json!({"inline_data": {
            "mime_type": attachment.media_type,
            "data": attachment.base64().unwrap_or_default(),
        }}),
    }
}

/// The system instruction's parts and the conversation's contents. Consecutive tool
/// results become one `user` content, as Gemini expects the answers to one turn's calls.
/// `as_text`: calls and results are text parts, as no function is declared.
fn contents(messages: &[Message], as_text: bool) -> (Vec<Value>, Vec<Value>) {
    let mut system = Vec::new();
    let mut contents: Vec<Value> = Vec::new();
    let mut after_result = false;
    for message in messages {
        let is_result = matches!(message, Message::Tool { .. });
        match message {
            Message::System { content } => system.push(json!({ "text": content })),
            Message::User {
                content,
                attachments,
            } => {
                let parts: Vec<Value> = std::iter::once(json!({ "text": content }))
                    .chain(sendable(attachments).map(attachment_part))
                    .collect();
                contents.push(json!({"role": "user", "parts": parts}));
            }
            Message::Assistant {
                content,
                tool_calls,
                ..
            } => {
                let mut parts = Vec::new();
                if !content.is_empty() {
                    parts.push(json!({ "text": content }));
                }
                for call in tool_calls {
                    if !as_text {
                        parts.push(function_call(call));
                    } else if text_reply::parse(content, |tool| tool == call.name).is_none() {
                        // A reply decoded from text already holds its JSON.
                        parts.push(json!({ "text": text_workflow::call_text(call) }));
                    }
                }
                if !parts.is_empty() {
                    contents.push(json!({"role": "model", "parts": parts}));
                }
            }
            Message::Tool {
                name,
                content,
                is_error,
                ..
            } => {
                let part = if as_text {
                    json!({ "text": text_workflow::result_text(name, content, *is_error) })
                } else {
                    let response = if *is_error {
                        json!({ "error": content })
                    } else {
                        json!({ "result": content })
                    };
                    json!({"functionResponse": {"name": name, "response": response}})
                };
                match contents.last_mut().and_then(|last| last.get_mut("parts")) {
                    Some(Value::Array(parts)) if after_result => parts.push(part),
                    Some(_) | None => {
                        contents.push(json!({"role": "user", "parts": [part]}));
                    }
                }
            }
        }
        after_result = is_result;
    }
    (system, contents)
}

/// A replayed function call, with its thought signature.
fn function_call(call: &ToolCall) -> Value {
    let mut part = json!({"functionCall": {
        "name": call.name,
        "args": arguments(&call.arguments),
    }});
    if let Some(signature) = &call.signature {
        part["thoughtSignature"] = json!(signature);
    }
    part
}

/// A call's arguments as the JSON object Gemini wants; anything else becomes `{}`.
fn arguments(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Value::Object(map),
        Ok(_) | Err(_) => Value::Object(Map::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> WireOptions {
        WireOptions::new("gemini-2.5-flash")
    }

    #[test]
    fn consecutive_results_share_one_content_and_errors_are_marked() {
        let call = |id: &str, city: &str| ToolCall {
            id: id.into(),
            name: "get_weather".into(),
            arguments: format!("{{\"city\":\"{city}\"}}"),
            signature: None,
        };
        let result = |id: &str, content: &str, is_error| Message::Tool {
            call_id: id.into(),
            name: "get_weather".into(),
            content: content.into(),
            is_error,
        };
        let request = ChatRequest {
            messages: vec![
                Message::user("Weather?"),
                Message::Assistant {
                    content: String::new(),
                    tool_calls: vec![call("a", "Oslo"), call("b", "Rome")],
                    reasoning: Vec::new(),
                },
                result("a", "rain", false),
                result("b", "city unknown", true),
                Message::user("Thanks"),
            ]
            .into(),
            tools: Vec::new(),
        };
        let body = body(&options(), &request);
        assert_eq!(
            body["contents"],
            json!([
                {"role": "user", "parts": [{"text": "Weather?"}]},
                {"role": "model", "parts": [
                    {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}},
                    {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}}
                ]},
                {"role": "user", "parts": [
                    {"functionResponse": {"name": "get_weather", "response": {"result": "rain"}}},
                    {"functionResponse": {"name": "get_weather", "response": {"error": "city unknown"}}}
                ]},
                {"role": "user", "parts": [{"text": "Thanks"}]}
            ])
        );
        assert_eq!(
            body["generationConfig"],
            json!({"thinkingConfig": {"includeThoughts": true}})
        );
        assert!(body.get("systemInstruction").is_none());
    }

    fn workflow_history(content: &str) -> ChatRequest {
        let vote = ToolSpec {
            name: "vote".into(),
            description: "Vote".into(),
            parameters: json!({"type": "object", "properties": {"agent_id": {"type": "string"}}}),
        };
        ChatRequest {
            messages: vec![
                Message::system("Coordinate."),
                Message::user("Task"),
                Message::Assistant {
                    content: content.into(),
                    tool_calls: vec![ToolCall {
                        id: String::new(),
                        name: "vote".into(),
                        arguments: r#"{"agent_id":"agent1"}"#.into(),
                        signature: None,
                    }],
                    reasoning: Vec::new(),
                },
                Message::Tool {
                    call_id: String::new(),
                    name: "vote".into(),
                    content: "Vote recorded".into(),
                    is_error: false,
                },
            ]
            .into(),
            tools: vec![vote],
        }
    }

    fn searching() -> WireOptions {
        let mut options = options();
        options.server_tools.web_search = true;
        options
            .passthrough
            .insert("function_calling_mode".into(), json!("any"));
        options
    }

    #[test]
    fn with_search_on_workflow_history_is_text_and_no_function_is_configured() {
        let sent = body(&searching(), &workflow_history(""));
        assert_eq!(
            sent["contents"][1],
            json!({"role": "model", "parts": [
                {"text": "```json\n{\"action_type\":\"vote\",\"vote_data\":{\"agent_id\":\"agent1\"}}\n```"}
            ]})
        );
        assert_eq!(
            sent["contents"][2],
            json!({"role": "user", "parts": [{"text": "Result of `vote`: Vote recorded"}]})
        );
        assert_eq!(sent["tools"], json!([{"google_search": {}}]));
        assert!(sent.get("toolConfig").is_none(), "{sent}");
        let parts = sent["systemInstruction"]["parts"].as_array().unwrap();
        assert_eq!(parts[0], json!({"text": "Coordinate."}));
        assert!(parts[1]["text"].as_str().unwrap().contains("\"vote_data\""));
        // Without search, the same history is function calls, with the configured mode.
        let mut functions = searching();
        functions.server_tools.web_search = false;
        let plain = body(&functions, &workflow_history(""));
        assert!(plain["toolConfig"].get("functionCallingConfig").is_some());
        assert!(
            plain["contents"][1]["parts"][0]
                .get("functionCall")
                .is_some()
        );
        assert!(
            plain["contents"][2]["parts"][0]
                .get("functionResponse")
                .is_some()
        );
    }

    #[test]
    fn a_reply_that_already_holds_its_json_is_not_repeated() {
        let said = "Agent 1 is right.\n{\"action_type\": \"vote\", \"vote_data\": {\"agent_id\": \"agent1\"}}";
        let body = body(&searching(), &workflow_history(said));
        assert_eq!(
            body["contents"][1],
            json!({"role": "model", "parts": [{"text": said}]})
        );
    }

    #[test]
    fn unreadable_arguments_are_sent_as_an_empty_object() {
        assert_eq!(arguments(""), json!({}));
        assert_eq!(arguments("[1]"), json!({}));
        assert_eq!(arguments(r#"{"a":1}"#), json!({"a": 1}));
    }

    #[test]
    fn a_tool_without_parameters_is_declared_without_a_schema() {
        let tool = ToolSpec {
            name: "stop".into(),
            description: "Stop now".into(),
            parameters: json!({"type": "object", "properties": {}, "additionalProperties": false}),
        };
        assert_eq!(
            declaration(&tool),
            json!({"name": "stop", "description": "Stop now"})
        );
    }
}
