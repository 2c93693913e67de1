//! Workflow tools as JSON text, for a call that enables Gemini's built-in tools and
//! offers no function but our workflow tools (`new_answer`, `vote`, `submit`,
//! `restart_orchestration`): Gemini 2.x refuses built-in tools beside function
//! declarations, so, as MassGen 0.1.97 does, the tools are described in the system
//! instruction and the model ends its reply with a JSON action, which the decoder turns
//! back into the tool call. Earlier workflow calls and results are replayed as text.

use serde_json::{Map, Value, json};

use crate::backend::{ChatRequest, ToolCall, ToolSpec};
use crate::config::ServerTools;

/// Our workflow tools (names as in `tools::workflow` and `tools::post_evaluation`, which
/// the backend may not import): the tool, the `action_type`s naming it, and the key of its
/// arguments, as MassGen's structured replies spell them.
const ACTIONS: [(&str, &[&str], &str); 4] = [
    ("new_answer", &["new_answer"], "answer_data"),
    ("vote", &["vote"], "vote_data"),
    ("submit", &["submit"], "submit_data"),
    (
        "restart_orchestration",
        &["restart_orchestration", "restart"],
        "restart_data",
    ),
];

/// The offered workflow tools' names when the call uses JSON text instead of function
/// declarations: a built-in tool is on and every function of the request is a workflow
/// tool. `None` otherwise (and for a call without functions).
pub fn offered(request: &ChatRequest, enabled: ServerTools) -> Option<Vec<String>> {
    let builtin = enabled.web_search || enabled.code_execution;
    let all_workflow = request
        .tools
        .iter()
        .all(|tool| action(&tool.name).is_some());
    (builtin && all_workflow && !request.tools.is_empty())
        .then(|| request.tools.iter().map(|tool| tool.name.clone()).collect())
}

/// `(tool name, data key)` for a tool name or an `action_type`.
pub fn action(name: &str) -> Option<(&'static str, &'static str)> {
    ACTIONS
        .iter()
        .find(|(tool, aliases, _)| *tool == name || aliases.contains(&name))
        .map(|(tool, _, key)| (*tool, *key))
}

/// Takes the function-calling mode (`function_calling_mode`) out of `toolConfig`: no
/// function is declared for it to apply to.
pub fn drop_function_calling(body: &mut Map<String, Value>) {
    if let Some(Value::Object(config)) = body.get_mut("toolConfig") {
        config.remove("functionCallingConfig");
        if config.is_empty() {
            body.remove("toolConfig");
        }
    }
}

/// The instruction block for the system instruction: one JSON shape per offered tool.
pub fn instructions(tools: &[ToolSpec]) -> String {
    let mut text = String::from(
        "IMPORTANT: the actions below are not available as function calls here. To take one, \
         end your response with exactly one JSON object of the shape shown, in a ```json \
         block, after any other text.",
    );
    for tool in tools {
        let Some((name, key)) = action(&tool.name) else {
            continue;
        };
        let properties = tool
            .parameters
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let required: Vec<&str> = tool
            .parameters
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut example = Map::new();
        let mut lines = Vec::new();
        for (parameter, schema) in &properties {
            example.insert(parameter.clone(), placeholder(schema));
            let mut line = format!("- `{parameter}`");
            if required.contains(&parameter.as_str()) {
                line.push_str(" (required)");
            }
            if let Some(description) = schema.get("description").and_then(Value::as_str) {
                line.push_str(&format!(": {description}"));
            }
            if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
                let allowed: Vec<String> = allowed.iter().map(Value::to_string).collect();
                line.push_str(&format!(". Allowed values: {}", allowed.join(", ")));
            }
            lines.push(line);
        }
        let shape = json!({"action_type": name, key: Value::Object(example)});
        text.push_str(&format!(
            "\n\n`{name}`: {}\n```json\n{}\n```",
            tool.description,
            serde_json::to_string_pretty(&shape).unwrap_or_default()
        ));
        if !lines.is_empty() {
            text.push('\n');
            text.push_str(&lines.join("\n"));
        }
    }
    text
}

/// An example value: the first allowed one, else one of the parameter's type.
fn placeholder(schema: &Value) -> Value {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|allowed| allowed.first())
    {
        return first.clone();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("boolean") => json!(true),
        Some("integer" | "number") => json!(0),
        Some(_) | None => json!("..."),
    }
}

