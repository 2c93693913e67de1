//! The Responses API request body: `instructions` from the leading system messages, `input`
//! items for the conversation (user and assistant messages, `function_call` and
//! `function_call_output` items for earlier tool round-trips), function tools, options.

use serde_json::{Map, Value, json};

use crate::backend::wire::WireOptions;
use crate::backend::{ChatRequest, Message, ToolCall, ToolSpec};
use crate::protocol::{Attachment, AttachmentContent, MediaKind, sendable};

/// The JSON body for one streamed call.
///
/// The system messages that open the conversation go into `instructions`, the field the API
/// documents for them: it is not part of the conversation items, so it never has to be
/// repeated or reordered, and OpenAI-compatible servers all read it. A system message later
/// in the conversation stays where it is, as a `developer` message (the Responses name for
/// that role), so that the order the orchestrator chose is kept.
pub fn body(options: &WireOptions, request: &ChatRequest) -> Value {
    let messages = &request.messages;
    let leading = messages
        .iter()
        .take_while(|message| matches!(message, Message::System { .. }))
        .count();
    let mut body = Map::new();
    body.insert("model".into(), json!(options.model));
    if leading > 0 {
        let instructions: Vec<&str> = messages[..leading].iter().map(Message::content).collect();
        body.insert("instructions".into(), json!(instructions.join("\n\n")));
    }
    body.insert("input".into(), input(&messages[leading..]));
    body.insert("stream".into(), json!(true));
    if !request.tools.is_empty() {
        body.insert(
            "tools".into(),
            request.tools.iter().map(tool).collect::<Vec<_>>().into(),
        );
    }
    if let Some(temperature) = options.temperature {
        body.insert("temperature".into(), json!(temperature));
    }
    if let Some(max_tokens) = options.max_tokens {
        body.insert("max_output_tokens".into(), json!(max_tokens));
    }
    if let Some(reasoning) = reasoning_defaults(options) {
        body.insert("reasoning".into(), reasoning);
    }
    super::server_tools::add(&mut body, options);
    options.merge_passthrough(&mut body);
    options.merge_extra_body(&mut body);
    Value::Object(body)
}

/// MassGen's `reasoning` for OpenAI's reasoning models (`gpt-5*`, `o3*`, `o4*`): the
/// config's, with summaries on (`summary: auto`) and, for `gpt-5.x`, `effort: medium`
/// where it says nothing. `None` for other models, whose `reasoning` goes as written.
fn reasoning_defaults(options: &WireOptions) -> Option<Value> {
    let model = options.model.to_ascii_lowercase();
    if !["gpt-5", "o3", "o4"]
        .iter()
        .any(|family| model.starts_with(family))
    {
        return None;
    }
    let mut reasoning = match options.passthrough.get("reasoning") {
        Some(Value::Object(settings)) => settings.clone(),
        Some(_) | None => Map::new(),
    };
    if model.starts_with("gpt-5.") {
        reasoning.entry("effort").or_insert_with(|| json!("medium"));
    }
    reasoning.entry("summary").or_insert_with(|| json!("auto"));
    Some(Value::Object(reasoning))
}

/// A function tool in the Responses format: flat, not nested under `function`. `strict`
/// stays off because strict mode demands schemas (every property required, no open
/// objects) that MCP tools do not promise.
fn tool(tool: &ToolSpec) -> Value {
    json!({
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
        "strict": false,
    })
}

/// One attachment as an input part: `input_image`, or `input_file` (inline or by URL).
fn attachment_part(attachment: &Attachment) -> Value {
    match (attachment.kind, attachment.content()) {
        (MediaKind::Image, _) => json!({
            "type": "input_image",
            "image_url": attachment.data_url_or_url(),
        }),
        (_, Some(AttachmentContent::Url(url))) => json!({"type": "input_file", "file_url": url}),
        (_, _) => json!({
            "type": "input_file",
            "filename": attachment.name,
            "file_data": attachment.data_url_or_url(),
        }),
    }
}

/// The conversation as input items.
fn input(messages: &[Message]) -> Value {
    let mut items = Vec::with_capacity(messages.len());
    for message in messages {
        match message {
            Message::System { content } => {
                items.push(json!({"role": "developer", "content": content}));
            }
            Message::User {
                content,
                attachments,
            } => items.push(json!({
                "role": "user",
                "content": std::iter::once(json!({"type": "input_text", "text": content}))
                    .chain(sendable(attachments).map(attachment_part))
                    .collect::<Vec<_>>(),
            })),
            Message::Assistant {
                content,
                tool_calls,
                ..
            } => {
                // The plain-string form: every Responses server accepts it for assistant
                // turns, while `output_text` parts are read by some only with an item `id`.
                if !content.is_empty() {
                    items.push(json!({"role": "assistant", "content": content}));
                }
                items.extend(tool_calls.iter().map(function_call));
            }
            Message::Tool {
                call_id, content, ..
            } => items.push(json!({
                "type": "function_call_output",
                "call_id": call_id,
                "output": content,
            })),
        }
    }
    Value::Array(items)
}

