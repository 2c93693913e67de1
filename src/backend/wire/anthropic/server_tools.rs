//! Anthropic's server tools in a request, as MassGen 0.1.97 sends them: the web search tool
//! (`web_search_20250305`) and the code execution tool (`code_execution_20250825`, behind
//! the `anthropic-beta: code-execution-2025-08-25` header); and their earlier calls and
//! results, sent back verbatim in the assistant message as the API requires.

use serde_json::{Map, Value, json};

use crate::backend::ProviderWire;
use crate::config::ServerTools;

/// The beta the code execution tool needs.
pub const CODE_EXECUTION_BETA: &str = "code-execution-2025-08-25";

/// Adds the enabled tools after the function tools.
pub(super) fn add(body: &mut Map<String, Value>, tools: ServerTools) {
    let mut added = Vec::new();
    if tools.web_search {
        added.push(json!({"type": "web_search_20250305", "name": "web_search"}));
    }
    if tools.code_execution {
        added.push(json!({"type": "code_execution_20250825", "name": "code_execution"}));
    }
    if added.is_empty() {
        return;
    }
    match body.get_mut("tools").and_then(Value::as_array_mut) {
        Some(existing) => existing.extend(added),
        None => {
            body.insert("tools".into(), Value::Array(added));
        }
    }
}

/// The `anthropic-beta` value the tools need, if any.
pub(super) fn beta(tools: ServerTools) -> Option<&'static str> {
    tools.code_execution.then_some(CODE_EXECUTION_BETA)
}

/// An earlier `server_tool_use` or `*_tool_result` block, as it came.
pub(super) fn echo(wire: ProviderWire, item: &Value) -> Value {
    match wire {
        ProviderWire::Anthropic => item.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_tools_follow_the_function_tools_and_code_execution_needs_its_beta() {
        let mut body = Map::new();
        body.insert("tools".into(), json!([{"name": "f"}]));
        let tools = ServerTools {
            web_search: true,
            x_search: false,
            code_execution: true,
        };
        add(&mut body, tools);
        assert_eq!(
            body["tools"],
            json!([
                {"name": "f"},
                {"type": "web_search_20250305", "name": "web_search"},
                {"type": "code_execution_20250825", "name": "code_execution"},
            ])
        );
        assert_eq!(beta(tools), Some("code-execution-2025-08-25"));
        let search_only = ServerTools {
            web_search: true,
            x_search: false,
            code_execution: false,
        };
        assert_eq!(beta(search_only), None);
        let mut plain = Map::new();
        add(&mut plain, ServerTools::default());
        assert!(plain.is_empty());
    }
}
