//! Reads the Gemini CLI's `--output-format stream-json` lines (`init`, `message`,
//! `tool_use`, `tool_result`, `error`, `result`) into `CliEvent`s.

use std::collections::HashMap;

use serde_json::Value;

use crate::backend::agent_cli::dialect::LineParser;
use crate::backend::agent_cli::event::{BRIDGE_SERVER, CliEvent};
use crate::protocol::Usage;

/// The CLI's prefix for MCP tools: `mcp_<server>_<tool>`.
const MCP_PREFIX: &str = "mcp_";

/// One run's reader. A `tool_result` names only its `tool_id`, so the tools started are
/// remembered; an `error` line's message is kept for a final `result` that fails without
/// one.
#[derive(Default)]
pub struct GeminiStream {
    started: HashMap<String, (String, Option<String>)>,
    last_error: Option<String>,
}

impl LineParser for GeminiStream {
    fn line(&mut self, line: &str) -> Vec<CliEvent> {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else {
            return Vec::new();
        };
        match event["type"].as_str().unwrap_or_default() {
            "init" => text_field(&event, "session_id")
                .map(CliEvent::Session)
                .into_iter()
                .collect(),
            "message" if event["role"] == "assistant" => text_field(&event, "content")
                .map(CliEvent::Text)
                .into_iter()
                .collect(),
            "tool_use" => vec![self.tool_started(&event)],
            "tool_result" => vec![self.tool_finished(&event)],
            "error" => {
                self.last_error = text_field(&event, "message");
                Vec::new()
            }
            "result" => self.result(&event),
            _ => Vec::new(),
        }
    }
}

impl GeminiStream {
    fn tool_started(&mut self, event: &Value) -> CliEvent {
        let id = event["tool_id"].as_str().unwrap_or_default().to_owned();
        let (name, server) = split_tool_name(event["tool_name"].as_str().unwrap_or_default());
        self.started
            .insert(id.clone(), (name.clone(), server.clone()));
        let input = match &event["parameters"] {
            Value::Null => "{}".to_owned(),
            parameters => parameters.to_string(),
        };
        CliEvent::ToolStarted {
            id,
            name,
            server,
            input,
        }
    }

    fn tool_finished(&mut self, event: &Value) -> CliEvent {
        let id = event["tool_id"].as_str().unwrap_or_default().to_owned();
        let (name, server) = self.started.remove(&id).unwrap_or_default();
        let ok = event["status"] == "success";
        let output = if ok {
            text_field(event, "output")
        } else {
            text_field(&event["error"], "message").or_else(|| text_field(event, "output"))
        };
        CliEvent::ToolFinished {
            id,
            name,
            server,
            output: output.unwrap_or_default(),
            ok,
        }
    }

    fn result(&mut self, event: &Value) -> Vec<CliEvent> {
        let mut events = Vec::new();
        if let Some(usage) = stats_usage(&event["stats"]) {
            events.push(CliEvent::Usage {
                usage,
                cost_usd: None,
                total: true,
            });
        }
        if event["status"] != "success" {
            let message = text_field(&event["error"], "message")
                .or_else(|| self.last_error.take())
                .unwrap_or_else(|| "the Gemini CLI reported an error".to_owned());
            events.push(CliEvent::Failed(message));
        }
        events
    }
}

fn text_field(value: &Value, field: &str) -> Option<String> {
    value[field]
        .as_str()
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

/// `mcp_massgen_vote` → (`vote`, `massgen`); another server's tool splits at the first `_`
/// after the prefix (the CLI joins server and tool with `_`, so a server name with `_` in
/// it cannot be told apart); the CLI's own tools have no server.
fn split_tool_name(full: &str) -> (String, Option<String>) {
    let Some(rest) = full.strip_prefix(MCP_PREFIX) else {
        return (full.to_owned(), None);
    };
    let bridged = rest
        .strip_prefix(BRIDGE_SERVER)
        .and_then(|tail| tail.strip_prefix('_'));
    if let Some(tool) = bridged {
        return (tool.to_owned(), Some(BRIDGE_SERVER.to_owned()));
    }
    match rest.split_once('_') {
        Some((server, tool)) => (tool.to_owned(), Some(server.to_owned())),
        None => (full.to_owned(), None),
    }
}

/// The run's tokens from `result.stats`: `input_tokens` is the whole prompt (cached
/// included), `output_tokens` leaves the thoughts out, `total_tokens` counts them.
fn stats_usage(stats: &Value) -> Option<Usage> {
    let count = |field: &str| stats[field].as_u64();
    let input = count("input_tokens")?;
    let answer = count("output_tokens").unwrap_or(0);
    let total = count("total_tokens").unwrap_or(input + answer);
    let output = answer.max(total.saturating_sub(input));
    Some(Usage {
        input_tokens: input,
        output_tokens: output,
        reasoning_tokens: output - answer,
        cached_input_tokens: count("cached").unwrap_or(0),
        ..Usage::default()
    })
}
