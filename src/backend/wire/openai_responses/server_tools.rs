//! The provider's own tools in a Responses request, as MassGen 0.1.97 sends them:
//! `{"type": "web_search"}` and `{"type": "code_interpreter", "container": {"type": "auto"}}`,
//! with `parallel_tool_calls: false`, which the API requires beside built-in tools.

use serde_json::{Map, Value, json};

use crate::config::ServerTools;

/// Adds the enabled tools after the function tools.
pub(super) fn add(body: &mut Map<String, Value>, tools: ServerTools) {
    if !tools.any() {
        return;
    }
    let mut added = Vec::new();
    if tools.web_search {
        added.push(json!({"type": "web_search"}));
    }
    if tools.code_execution {
        added.push(json!({"type": "code_interpreter", "container": {"type": "auto"}}));
    }
    match body.get_mut("tools").and_then(Value::as_array_mut) {
        Some(existing) => existing.extend(added),
        None => {
            body.insert("tools".into(), Value::Array(added));
        }
    }
    body.insert("parallel_tool_calls".into(), json!(false));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_follow_the_function_tools_and_parallel_calls_go_off() {
        let mut body = Map::new();
        body.insert("tools".into(), json!([{"type": "function", "name": "f"}]));
        let tools = ServerTools {
            web_search: true,
            code_execution: true,
        };
        add(&mut body, tools);
        assert_eq!(
            body["tools"],
            json!([
                {"type": "function", "name": "f"},
                {"type": "web_search"},
                {"type": "code_interpreter", "container": {"type": "auto"}},
            ])
        );
        assert_eq!(body["parallel_tool_calls"], json!(false));
        let mut plain = Map::new();
        add(&mut plain, ServerTools::default());
        assert!(plain.is_empty());
    }
}
