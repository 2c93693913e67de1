//! Anthropic's server tools in a stream: a `server_tool_use` block (its input streamed as
//! JSON fragments) and the `*_tool_result` block that answers it (`web_search_tool_result`,
//! `code_execution_tool_result`, `bash_code_execution_tool_result`, …). Both are kept to be
//! sent back, and each answered call becomes one tool card.

use std::collections::VecDeque;

use serde_json::{Value, json};

use crate::backend::{ProviderWire, StreamEvent};
use crate::protocol::{ProviderToolCall, Source};

/// A `server_tool_use` block whose input is still streaming.
struct Open {
    index: usize,
    block: Value,
    partial: String,
}

#[derive(Default)]
pub(super) struct ServerBlocks {
    open: Vec<Open>,
    /// Finished calls: id, tool name, input.
    calls: Vec<(String, String, Value)>,
}

/// A result block of a server tool (the client's own `tool_result` is not one).
pub(super) fn is_result(kind: &str) -> bool {
    kind.ends_with("_tool_result") && kind != "tool_result"
}

impl ServerBlocks {
    pub(super) fn start_use(&mut self, index: usize, block: &Value) {
        self.open.push(Open {
            index,
            block: block.clone(),
            partial: String::new(),
        });
    }

    /// An `input_json_delta` for a server tool call; `false` when `index` is not one.
    pub(super) fn delta(&mut self, index: usize, fragment: &str) -> bool {
        match self.open.iter_mut().find(|open| open.index == index) {
            Some(open) => {
                open.partial.push_str(fragment);
                true
            }
            None => false,
        }
    }

    /// `content_block_stop`: the call at `index` is complete.
    pub(super) fn stop(&mut self, index: Option<usize>, out: &mut VecDeque<StreamEvent>) {
        if let Some(position) = self.open.iter().position(|open| Some(open.index) == index) {
            let open = self.open.remove(position);
            self.close(open, out);
        }
    }

    /// Closes every call still open (a whole reply has no stop events).
    pub(super) fn finish(&mut self, out: &mut VecDeque<StreamEvent>) {
        for open in std::mem::take(&mut self.open) {
            self.close(open, out);
        }
    }

    fn close(&mut self, mut open: Open, out: &mut VecDeque<StreamEvent>) {
        if !open.partial.trim().is_empty() {
            let input = serde_json::from_str(&open.partial).unwrap_or_else(|_| json!({}));
            open.block["input"] = input;
        }
        let text = |key: &str| {
            open.block
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let input = open.block.get("input").cloned().unwrap_or(Value::Null);
        self.calls.push((text("id"), text("name"), input));
        out.push_back(StreamEvent::ProviderBlock {
            wire: ProviderWire::Anthropic,
            item: open.block,
        });
    }

    /// A result block, whole in its start event: kept, and reported as a card.
    pub(super) fn result(&mut self, block: &Value, out: &mut VecDeque<StreamEvent>) {
        self.finish(out);
        out.push_back(StreamEvent::ProviderBlock {
            wire: ProviderWire::Anthropic,
            item: block.clone(),
        });
        let id = block
            .get("tool_use_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let kind = block
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let (name, input) = match self.calls.iter().find(|(call, _, _)| call == id) {
            Some((_, name, input)) => (name.clone(), input.clone()),
            None => (
                kind.trim_end_matches("_tool_result").to_string(),
                Value::Null,
            ),
        };
        out.push_back(StreamEvent::ProviderTool(card(id, name, &input, block)));
    }
}

/// What the model asked the tool for: the query, code, command or URL.
fn input_text(input: &Value) -> String {
    let field = |key: &str| input.get(key).and_then(Value::as_str);
    if let Some(text) = ["query", "code", "url"].into_iter().find_map(field) {
        return text.to_string();
    }
    match (field("command"), field("path")) {
        (Some(command), Some(path)) => format!("{command} {path}"),
        (Some(command), None) => command.to_string(),
        (None, _) => match input {
            Value::Object(map) if !map.is_empty() => input.to_string(),
            Value::Null
            | Value::Bool(_)
            | Value::Number(_)
            | Value::String(_)
            | Value::Array(_)
            | Value::Object(_) => String::new(),
        },
    }
}

fn card(id: &str, tool: String, input: &Value, block: &Value) -> ProviderToolCall {
    let mut call = ProviderToolCall {
        call_id: id.to_string(),
        tool,
        input: input_text(input),
        ok: true,
        ..ProviderToolCall::default()
    };
    let content = block.get("content").unwrap_or(&Value::Null);
    if let Some(results) = content.as_array() {
        call.sources = results.iter().filter_map(source).collect();
        return call;
    }
    let text = |key: &str| content.get(key).and_then(Value::as_str).unwrap_or_default();
    if text("type").ends_with("_error") {
        call.ok = false;
        call.output = format!("error: {}", text("error_code"));
        return call;
    }
    let mut printed = Vec::new();
    if !text("stdout").is_empty() {
        printed.push(text("stdout").trim_end().to_string());
    }
    if !text("stderr").is_empty() {
        printed.push(format!("[stderr] {}", text("stderr").trim_end()));
    }
    if let Some(code) = content.get("return_code").and_then(Value::as_i64)
        && code != 0
    {
        call.ok = false;
        printed.push(format!("[exit code {code}]"));
    }
    if printed.is_empty() && !text("content").is_empty() {
        printed.push(text("content").trim_end().to_string());
    }
    call.output = printed.join("\n");
    call.sources.extend(source(content));
    call
}

fn source(value: &Value) -> Option<Source> {
    let url = value.get("url").and_then(Value::as_str)?;
    let title = value
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or_default();
    Some(Source {
        title: title.to_string(),
        url: url.to_string(),
    })
}