/// An earlier tool call, without the `fc_…` item `id`: with one, the API insists on the
/// reasoning item that came before it, which is not kept between calls.
fn function_call(call: &ToolCall) -> Value {
    let arguments = if call.arguments.trim().is_empty() {
        "{}"
    } else {
        call.arguments.as_str()
    };
    json!({
        "type": "function_call",
        "call_id": call.id,
        "name": call.name,
        "arguments": arguments,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> WireOptions {
        WireOptions::new("gpt-5")
    }

    fn call(id: &str, arguments: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "vote".into(),
            arguments: arguments.into(),
            signature: None,
        }
    }

    #[test]
    fn leading_system_messages_become_instructions_and_later_ones_stay_in_place() {
        let request = ChatRequest {
            messages: vec![
                Message::system("Be brief."),
                Message::system("Use tools."),
                Message::user("Hi"),
                Message::system("Now vote."),
            ]
            .into(),
            tools: Vec::new(),
        };
        let body = body(&options(), &request);
        assert_eq!(body["instructions"], "Be brief.\n\nUse tools.");
        assert_eq!(
            body["input"],
            json!([
                {"role": "user", "content": [{"type": "input_text", "text": "Hi"}]},
                {"role": "developer", "content": "Now vote."}
            ])
        );
        assert!(body.get("tools").is_none());
    }

    #[test]
    fn no_system_message_means_no_instructions() {
        let request = ChatRequest {
            messages: vec![Message::user("Hi")].into(),
            tools: Vec::new(),
        };
        assert!(body(&options(), &request).get("instructions").is_none());
    }

    #[test]
    fn tool_calls_without_text_are_only_function_call_items_without_ids() {
        let request = ChatRequest {
            messages: vec![
                Message::user("Vote"),
                Message::assistant(
                    "",
                    vec![
                        call("call_a", r#"{"agent_id":"agent1"}"#),
                        call("call_b", ""),
                    ],
                ),
            ]
            .into(),
            tools: Vec::new(),
        };
        let input = &body(&options(), &request)["input"];
        assert_eq!(
            input[1],
            json!({"type": "function_call", "call_id": "call_a", "name": "vote",
                   "arguments": "{\"agent_id\":\"agent1\"}"})
        );
        assert_eq!(input[2]["arguments"], "{}");
        assert_eq!(input.as_array().map(Vec::len), Some(3));
    }

    #[test]
    fn an_empty_assistant_turn_is_left_out() {
        let request = ChatRequest {
            messages: vec![
                Message::user("Hi"),
                Message::assistant("", Vec::new()),
                Message::user("Again"),
            ]
            .into(),
            tools: Vec::new(),
        };
        assert_eq!(
            body(&options(), &request)["input"].as_array().map(Vec::len),
            Some(2)
        );
    }

    #[test]
    fn reasoning_models_get_massgen_reasoning_defaults_under_the_config() {
        let request = ChatRequest {
            messages: vec![Message::user("Hi")].into(),
            tools: Vec::new(),
        };
        let reasoning = |model: &str, config: Option<Value>| {
            let mut options = WireOptions::new(model);
            if let Some(config) = config {
                options.passthrough.insert("reasoning".into(), config);
            }
            body(&options, &request).get("reasoning").cloned()
        };
        assert_eq!(reasoning("gpt-5", None), Some(json!({"summary": "auto"})));
        assert_eq!(
            reasoning("gpt-5.1", None),
            Some(json!({"effort": "medium", "summary": "auto"}))
        );
        assert_eq!(
            reasoning(
                "o4-mini",
                Some(json!({"effort": "high", "summary": "detailed"}))
            ),
            Some(json!({"effort": "high", "summary": "detailed"}))
        );
        assert_eq!(reasoning("gpt-4o", None), None);
        assert_eq!(
            reasoning("gpt-4.1", Some(json!({"effort": "low"}))),
            Some(json!({"effort": "low"}))
        );
    }

    #[test]
    fn passthrough_never_overrides_what_the_protocol_sets() {
        let mut options = options();
        options.max_tokens = Some(100);
        options.passthrough.insert("stream".into(), json!(false));
        options
            .passthrough
            .insert("max_output_tokens".into(), json!(5));
        options.passthrough.insert("store".into(), json!(false));
        let body = body(
            &options,
            &ChatRequest {
                messages: vec![Message::user("Hi")].into(),
                tools: Vec::new(),
            },
        );
        assert_eq!(body["stream"], true);
        assert_eq!(body["max_output_tokens"], 100);
        assert_eq!(body["store"], false);
    }
}