/// An earlier call as the JSON text the model would have written.
pub fn call_text(call: &ToolCall) -> String {
    let arguments = match serde_json::from_str::<Value>(&call.arguments) {
        Ok(Value::Object(map)) => Value::Object(map),
        Ok(_) | Err(_) => Value::Object(Map::new()),
    };
    let (name, key) = action(&call.name)
        .map(|(name, key)| (name.to_string(), key.to_string()))
        .unwrap_or_else(|| (call.name.clone(), format!("{}_data", call.name)));
    format!(
        "```json\n{}\n```",
        json!({"action_type": name, key: arguments})
    )
}

/// An earlier call's result as the user's text.
pub fn result_text(name: &str, content: &str, is_error: bool) -> String {
    if is_error {
        format!("Result of `{name}` (error): {content}")
    } else {
        format!("Result of `{name}`: {content}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vote(candidates: &[&str]) -> ToolSpec {
        ToolSpec {
            name: "vote".into(),
            description: "Vote for the best agent to present final answer".into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "agent_id": {"type": "string", "description": "Anonymous agent ID", "enum": candidates},
                    "reason": {"type": "string", "description": "Brief reason"}
                },
                "required": ["agent_id", "reason"]
            }),
        }
    }

    fn tool(name: &str) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            description: String::new(),
            parameters: json!({"type": "object", "properties": {}}),
        }
    }

    fn request(tools: Vec<ToolSpec>) -> ChatRequest {
        ChatRequest {
            messages: Vec::new().into(),
            tools,
        }
    }

    const SEARCH: ServerTools = ServerTools {
        web_search: true,
        x_search: false,
        code_execution: false,
    };

    #[test]
    fn applies_only_with_a_builtin_tool_and_only_workflow_functions() {
        let workflow = request(vec![tool("new_answer"), vote(&["agent1"])]);
        assert_eq!(
            offered(&workflow, SEARCH),
            Some(vec!["new_answer".to_string(), "vote".to_string()])
        );
        let post = request(vec![tool("submit"), tool("restart_orchestration")]);
        let code = ServerTools {
            web_search: false,
            x_search: false,
            code_execution: true,
        };
        assert!(offered(&post, code).is_some());
        assert_eq!(offered(&workflow, ServerTools::default()), None);
        let mixed = request(vec![tool("vote"), tool("read_file")]);
        assert_eq!(offered(&mixed, SEARCH), None);
        assert_eq!(offered(&request(Vec::new()), SEARCH), None);
    }

    #[test]
    fn the_block_shows_each_offered_tool_with_its_parameters_and_allowed_ids() {
        let text = instructions(&[tool("new_answer"), vote(&["agent1", "agent2"])]);
        assert!(text.contains("\"action_type\": \"vote\""), "{text}");
        assert!(text.contains("\"vote_data\""), "{text}");
        assert!(text.contains("\"agent_id\": \"agent1\""), "{text}");
        assert!(
            text.contains("- `agent_id` (required): Anonymous agent ID. Allowed values: \"agent1\", \"agent2\""),
            "{text}"
        );
        assert!(
            text.contains("- `reason` (required): Brief reason"),
            "{text}"
        );
        assert!(text.contains("\"action_type\": \"new_answer\""), "{text}");
        assert!(!text.contains("submit"), "{text}");
        let post = instructions(&[tool("submit"), tool("restart_orchestration")]);
        assert!(post.contains("\"submit_data\""), "{post}");
        assert!(post.contains("\"restart_data\""), "{post}");
        assert!(!post.contains("vote"), "{post}");
    }

    #[test]
    fn calls_and_results_become_text() {
        let call = ToolCall {
            id: "c1".into(),
            name: "vote".into(),
            arguments: r#"{"agent_id":"agent2","reason":"cites sources"}"#.into(),
            signature: None,
        };
        let text = call_text(&call);
        let inner = text
            .trim_start_matches("```json\n")
            .trim_end_matches("\n```");
        assert_eq!(
            serde_json::from_str::<Value>(inner).unwrap(),
            json!({"action_type": "vote", "vote_data": {"agent_id": "agent2", "reason": "cites sources"}})
        );
        assert_eq!(
            result_text("vote", "Vote recorded", false),
            "Result of `vote`: Vote recorded"
        );
        assert_eq!(
            result_text("vote", "unknown agent", true),
            "Result of `vote` (error): unknown agent"
        );
    }
}
