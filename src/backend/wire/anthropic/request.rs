//! The Messages API request body: top-level `system`, content-block messages with
//! `tool_use` / `tool_result` blocks, tools as `input_schema`, and a `max_tokens` that the
//! API requires and that must exceed any extended-thinking budget.

use serde_json::{Map, Value, json};

use crate::backend::wire::WireOptions;
use crate::backend::{ChatRequest, Message, ReasoningBlock, ToolCall};
use crate::protocol::{Attachment, AttachmentContent, MediaKind, sendable};

/// `max_tokens` when the config sets none (the API has no default).
pub const DEFAULT_MAX_TOKENS: u64 = 8192;

pub fn body(options: &WireOptions, request: &ChatRequest) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(options.model));
    body.insert("max_tokens".into(), json!(max_tokens(options)));
    if let Some(system) = system(&request.messages) {
        body.insert("system".into(), Value::String(system));
    }
    body.insert("messages".into(), Value::Array(messages(&request.messages)));
    body.insert("stream".into(), json!(true));
    if !request.tools.is_empty() {
        let mut tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                let schema = if tool.parameters.is_object() {
                    tool.parameters.clone()
                } else {
                    json!({"type": "object", "properties": {}})
                };
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": schema,
                })
            })
            .collect();
        super::strict::apply(options, &mut tools);
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(temperature) = options.temperature {
        body.insert("temperature".into(), json!(temperature));
    }
    super::server_tools::add(&mut body, options.server_tools);
    options.merge_passthrough(&mut body);
    if thinking_on(options) {
        drop_refused_with_thinking(&mut body);
    }
    options.merge_extra_body(&mut body);
    Value::Object(body)
}

/// The configured limit, or the default; with `thinking.budget_tokens` at or above it, the
/// budget plus that limit, since the API requires `max_tokens` > `budget_tokens`.
fn max_tokens(options: &WireOptions) -> u64 {
    let wanted = options.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
    let budget = options
        .passthrough
        .get("thinking")
        .and_then(|thinking| thinking.get("budget_tokens"))
        .and_then(Value::as_u64);
    match budget {
        Some(budget) if wanted <= budget => budget.saturating_add(wanted),
        Some(_) | None => wanted,
    }
}

/// Whether `thinking` asks for extended thinking (`enabled`, or `adaptive` on newer models).
fn thinking_on(options: &WireOptions) -> bool {
    options
        .passthrough
        .get("thinking")
        .and_then(|thinking| thinking.get("type"))
        .and_then(Value::as_str)
        .is_some_and(|kind| kind != "disabled")
}

/// With thinking on, the API refuses a `temperature` other than 1 and any `top_k`; the
/// config load warned about both.
fn drop_refused_with_thinking(body: &mut Map<String, Value>) {
    if body
        .get("temperature")
        .and_then(Value::as_f64)
        .is_some_and(|temperature| temperature != 1.0)
    {
        body.remove("temperature");
    }
    body.remove("top_k");
}

