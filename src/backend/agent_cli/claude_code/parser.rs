//! Reads Claude Code's `--output-format stream-json --verbose --include-partial-messages`
//! stdout: text and thinking from the streamed deltas, tools from the whole assistant
//! blocks and the tool results, the session from `init`, usage and failure from `result`.

use std::collections::HashMap;

use serde_json::Value;

use crate::backend::agent_cli::dialect::LineParser;
use crate::backend::agent_cli::event::{BRIDGE_SERVER, CliEvent};
use crate::protocol::Usage;

/// MCP server statuses in `init` that mean the server's tools are not there.
const SERVER_DOWN: [&str; 2] = ["failed", "needs-auth"];

/// One start's reader.
#[derive(Default)]
pub struct StreamJsonParser {
    session_reported: bool,
    /// Tools started and not yet finished: id → (name, MCP server).
    open_tools: HashMap<String, (String, Option<String>)>,
}

impl LineParser for StreamJsonParser {
    fn line(&mut self, line: &str) -> Vec<CliEvent> {
        let Ok(message) = serde_json::from_str::<Value>(line.trim()) else {
            return Vec::new();
        };
        match text(&message, "type") {
            "system" => self.system(&message),
            "stream_event" if is_main_agent(&message) => delta(&message["event"]),
            "assistant" => self.tool_uses(&message),
            "user" => self.tool_results(&message),
            "result" => self.result(&message),
            _ => Vec::new(),
        }
    }
}

impl StreamJsonParser {
    fn system(&mut self, message: &Value) -> Vec<CliEvent> {
        if text(message, "subtype") != "init" {
            return Vec::new();
        }
        let mut events = self.session(message);
        let bridge_down = message["mcp_servers"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|server| text(server, "name") == BRIDGE_SERVER)
            .map(|server| text(server, "status"))
            .filter(|status| SERVER_DOWN.contains(status));
        if let Some(status) = bridge_down {
            events.push(CliEvent::Failed(format!(
                "Claude Code could not reach massgen's tool bridge (MCP server status `{status}`)"
            )));
        }
        events
    }

    fn session(&mut self, message: &Value) -> Vec<CliEvent> {
        let id = text(message, "session_id");
        if self.session_reported || id.is_empty() {
            return Vec::new();
        }
        self.session_reported = true;
        vec![CliEvent::Session(id.to_owned())]
    }

    /// Each `tool_use` block of a finished assistant message. Text and thinking blocks were
    /// already streamed as deltas, and an API error's synthetic text is the result's failure.
    fn tool_uses(&mut self, message: &Value) -> Vec<CliEvent> {
        let mut events = Vec::new();
        for block in blocks(&message["message"]) {
            if text(block, "type") != "tool_use" {
                continue;
            }
            let id = text(block, "id").to_owned();
            let (name, server) = tool_name(text(block, "name"));
            self.open_tools
                .insert(id.clone(), (name.clone(), server.clone()));
            if server.as_deref() == Some(BRIDGE_SERVER) {
                continue;
            }
            events.push(CliEvent::ToolStarted {
                id,
                name,
                server,
                input: block["input"].to_string(),
            });
        }
        events
    }

    fn tool_results(&mut self, message: &Value) -> Vec<CliEvent> {
        let mut events = Vec::new();
        for block in blocks(&message["message"]) {
            if text(block, "type") != "tool_result" {
                continue;
            }
            let id = text(block, "tool_use_id");
            let Some((name, server)) = self.open_tools.remove(id) else {
                continue;
            };
            if server.as_deref() == Some(BRIDGE_SERVER) {
                continue;
            }
            events.push(CliEvent::ToolFinished {
                id: id.to_owned(),
                name,
                server,
                output: result_text(&block["content"]),
                ok: !block["is_error"].as_bool().unwrap_or(false),
            });
        }
        events
    }

    fn result(&mut self, message: &Value) -> Vec<CliEvent> {
        let mut events = self.session(message);
        if message["usage"].is_object() {
            events.push(CliEvent::Usage {
                usage: usage(&message["usage"]),
                cost_usd: launch_cost(message),
                total: true,
            });
        }
        if message["is_error"].as_bool().unwrap_or(false) {
            events.push(CliEvent::Failed(failure(message)));
        }
        events
    }
}

/// Text and thinking deltas of the streamed Anthropic events.
fn delta(event: &Value) -> Vec<CliEvent> {
    if text(event, "type") != "content_block_delta" {
        return Vec::new();
    }
    let delta = &event["delta"];
    match text(delta, "type") {
        "text_delta" => non_empty(text(delta, "text"), CliEvent::Text),
        "thinking_delta" => non_empty(text(delta, "thinking"), CliEvent::Reasoning),
        _ => Vec::new(),
    }
}

fn non_empty(fragment: &str, event: fn(String) -> CliEvent) -> Vec<CliEvent> {
    if fragment.is_empty() {
        Vec::new()
    } else {
        vec![event(fragment.to_owned())]
    }
}

/// A subagent's stream carries the id of the tool call that started it.
fn is_main_agent(message: &Value) -> bool {
    message["parent_tool_use_id"].is_null()
}

/// `mcp__<server>__<tool>` → (`tool`, `server`); a built-in tool keeps its name.
fn tool_name(full: &str) -> (String, Option<String>) {
    full.strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
        .map_or_else(
            || (full.to_owned(), None),
            |(server, tool)| (tool.to_owned(), Some(server.to_owned())),
        )
}

/// A tool result's content: a string, or content blocks whose text parts are joined.
fn result_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The result's `usage` is this start's own (a resumed session's earlier starts are not in
/// it), in Anthropic's form: `input_tokens` excludes the cache reads and writes.
fn usage(reported: &Value) -> Usage {
    let count = |value: &Value| value.as_u64().unwrap_or(0);
    let cached = count(&reported["cache_read_input_tokens"]);
    let cache_creation = count(&reported["cache_creation_input_tokens"]);
    Usage {
        input_tokens: count(&reported["input_tokens"]) + cached + cache_creation,
        output_tokens: count(&reported["output_tokens"]),
        reasoning_tokens: count(&reported["output_tokens_details"]["thinking_tokens"]),
        cached_input_tokens: cached,
        cache_creation_tokens: cache_creation,
        web_searches: count(&reported["server_tool_use"]["web_search_requests"]),
        ..Usage::default()
    }
}

/// This start's cost: `total_cost_usd` adds up every start of a resumed session, so the
/// per-model costs since the last result are summed when the CLI reports them.
fn launch_cost(message: &Value) -> Option<f64> {
    let since_last = message["model_usage_since_last_result"]
        .as_object()
        .map(|models| {
            models
                .values()
                .filter_map(|model| model["costUSD"].as_f64())
        })
        .map(Iterator::sum::<f64>);
    since_last.or_else(|| message["total_cost_usd"].as_f64())
}

fn failure(message: &Value) -> String {
    let said = text(message, "result");
    if !said.is_empty() {
        return said.to_owned();
    }
    let errors: Vec<&str> = message["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if errors.is_empty() {
        format!("Claude Code failed ({})", text(message, "subtype"))
    } else {
        errors.join("; ")
    }
}

fn blocks(message: &Value) -> impl Iterator<Item = &Value> {
    message["content"].as_array().into_iter().flatten()
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or_default()
}
