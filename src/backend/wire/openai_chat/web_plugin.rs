//! OpenRouter's web search over Chat Completions, as MassGen 0.1.97 sends it:
//! `plugins: [{"id": "web", "engine": "exa", "max_results": 5}]` (the backend's `engine`,
//! `max_results` and `search_prompt` keys tune it, `search_context_size` becomes
//! `web_search_options`), and the pages the answer cites (`url_citation` annotations),
//! reported as a tool card. The config allows `enable_web_search` on no other Chat
//! Completions backend.

use serde_json::{Map, Value, json};

use crate::config::ServerTools;
use crate::protocol::{ProviderToolCall, Source};

/// MassGen's defaults for the plugin.
const DEFAULT_ENGINE: &str = "exa";
const DEFAULT_MAX_RESULTS: u64 = 5;

/// Adds the web plugin; the tuning keys, sent as passthrough, move into it.
pub(super) fn add(body: &mut Map<String, Value>, tools: ServerTools) {
    if !tools.web_search {
        return;
    }
    let engine = body
        .remove("engine")
        .unwrap_or_else(|| json!(DEFAULT_ENGINE));
    let max_results = body
        .remove("max_results")
        .unwrap_or_else(|| json!(DEFAULT_MAX_RESULTS));
    let mut plugin = json!({"id": "web", "engine": engine, "max_results": max_results});
    if let Some(prompt) = body.remove("search_prompt") {
        plugin["search_prompt"] = prompt;
    }
    if let Some(size) = body.remove("search_context_size") {
        body.entry("web_search_options")
            .or_insert_with(|| json!({"search_context_size": size}));
    }
    match body.get_mut("plugins").and_then(Value::as_array_mut) {
        Some(plugins) => plugins.push(plugin),
        None => {
            body.insert("plugins".into(), json!([plugin]));
        }
    }
}

/// Adds a delta's `url_citation` annotations to `cited`, each page once.
pub(super) fn cite(annotations: &[Value], cited: &mut Vec<Source>) {
    for annotation in annotations {
        if annotation.get("type").and_then(Value::as_str) != Some("url_citation") {
            continue;
        }
        let citation = annotation.get("url_citation").unwrap_or(annotation);
        let Some(url) = citation.get("url").and_then(Value::as_str) else {
            continue;
        };
        if !cited.iter().any(|known| known.url == url) {
            let title = citation.get("title").and_then(Value::as_str).unwrap_or("");
            cited.push(Source {
                title: title.to_string(),
                url: url.to_string(),
            });
        }
    }
}

/// The card for the pages an answer cites.
pub(super) fn card(cited: Vec<Source>) -> ProviderToolCall {
    ProviderToolCall {
        call_id: "web_search".into(),
        tool: "web_search".into(),
        input: String::new(),
        sources: cited,
        output: String::new(),
        ok: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_takes_the_tuning_keys_and_defaults_to_massgens() {
        let search = ServerTools {
            web_search: true,
            x_search: false,
            code_execution: false,
        };
        let mut body = Map::new();
        add(&mut body, search);
        assert_eq!(
            body["plugins"],
            json!([{"id": "web", "engine": "exa", "max_results": 5}])
        );
        let mut tuned = Map::new();
        tuned.insert("engine".into(), json!("native"));
        tuned.insert("max_results".into(), json!(3));
        tuned.insert("search_context_size".into(), json!("high"));
        add(&mut tuned, search);
        assert_eq!(
            tuned["plugins"],
            json!([{"id": "web", "engine": "native", "max_results": 3}])
        );
        assert_eq!(
            tuned["web_search_options"],
            json!({"search_context_size": "high"})
        );
        assert!(!tuned.contains_key("engine"));
        let mut off = Map::new();
        off.insert("engine".into(), json!("native"));
        add(&mut off, ServerTools::default());
        assert_eq!(off.len(), 1);
    }
}
