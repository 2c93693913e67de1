//! Reads `codex exec --json`: one JSON event a line (`thread.started`, `item.started` /
//! `item.completed` wrapping an item — an agent message, reasoning, a shell command, a file
//! change, an MCP tool call, a web search — then `turn.completed` with the token usage or
//! `turn.failed`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::backend::agent_cli::dialect::LineParser;
use crate::backend::agent_cli::event::CliEvent;
use crate::protocol::Usage;

/// The token totals Codex last reported for each session. Codex reports a session's running
/// total, earlier starts included, so a resumed start's own usage is the difference.
pub type SessionTotals = Arc<Mutex<HashMap<String, Usage>>>;

pub struct CodexParser {
    totals: SessionTotals,
    session: Option<String>,
    web_searches: u64,
}

impl CodexParser {
    pub fn new(totals: SessionTotals) -> Self {
        Self {
            totals,
            session: None,
            web_searches: 0,
        }
    }

    fn item(&mut self, item: &Value, done: bool) -> Vec<CliEvent> {
        let id = text(item, "id");
        let ok = item["status"].as_str() == Some("completed");
        match item["type"].as_str().unwrap_or_default() {
            "agent_message" if done => vec![CliEvent::Text(text(item, "text"))],
            "reasoning" if done => vec![CliEvent::Reasoning(text(item, "text"))],
            "command_execution" => {
                let command = unwrap_shell(&text(item, "command"));
                let succeeded = match item["exit_code"].as_i64() {
                    Some(code) => code == 0,
                    None => ok,
                };
                vec![tool(
                    id,
                    "shell",
                    None,
                    command,
                    done,
                    item["aggregated_output"].as_str(),
                    succeeded,
                )]
            }
            "file_change" => {
                let changes = changes(item);
                vec![tool(
                    id,
                    "apply_patch",
                    None,
                    changes.clone(),
                    done,
                    Some(&changes),
                    ok,
                )]
            }
            "mcp_tool_call" => {
                let server = Some(text(item, "server"));
                let name = text(item, "tool");
                let input = item["arguments"].to_string();
                let output = mcp_output(item);
                vec![tool(id, &name, server, input, done, Some(&output), ok)]
            }
            "web_search" => {
                let query = text(item, "query");
                if done {
                    self.web_searches += 1;
                }
                vec![tool(
                    id,
                    "web_search",
                    None,
                    query.clone(),
                    done,
                    Some(&query),
                    true,
                )]
            }
            _ => Vec::new(),
        }
    }

    fn usage(&mut self, reported: &Value) -> CliEvent {
        let count = |key: &str| reported[key].as_u64().unwrap_or(0);
        let total = Usage {
            input_tokens: count("input_tokens"),
            output_tokens: count("output_tokens"),
            reasoning_tokens: count("reasoning_output_tokens"),
            cached_input_tokens: count("cached_input_tokens"),
            cache_creation_tokens: count("cache_write_input_tokens"),
            ..Usage::default()
        };
        let before = self.session.as_ref().and_then(|session| {
            let mut totals = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
            totals.insert(session.clone(), total)
        });
        let before = before.unwrap_or_default();
        let usage = Usage {
            input_tokens: total.input_tokens.saturating_sub(before.input_tokens),
            output_tokens: total.output_tokens.saturating_sub(before.output_tokens),
            reasoning_tokens: total
                .reasoning_tokens
                .saturating_sub(before.reasoning_tokens),
            cached_input_tokens: total
                .cached_input_tokens
                .saturating_sub(before.cached_input_tokens),
            cache_creation_tokens: total
                .cache_creation_tokens
                .saturating_sub(before.cache_creation_tokens),
            web_searches: self.web_searches,
            ..Usage::default()
        };
        CliEvent::Usage {
            usage,
            cost_usd: None,
            total: true,
        }
    }
}

impl LineParser for CodexParser {
    fn line(&mut self, line: &str) -> Vec<CliEvent> {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            return Vec::new();
        };
        match event["type"].as_str().unwrap_or_default() {
            "thread.started" => {
                let id = text(&event, "thread_id");
                self.session = Some(id.clone());
                vec![CliEvent::Session(id)]
            }
            "item.started" => self.item(&event["item"], false),
            "item.completed" => self.item(&event["item"], true),
            "turn.completed" => vec![self.usage(&event["usage"])],
            "turn.failed" => {
                let message = event["error"]["message"]
                    .as_str()
                    .map_or_else(|| event["error"].to_string(), str::to_string);
                vec![CliEvent::Failed(message)]
            }
            // Top-level `error` events report retries ("Reconnecting... 2/5"); a failure
            // that ends the turn follows as `turn.failed`. Items of type `error` are
            // warnings (a deprecated setting, unknown model metadata).
            _ => Vec::new(),
        }
    }
}

/// A tool's start, or its end with `output`.
fn tool(
    id: String,
    name: &str,
    server: Option<String>,
    input: String,
    done: bool,
    output: Option<&str>,
    ok: bool,
) -> CliEvent {
    let name = name.to_string();
    if done {
        CliEvent::ToolFinished {
            id,
            name,
            server,
            output: output.unwrap_or_default().to_string(),
            ok,
        }
    } else {
        CliEvent::ToolStarted {
            id,
            name,
            server,
            input,
        }
    }
}

fn text(value: &Value, key: &str) -> String {
    value[key].as_str().unwrap_or_default().to_string()
}

/// `add /path`, one line per changed file.
fn changes(item: &Value) -> String {
    item["changes"]
        .as_array()
        .map(|changes| {
            changes
                .iter()
                .map(|change| format!("{} {}", text(change, "kind"), text(change, "path")))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// The text an MCP tool returned, or its error.
fn mcp_output(item: &Value) -> String {
    if let Some(message) = item["error"]["message"].as_str() {
        return message.to_string();
    }
    if let Some(message) = item["error"].as_str() {
        return message.to_string();
    }
    item["result"]["content"]
        .as_array()
        .map(|content| {
            content
                .iter()
                .map(|part| match part["text"].as_str() {
                    Some(text) => text.to_string(),
                    None => format!("[{}]", part["type"].as_str().unwrap_or("content")),
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// The script of `/bin/bash -lc '<script>'` (how Codex reports every command), or the
/// command as reported when it has another shape.
pub(super) fn unwrap_shell(command: &str) -> String {
    let mut words = command.splitn(3, ' ');
    let (Some(shell), Some(flag), Some(rest)) = (words.next(), words.next(), words.next()) else {
        return command.to_string();
    };
    let is_shell = ["bash", "sh", "zsh"]
        .iter()
        .any(|name| shell == *name || shell.ends_with(&format!("/{name}")));
    if !is_shell || !matches!(flag, "-lc" | "-c") {
        return command.to_string();
    }
    match rest
        .strip_prefix('\'')
        .and_then(|quoted| quoted.strip_suffix('\''))
    {
        Some(script) if !script.replace("'\\''", "").contains('\'') => script.replace("'\\''", "'"),
        _ => rest.to_string(),
    }
}
