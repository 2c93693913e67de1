//! The provider's own tools in a Responses request, as MassGen 0.1.97 sends them:
//! `{"type": "web_search"}`, xAI's `{"type": "x_search"}` and
//! `{"type": "code_interpreter", "container": {"type": "auto"}}`,
//! with `parallel_tool_calls: false`, which the API requires beside built-in tools, and
//! (for OpenAI) the `include` values that make the API return what the tools found and the
//! config's `search_context_size` on the `web_search` tool.

use serde_json::{Map, Value, json};

use crate::backend::wire::WireOptions;

/// Asks OpenAI for a search's sources (else only the pages the answer cites come back).
const SEARCH_SOURCES: &str = "web_search_call.action.sources";
/// Asks OpenAI for the code interpreter's logs (else a code card has no output).
const CODE_OUTPUTS: &str = "code_interpreter_call.outputs";

/// Adds the enabled tools after the function tools, and the `include` values that return
/// their results after any the config lists itself.
pub(super) fn add(body: &mut Map<String, Value>, options: &WireOptions) {
    let tools = options.server_tools;
    if !tools.any() {
        return;
    }
    let mut added = Vec::new();
    let mut wanted = Vec::new();
    if tools.web_search {
        let mut search = json!({"type": "web_search"});
        // OpenAI's tool option; the config keeps it for `openai` only.
        if let Some(size) = options.search_options.get("search_context_size") {
            search["search_context_size"] = size.clone();
        }
        added.push(search);
        wanted.push(SEARCH_SOURCES);
    }
    // Only Grok gets here with it: the config refuses it on any other backend.
    if tools.x_search {
        added.push(json!({"type": "x_search"}));
    }
    if tools.code_execution {
        added.push(json!({"type": "code_interpreter", "container": {"type": "auto"}}));
        wanted.push(CODE_OUTPUTS);
    }
    match body.get_mut("tools").and_then(Value::as_array_mut) {
        Some(existing) => existing.extend(added),
        None => {
            body.insert("tools".into(), Value::Array(added));
        }
    }
    body.insert("parallel_tool_calls".into(), json!(false));
    if options.include_tool_results {
        body.insert(
            "include".into(),
            include(options.passthrough.get("include"), &wanted),
        );
    }
}

/// The config's own `include` list followed by the values it lacks of `wanted`. A config
/// `include` that is not a list is left for the API to judge, as written.
fn include(configured: Option<&Value>, wanted: &[&str]) -> Value {
    let mut values = match configured {
        Some(Value::Array(values)) => values.clone(),
        Some(other) => return other.clone(),
        None => Vec::new(),
    };
    for value in wanted {
        if !values.iter().any(|have| have.as_str() == Some(value)) {
            values.push(json!(value));
        }
    }
    Value::Array(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServerTools;

    fn options(web_search: bool, code_execution: bool) -> WireOptions {
        WireOptions {
            server_tools: ServerTools {
                web_search,
                code_execution,
                ..ServerTools::default()
            },
            include_tool_results: true,
            ..WireOptions::new("gpt-5")
        }
    }

    #[test]
    fn the_tools_follow_the_function_tools_and_parallel_calls_go_off() {
        let mut body = Map::new();
        body.insert("tools".into(), json!([{"type": "function", "name": "f"}]));
        add(&mut body, &options(true, true));
        assert_eq!(
            body["tools"],
            json!([
                {"type": "function", "name": "f"},
                {"type": "web_search"},
                {"type": "code_interpreter", "container": {"type": "auto"}},
            ])
        );
        assert_eq!(body["parallel_tool_calls"], json!(false));
        assert_eq!(body["include"], json!([SEARCH_SOURCES, CODE_OUTPUTS]));
        let mut plain = Map::new();
        add(&mut plain, &options(false, false));
        assert!(plain.is_empty());
    }

    #[test]
    fn include_asks_only_for_the_enabled_tools_and_keeps_the_configs_values() {
        let mut body = Map::new();
        add(&mut body, &options(false, true));
        assert_eq!(body["include"], json!([CODE_OUTPUTS]));

        let mut configured = options(true, true);
        configured.passthrough.insert(
            "include".into(),
            json!(["reasoning.encrypted_content", SEARCH_SOURCES]),
        );
        let mut body = Map::new();
        add(&mut body, &configured);
        assert_eq!(
            body["include"],
            json!(["reasoning.encrypted_content", SEARCH_SOURCES, CODE_OUTPUTS])
        );
    }

    #[test]
    fn xai_is_not_asked_for_include_values_it_does_not_document() {
        let mut grok = options(true, true);
        grok.include_tool_results = false;
        let mut body = Map::new();
        add(&mut body, &grok);
        assert!(!body.contains_key("include"), "{body:?}");
        assert_eq!(body["tools"][0], json!({"type": "web_search"}));
    }

    #[test]
    fn the_configs_search_context_size_goes_on_the_web_search_tool() {
        let mut sized = options(true, false);
        sized
            .search_options
            .insert("search_context_size".into(), json!("low"));
        let mut body = Map::new();
        add(&mut body, &sized);
        assert_eq!(
            body["tools"],
            json!([{"type": "web_search", "search_context_size": "low"}])
        );
        assert!(!body.contains_key("search_context_size"));
    }

    #[test]
    fn x_search_goes_between_web_search_and_code_as_massgen_orders_them() {
        let mut grok = options(true, true);
        grok.server_tools.x_search = true;
        grok.include_tool_results = false;
        let mut body = Map::new();
        add(&mut body, &grok);
        assert_eq!(
            body["tools"],
            json!([
                {"type": "web_search"},
                {"type": "x_search"},
                {"type": "code_interpreter", "container": {"type": "auto"}},
            ])
        );
        assert_eq!(body["parallel_tool_calls"], json!(false));
        let mut alone = options(false, false);
        alone.server_tools.x_search = true;
        let mut body = Map::new();
        add(&mut body, &alone);
        assert_eq!(body["tools"], json!([{"type": "x_search"}]));
        assert_eq!(body["parallel_tool_calls"], json!(false));
    }
}