/// Every system message's text, joined; `None` when there is none.
fn system(messages: &[Message]) -> Option<String> {
    let parts: Vec<&str> = messages
        .iter()
        .filter_map(|message| match message {
            Message::System { content } if !content.is_empty() => Some(content.as_str()),
            Message::System { .. }
            | Message::User { .. }
            | Message::Assistant { .. }
            | Message::Tool { .. } => None,
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

fn thinking_block(block: &ReasoningBlock) -> Value {
    match block {
        ReasoningBlock::Signed { text, signature } => {
            json!({"type": "thinking", "thinking": text, "signature": signature})
        }
        ReasoningBlock::Redacted { data } => json!({"type": "redacted_thinking", "data": data}),
        ReasoningBlock::ProviderTool { wire, item } => super::server_tools::echo(*wire, item),
    }
}

/// One attachment as an `image` or `document` block, its source base64 or a URL.
fn attachment_block(attachment: &Attachment) -> Value {
    let source = match attachment.content() {
        Some(AttachmentContent::Url(url)) => json!({"type": "url", "url": url}),
        _ => json!({
            "type": "base64",
            "media_type": attachment.media_type,
            "data": attachment.base64().unwrap_or_default(),
        }),
    };
    let kind = if attachment.kind == MediaKind::Image {
        "image"
    } else {
        "document"
    };
    json!({"type": kind, "source": source})
}

/// The conversation as alternating `user` / `assistant` messages of content blocks.
/// Consecutive tool results, and a user text after them, share one `user` message.
fn messages(messages: &[Message]) -> Vec<Value> {
    let mut out: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for message in messages {
        let (role, blocks) = match message {
            Message::System { .. } => continue,
            Message::User {
                content,
                attachments,
            } => (
                "user",
                sendable(attachments)
                    .map(attachment_block)
                    .chain(text_block(content))
                    .collect(),
            ),
            Message::Assistant {
                content,
                tool_calls,
                reasoning,
            } => (
                "assistant",
                // Signed thinking goes back first and unchanged, or the API refuses
                // the tool calls that follow it.
                reasoning
                    .iter()
                    .map(thinking_block)
                    .chain(text_block(content))
                    .chain(tool_calls.iter().map(tool_use))
                    .collect(),
            ),
            Message::Tool {
                call_id,
                content,
                is_error,
                ..
            } => (
                "user",
                vec![json!({
                    "type": "tool_result",
                    "tool_use_id": call_id,
                    "content": content,
                    "is_error": is_error,
                })],
            ),
        };
        if blocks.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some((last_role, last_blocks)) if *last_role == role => last_blocks.extend(blocks),
            Some(_) | None => out.push((role, blocks)),
        }
    }
    out.into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect()
}

/// A text block; the API rejects empty ones.
fn text_block(text: &str) -> Option<Value> {
    (!text.is_empty()).then(|| json!({"type": "text", "text": text}))
}

/// An earlier call, with its arguments as the JSON object the API expects.
fn tool_use(call: &ToolCall) -> Value {
    let input = match serde_json::from_str::<Value>(&call.arguments) {
        Ok(Value::Object(map)) => Value::Object(map),
        Ok(_) | Err(_) => json!({}),
    };
    json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::ToolSpec;

    fn options() -> WireOptions {
        WireOptions::new("claude-sonnet-4-5")
    }

    fn call(id: &str, arguments: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "get_weather".into(),
            arguments: arguments.into(),
            signature: None,
        }
    }

    fn tool_result(id: &str, content: &str, is_error: bool) -> Message {
        Message::Tool {
            call_id: id.into(),
            name: "get_weather".into(),
            content: content.into(),
            is_error,
        }
    }

    #[test]
    fn max_tokens_defaults_and_stays_above_the_thinking_budget() {
        let mut options = options();
        assert_eq!(max_tokens(&options), DEFAULT_MAX_TOKENS);
        options.max_tokens = Some(2000);
        assert_eq!(max_tokens(&options), 2000);
        options.passthrough.insert(
            "thinking".into(),
            json!({"type": "enabled", "budget_tokens": 1024}),
        );
        assert_eq!(max_tokens(&options), 2000);
        options.passthrough.insert(
            "thinking".into(),
            json!({"type": "enabled", "budget_tokens": 10000}),
        );
        assert_eq!(max_tokens(&options), 12000);
        options.max_tokens = None;
        assert_eq!(max_tokens(&options), 10000 + DEFAULT_MAX_TOKENS);
    }

    #[test]
    fn thinking_leaves_out_temperature_and_top_k_unless_extra_body_insists() {
        let mut options = options();
        options.temperature = Some(0.7);
        options.passthrough.insert("top_k".into(), json!(40));
        options.passthrough.insert("top_p".into(), json!(0.95));
        let request = ChatRequest {
            messages: vec![Message::user("Hi")].into(),
            tools: Vec::new(),
        };
        let plain = body(&options, &request);
        assert_eq!(plain["temperature"], 0.7);
        assert_eq!(plain["top_k"], 40);
        options.passthrough.insert(
            "thinking".into(),
            json!({"type": "enabled", "budget_tokens": 2048}),
        );
        let thinking = body(&options, &request);
        assert!(thinking.get("temperature").is_none(), "{thinking}");
        assert!(thinking.get("top_k").is_none(), "{thinking}");
        assert_eq!(thinking["top_p"], 0.95);
        assert_eq!(thinking["thinking"]["budget_tokens"], 2048);
        options.temperature = Some(1.0);
        options.extra_body.insert("top_k".into(), json!(5));
        let forced = body(&options, &request);
        assert_eq!(forced["temperature"], 1.0);
        assert_eq!(forced["top_k"], 5);
    }

    #[test]
    fn parallel_results_and_the_next_user_text_share_one_user_message() {
        let request = ChatRequest {
            messages: vec![
                Message::system("Be brief."),
                Message::user("Weather in Oslo and Rome?"),
                Message::Assistant {
                    content: String::new(),
                    tool_calls: vec![call("toolu_a", r#"{"city":"Oslo"}"#), call("toolu_b", "")],
                    reasoning: Vec::new(),
                },
                tool_result("toolu_a", "cold", false),
                tool_result("toolu_b", "no such city", true),
                Message::user("And tomorrow?"),
                Message::system("Answer in French."),
            ]
            .into(),
            tools: Vec::new(),
        };
        let body = body(&options(), &request);
        assert_eq!(body["system"], "Be brief.\n\nAnswer in French.");
        assert_eq!(
            body["messages"],
            json!([
                {"role": "user", "content": [{"type": "text", "text": "Weather in Oslo and Rome?"}]},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Oslo"}},
                    {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {}}
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_a", "content": "cold", "is_error": false},
                    {"type": "tool_result", "tool_use_id": "toolu_b", "content": "no such city", "is_error": true},
                    {"type": "text", "text": "And tomorrow?"}
                ]}
            ])
        );
    }

    #[test]
    fn unreadable_arguments_become_an_empty_object_and_empty_turns_are_dropped() {
        let request = ChatRequest {
            messages: vec![
                Message::user("Hi"),
                Message::Assistant {
                    content: String::new(),
                    tool_calls: Vec::new(),
                    reasoning: Vec::new(),
                },
                Message::Assistant {
                    content: "Checking.".into(),
                    tool_calls: vec![call("toolu_c", "{\"city\": \"Par"), call("toolu_d", "[1]")],
                    reasoning: Vec::new(),
                },
            ]
            .into(),
            tools: vec![ToolSpec {
                name: "noop".into(),
                description: "Does nothing".into(),
                parameters: Value::Null,
            }],
        };
        let body = body(&options(), &request);
        assert!(body.get("system").is_none());
        let assistant = &body["messages"][1]["content"];
        assert_eq!(assistant[0], json!({"type": "text", "text": "Checking."}));
        assert_eq!(assistant[1]["input"], json!({}));
        assert_eq!(assistant[2]["input"], json!({}));
        assert_eq!(body["messages"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            body["tools"][0]["input_schema"],
            json!({"type": "object", "properties": {}})
        );
    }
}
