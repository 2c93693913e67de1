//! Gemini's built-in tools in a request, as MassGen 0.1.97 sends them: `{"google_search": {}}`
//! and `{"code_execution": {}}`, and only on a call that declares no functions, since
//! Gemini 2.x refuses built-in tools beside function calling ("Tool use with function
//! calling is unsupported"). A coordination or post-evaluation call whose only functions
//! are the workflow tools declares none: they go as JSON text (`text_workflow`), so such
//! an agent searches there too; a call with any other function gets no built-in tool.

use serde_json::{Value, json};

use crate::config::ServerTools;

/// Adds the enabled tools to `tools` when it holds no function declarations.
pub(super) fn add(tools: &mut Vec<Value>, enabled: ServerTools) {
    if !tools.is_empty() {
        return;
    }
    if enabled.web_search {
        tools.push(json!({"google_search": {}}));
    }
    if enabled.code_execution {
        tools.push(json!({"code_execution": {}}));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_go_only_on_calls_without_functions() {
        let enabled = ServerTools {
            web_search: true,
            x_search: false,
            code_execution: true,
        };
        let mut tools = Vec::new();
        add(&mut tools, enabled);
        assert_eq!(
            tools,
            vec![json!({"google_search": {}}), json!({"code_execution": {}})]
        );
        let mut with_functions = vec![json!({"functionDeclarations": []})];
        add(&mut with_functions, enabled);
        assert_eq!(with_functions.len(), 1);
    }
}
