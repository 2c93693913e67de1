//! OpenRouter's web search over Chat Completions, as MassGen 0.1.97 sends it:
//! `plugins: [{"id": "web", "engine": "exa", "max_results": 5}]` (the backend's `engine`,
//! `max_results` and `search_prompt` keys tune it, `search_context_size` becomes
//! `web_search_options`; the config keeps them in `search_options`), and the pages the
//! answer cites (`url_citation` annotations), reported as a tool card. The config allows
//! `enable_web_search` on no other Chat Completions backend.

use serde_json::{Map, Value, json};

use crate::backend::wire::WireOptions;
use crate::protocol::{ProviderToolCall, Source};

/// MassGen's defaults for the plugin.
const DEFAULT_ENGINE: &str = "exa";
const DEFAULT_MAX_RESULTS: u64 = 5;

/// Adds the web plugin, tuned by the config's search options.
pub(super) fn add(body: &mut Map<String, Value>, options: &WireOptions) {
    if !options.server_tools.web_search {
        return;
    }
    let tuning = &options.search_options;
    let setting = |key: &str, default: Value| tuning.get(key).cloned().unwrap_or(default);
    let mut plugin = json!({
        "id": "web",
        "engine": setting("engine", json!(DEFAULT_ENGINE)),
        "max_results": setting("max_results", json!(DEFAULT_MAX_RESULTS)),
    });
    if let Some(prompt) = tuning.get("search_prompt") {
        plugin["search_prompt"] = prompt.clone();
    }
    if let Some(size) = tuning.get("search_context_size") {
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
    use crate::config::ServerTools;

    #[test]
    fn the_plugin_takes_the_tuning_keys_and_defaults_to_massgens() {
        let mut search = WireOptions::new("openai/gpt-4o");
        search.server_tools = ServerTools {
            web_search: true,
            ..ServerTools::default()
        };
        let mut body = Map::new();
        add(&mut body, &search);
        assert_eq!(
            body["plugins"],
            json!([{"id": "web", "engine": "exa", "max_results": 5}])
        );
        let mut tuned = search.clone();
        for (key, value) in [
            ("engine", json!("native")),
            ("max_results", json!(3)),
            ("search_prompt", json!("Sources:")),
            ("search_context_size", json!("high")),
        ] {
            tuned.search_options.insert(key.into(), value);
        }
        let mut body = Map::new();
        add(&mut body, &tuned);
        assert_eq!(
            body["plugins"],
            json!([{"id": "web", "engine": "native", "max_results": 3, "search_prompt": "Sources:"}])
        );
        assert_eq!(
            body["web_search_options"],
            json!({"search_context_size": "high"})
        );
        assert!(!body.contains_key("engine"));
        let mut off = tuned;
        off.server_tools = ServerTools::default();
        let mut body = Map::new();
        add(&mut body, &off);
        assert!(body.is_empty());
    }
}
