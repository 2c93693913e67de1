//! Claude's strict tool use (`enable_strict_tool_use`, MassGen's structured outputs): each
//! tool the config does not opt out goes with `strict: true` and every object of its schema
//! closed (`additionalProperties: false`), under the `structured-outputs-2025-11-13` beta —
//! on the models MassGen turns it on for (Claude Sonnet 4.5 and Opus 4.1).

use serde_json::Value;

use crate::backend::wire::WireOptions;

/// The beta header value strict tools need.
pub const BETA: &str = "structured-outputs-2025-11-13";

/// Whether this call's tools go strict: asked for, on a model MassGen turns it on for.
pub fn on(options: &WireOptions) -> bool {
    let model = options.model.to_ascii_lowercase();
    options.strict_tools.enabled
        && (model.contains("claude-sonnet-4-5") || model.contains("claude-opus-4-1"))
}

/// Marks the body's tools strict, but those the config opts out.
pub fn apply(options: &WireOptions, tools: &mut [Value]) {
    if !on(options) {
        return;
    }
    for tool in tools {
        let applies = tool
            .get("name")
            .and_then(Value::as_str)
            .is_some_and(|name| options.strict_tools.applies_to(name));
        if !applies {
            continue;
        }
        if let Some(schema) = tool.get_mut("input_schema") {
            close_objects(schema);
        }
        tool["strict"] = Value::Bool(true);
    }
}

/// `additionalProperties: false` on every object schema that does not say otherwise, into
/// properties, items, `anyOf`/`allOf`/`oneOf` and definitions.
fn close_objects(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if map.get("type").and_then(Value::as_str) == Some("object")
        && !map.contains_key("additionalProperties")
    {
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        properties.values_mut().for_each(close_objects);
    }
    if let Some(items) = map.get_mut("items") {
        close_objects(items);
    }
    for key in ["anyOf", "allOf", "oneOf"] {
        if let Some(Value::Array(choices)) = map.get_mut(key) {
            choices.iter_mut().for_each(close_objects);
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(definitions)) = map.get_mut(key) {
            definitions.values_mut().for_each(close_objects);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::config::StrictTools;

    fn options(model: &str, opted_out: &[&str]) -> WireOptions {
        WireOptions {
            strict_tools: StrictTools {
                enabled: true,
                opted_out: opted_out.iter().map(|name| name.to_string()).collect(),
            },
            ..WireOptions::new(model)
        }
    }

    fn tool(name: &str) -> Value {
        json!({"name": name, "description": "", "input_schema": {
            "type": "object",
            "properties": {
                "where": {"type": "object", "properties": {"city": {"type": "string"}}},
                "tags": {"type": "array", "items": {"type": "object", "properties": {}}},
                "maybe": {"anyOf": [{"type": "object"}, {"type": "null"}]},
                "open": {"type": "object", "additionalProperties": true}
            },
            "required": ["where"]
        }})
    }

    #[test]
    fn tools_go_strict_with_every_object_closed_but_the_opted_out() {
        let mut tools = vec![tool("custom_tool__add"), tool("mcp__loose__fetch")];
        apply(
            &options("claude-sonnet-4-5-20250929", &["mcp__loose__"]),
            &mut tools,
        );
        let strict = &tools[0];
        assert_eq!(strict["strict"], json!(true));
        let schema = &strict["input_schema"];
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(
            schema["properties"]["where"]["additionalProperties"],
            json!(false)
        );
        assert_eq!(
            schema["properties"]["tags"]["items"]["additionalProperties"],
            json!(false)
        );
        assert_eq!(
            schema["properties"]["maybe"]["anyOf"][0]["additionalProperties"],
            json!(false)
        );
        assert_eq!(
            schema["properties"]["open"]["additionalProperties"],
            json!(true)
        );
        assert_eq!(tools[1], tool("mcp__loose__fetch"));
    }

    #[test]
    fn other_models_and_configs_without_the_key_send_tools_as_they_are() {
        for options in [
            options("claude-haiku-4-5", &[]),
            WireOptions::new("claude-sonnet-4-5"),
        ] {
            let mut tools = vec![tool("new_answer")];
            apply(&options, &mut tools);
            assert_eq!(tools, [tool("new_answer")]);
            assert!(!on(&options));
        }
        assert!(on(&options("claude-opus-4-1", &[])));
    }
}
