//! The backend keys that tune the provider's web search, read where they take effect:
//! OpenRouter's web plugin (`engine`, `max_results`, `search_prompt`) and its
//! `web_search_options` (`search_context_size`), as MassGen 0.1.97 sends them with
//! `enable_web_search: true`, checked as MassGen checks them; and `search_context_size` on
//! OpenAI, the documented option of its `web_search` tool (MassGen sends it there as a
//! request field, which OpenAI refuses). Anywhere else each one is noted, not sent.

use super::Note;
use crate::config::backend_kind::BackendKind;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::yaml_node::Entry;

type JsonMap = serde_json::Map<String, serde_json::Value>;

pub(super) const KEYS: [&str; 4] = [
    "engine",
    "max_results",
    "search_prompt",
    "search_context_size",
];

/// MassGen's `OPENROUTER_VALID_WEB_ENGINES` and `…_SEARCH_CONTEXT_SIZES`.
const ENGINES: [&str; 2] = ["exa", "native"];
const CONTEXT_SIZES: [&str; 3] = ["low", "medium", "high"];

/// The keys that take effect on this backend, checked; a note for each other one set.
pub(super) fn read(
    kind: BackendKind,
    base_url: Option<&str>,
    web_search: bool,
    backend: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<JsonMap, Problem> {
    let openrouter = kind == BackendKind::Openrouter
        || (kind == BackendKind::Chatcompletion
            && base_url.is_some_and(|url| url.to_ascii_lowercase().contains("openrouter.ai")));
    let mut options = JsonMap::new();
    for entry in backend
        .entries
        .iter()
        .filter(|entry| KEYS.contains(&entry.key.as_str()))
    {
        let key = entry.key.as_str();
        let applies = web_search
            && (openrouter || (kind == BackendKind::Openai && key == "search_context_size"));
        if !applies {
            notes.push(note(entry, &backend.key_path(key)));
            continue;
        }
        options.insert(key.to_string(), checked(backend, key)?);
    }
    Ok(options)
}

/// The value, or the error MassGen would raise when it builds the request.
fn checked(backend: &Fields<'_>, key: &str) -> Result<serde_json::Value, Problem> {
    let loc = backend.get(key).map_or(backend.loc(), |node| node.loc);
    let one_of = |allowed: &[&str], value: Option<String>| -> Result<serde_json::Value, Problem> {
        match value {
            Some(value) if allowed.contains(&value.as_str()) => Ok(value.into()),
            written => Err(Problem::at(
                loc,
                format!(
                    "`{}` is {}; it must be one of {}",
                    backend.key_path(key),
                    written.map_or_else(|| "empty".to_string(), |value| format!("`{value}`")),
                    allowed.join(", ")
                ),
            )
            .help(format!("write `{key}: {}`", allowed[0]))),
        }
    };
    match key {
        "engine" => one_of(&ENGINES, backend.string(key)?),
        "search_context_size" => one_of(&CONTEXT_SIZES, backend.string(key)?),
        "max_results" => match backend.unsigned(key)? {
            Some(count) if count > 0 => Ok(count.into()),
            Some(_) | None => Err(Problem::at(
                loc,
                format!(
                    "`{}` must be a positive number of results",
                    backend.key_path(key)
                ),
            )
            .help("write `max_results: 5` (MassGen's default)")),
        },
        _ => Ok(backend.string(key)?.unwrap_or_default().into()),
    }
}

fn note(entry: &Entry, path: &str) -> Note {
    let what = if entry.key == "search_context_size" {
        "MassGen would send it as OpenRouter's `web_search_options` on an OpenRouter backend \
         with `enable_web_search: true`; massgen does, and gives it to OpenAI's `web_search` \
         tool too, but on this backend (or without `enable_web_search: true`) it changes \
         nothing"
    } else {
        "MassGen would tune OpenRouter's web search plugin with it on an OpenRouter backend \
         with `enable_web_search: true`; massgen does the same, but on this backend (or \
         without `enable_web_search: true`) it changes nothing"
    };
    Note {
        loc: Some(entry.key_loc),
        message: format!("ignored: {path} — {what}"),
        ignored: Some(path.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::config::{BackendConfig, Env, from_text};

    fn load(backend: &str) -> Result<(BackendConfig, Vec<String>), String> {
        let text = format!("agents:\n  - id: a\n    backend: {{{backend}}}\n");
        let loaded = from_text(&text, "s.yaml", &Env::default()).map_err(|e| e.to_string())?;
        let warnings = loaded.warnings.into_iter().map(|w| w.message).collect();
        Ok((loaded.config.agents[0].backend.clone(), warnings))
    }

    #[test]
    fn openrouter_takes_all_four_with_web_search_and_openai_the_context_size() {
        let (backend, warnings) = load(
            "type: openrouter, model: openai/gpt-4o, enable_web_search: true, engine: native, \
             max_results: 3, search_prompt: 'Sources:', search_context_size: high",
        )
        .unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            serde_json::Value::Object(backend.search_options),
            json!({"engine": "native", "max_results": 3, "search_prompt": "Sources:",
                   "search_context_size": "high"})
        );
        assert!(backend.passthrough.is_empty());
        let (backend, warnings) = load(
            "type: openai, model: gpt-5, enable_web_search: true, search_context_size: low, \
             engine: exa",
        )
        .unwrap();
        assert_eq!(backend.search_options["search_context_size"], "low");
        assert!(!backend.search_options.contains_key("engine"));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].starts_with("ignored: agents[0].backend.engine — MassGen would tune"));
    }

    #[test]
    fn without_web_search_or_on_other_backends_they_are_noted() {
        for backend in [
            "type: openrouter, model: m, search_context_size: low",
            "type: grok, model: grok-4, enable_web_search: true, search_context_size: low",
        ] {
            let (config, warnings) = load(backend).unwrap();
            assert!(config.search_options.is_empty(), "{backend}");
            assert_eq!(warnings.len(), 1, "{backend}: {warnings:?}");
            assert!(
                warnings[0].contains("OpenRouter's `web_search_options`"),
                "{warnings:?}"
            );
        }
    }

    #[test]
    fn values_massgen_would_refuse_are_refused_at_load() {
        let search = "type: openrouter, model: m, enable_web_search: true";
        for (setting, expected) in [
            (
                "engine: bing",
                "`agents[0].backend.engine` is `bing`; it must be one of exa, native",
            ),
            (
                "max_results: 0",
                "`agents[0].backend.max_results` must be a positive number",
            ),
            (
                "search_context_size: huge",
                "`agents[0].backend.search_context_size` is `huge`; it must be one of low, medium, high",
            ),
        ] {
            let error = load(&format!("{search}, {setting}")).unwrap_err();
            assert!(error.contains(expected), "{setting}: {error}");
        }
    }
}
