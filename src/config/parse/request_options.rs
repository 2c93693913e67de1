//! A backend's request options: the keys that go into the provider's request body, the
//! `extra_body` merged into it, Anthropic's `betas` header, and one warning for each key
//! that is not sent.

use super::key_table::KeyTable;
use super::{Note, unsupported_note};
use crate::config::backend_kind::BackendKind;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::key_notes::Section;
use crate::config::provider_options::{self, Verdict};
use crate::config::yaml_node::Entry;

type JsonMap = serde_json::Map<String, serde_json::Value>;

/// What a backend block asks to send beyond massgen's own request fields.
#[derive(Default)]
pub(super) struct RequestOptions {
    pub passthrough: JsonMap,
    pub extra_body: JsonMap,
    pub betas: Vec<String>,
}

impl RequestOptions {
    /// Sorts one key that is not a common or tool key: a provider option is kept, anything
    /// else gets a note saying it is not sent.
    pub(super) fn sort(
        &mut self,
        kind: BackendKind,
        base_url: Option<&str>,
        entry: &Entry,
        path: &str,
        notes: &mut Vec<Note>,
    ) {
        let api = match provider_options::classify(kind, base_url, &entry.key) {
            Verdict::Send => {
                self.passthrough
                    .insert(entry.key.clone(), entry.value.to_json());
                return;
            }
            Verdict::MassGen => {
                notes.push(unsupported_note(entry, path, Section::Backend));
                return;
            }
            Verdict::Owned(api) => {
                notes.push(ignored(
                    entry,
                    path,
                    format!("massgen sets this field of {} itself", api.name()),
                ));
                return;
            }
            Verdict::Unknown(api) => api,
        };
        let table = KeyTable::backend(kind);
        let suggestion = table
            .suggest(&entry.key, provider_options::options_of(kind))
            .map(|close| format!(" (did you mean `{close}`?)"))
            .unwrap_or_default();
        notes.push(ignored(
            entry,
            path,
            format!(
                "not an option of {}{suggestion}; to send it anyway, put it under `extra_body`",
                api.name()
            ),
        ));
    }

    /// Reads `extra_body` (a mapping) and `betas` (Anthropic's beta names).
    pub(super) fn read_own_keys(
        &mut self,
        kind: BackendKind,
        backend: &Fields<'_>,
        notes: &mut Vec<Note>,
    ) -> Result<(), Problem> {
        if let Some(node) = backend.get("extra_body") {
            match node.to_json() {
                serde_json::Value::Object(map) => self.extra_body = map,
                serde_json::Value::Null
                | serde_json::Value::Bool(_)
                | serde_json::Value::Number(_)
                | serde_json::Value::String(_)
                | serde_json::Value::Array(_) => {
                    return Err(backend.wrong_type(
                        "extra_body",
                        node,
                        "a mapping of request fields",
                        "extra_body: {chat_template_kwargs: {enable_thinking: true}}",
                    ));
                }
            }
        }
        let betas = backend.strings("betas")?;
        if betas.is_empty() {
            return Ok(());
        }
        if kind == BackendKind::Claude {
            self.betas = betas;
        } else if let Some(entry) = backend.entries.iter().find(|entry| entry.key == "betas") {
            notes.push(ignored(
                entry,
                &backend.key_path("betas"),
                "Anthropic beta headers apply to `type: claude` only".into(),
            ));
        }
        Ok(())
    }

    /// Anthropic refuses `temperature` other than 1 and any `top_k` with extended
    /// thinking: the request leaves them out, and the config says so.
    pub(super) fn check_thinking(
        &self,
        kind: BackendKind,
        backend: &Fields<'_>,
        temperature: Option<f64>,
        notes: &mut Vec<Note>,
    ) {
        let thinking = self
            .passthrough
            .get("thinking")
            .and_then(|thinking| thinking.get("type"))
            .and_then(serde_json::Value::as_str)
            .is_some_and(|kind| kind != "disabled");
        if kind != BackendKind::Claude || !thinking {
            return;
        }
        let refused = [
            ("temperature", temperature.is_some_and(|value| value != 1.0)),
            ("top_k", self.passthrough.contains_key("top_k")),
        ];
        for (key, set) in refused {
            if let Some(entry) = backend.entries.iter().find(|entry| entry.key == key)
                && set
            {
                notes.push(ignored(
                    entry,
                    &backend.key_path(key),
                    "Anthropic allows no custom `temperature` or `top_k` with `thinking`; \
                     it is left out of the request"
                        .into(),
                ));
            }
        }
    }
}

fn ignored(entry: &Entry, path: &str, why: String) -> Note {
    Note {
        loc: Some(entry.key_loc),
        message: format!("ignored: {path} — {why}"),
        ignored: Some(path.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::config::{BackendConfig, Env, from_text};

    /// The first agent's backend and every warning, for a backend block written inline.
    fn load(backend: &str) -> (BackendConfig, Vec<String>) {
        let text = format!("agents:\n  - id: a\n    backend:\n{backend}");
        let loaded = from_text(&text, "c.yaml", &Env::default()).unwrap();
        let warnings = loaded
            .warnings
            .iter()
            .map(|warning| warning.message.clone())
            .collect();
        (loaded.config.agents[0].backend.clone(), warnings)
    }

    #[test]
    fn an_unknown_key_is_not_sent_and_says_where_to_put_it() {
        let (backend, warnings) =
            load("      type: openai\n      model: gpt-5\n      foo: 1\n      top_p: 0.5\n");
        assert_eq!(
            backend.passthrough,
            json!({"top_p": 0.5}).as_object().cloned().unwrap()
        );
        assert_eq!(
            warnings,
            [
                "ignored: agents[0].backend.foo — not an option of the OpenAI Responses API; \
              to send it anyway, put it under `extra_body`"
            ]
        );
    }

    #[test]
    fn a_misspelt_option_gets_a_suggestion() {
        let (backend, warnings) =
            load("      type: claude\n      model: claude-sonnet-4-5\n      stop_sequence: [x]\n");
        assert!(backend.passthrough.is_empty());
        assert_eq!(
            warnings,
            [
                "ignored: agents[0].backend.stop_sequence — not an option of the Anthropic \
              Messages API (did you mean `stop_sequences`?); to send it anyway, put it under \
              `extra_body`"
            ]
        );
    }

    #[test]
    fn massgen_keys_and_fields_massgen_sets_are_never_sent() {
        let (backend, warnings) = load(
            "      type: chatcompletion\n      model: m\n      base_url: http://localhost:1/v1\n      \
             n: 3\n      websocket_mode: true\n",
        );
        assert!(backend.passthrough.is_empty());
        assert_eq!(
            warnings,
            [
                "ignored: agents[0].backend.n — massgen sets this field of the Chat Completions \
                 API itself",
                "ignored: agents[0].backend.websocket_mode — MassGen would talk to the OpenAI \
                 Responses API over a WebSocket; massgen streams over HTTP (server-sent events)",
            ]
        );
    }

    #[test]
    fn extra_body_and_betas_are_read_apart_from_the_options() {
        let (backend, warnings) = load(
            "      type: claude\n      model: claude-sonnet-4-5\n      betas: [computer-use-2025-01-24]\n      \
             extra_body: {foo: {bar: 1}}\n",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(backend.passthrough.is_empty());
        assert_eq!(backend.betas, ["computer-use-2025-01-24"]);
        assert_eq!(backend.extra_body["foo"], json!({"bar": 1}));
        let (backend, warnings) = load("      type: gemini\n      model: g\n      betas: [x]\n");
        assert!(backend.betas.is_empty());
        assert_eq!(
            warnings,
            [
                "ignored: agents[0].backend.betas — Anthropic beta headers apply to `type: claude` only"
            ]
        );
        let error = from_text(
            "agents:\n  - id: a\n    backend: {type: openai, model: m, extra_body: [1]}\n",
            "c.yaml",
            &Env::default(),
        )
        .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`agents[0].backend.extra_body` must be a mapping"),
            "{error}"
        );
    }

    #[test]
    fn thinking_warns_about_temperature_and_top_k() {
        let (backend, warnings) = load(
            "      type: claude\n      model: claude-sonnet-4-5\n      temperature: 0.2\n      top_k: 5\n      \
             thinking: {type: enabled, budget_tokens: 2048}\n",
        );
        assert_eq!(backend.passthrough["thinking"]["budget_tokens"], 2048);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].starts_with("ignored: agents[0].backend.temperature — Anthropic"));
        assert!(warnings[1].starts_with("ignored: agents[0].backend.top_k — Anthropic"));
    }

    #[test]
    fn organization_is_read_for_openai_and_grok_and_noted_elsewhere() {
        for kind in ["openai", "grok"] {
            let (backend, warnings) = load(&format!(
                "      type: {kind}\n      model: m\n      organization: org-AbC123\n"
            ));
            assert!(warnings.is_empty(), "{warnings:?}");
            assert_eq!(backend.organization.as_deref(), Some("org-AbC123"));
            assert!(backend.passthrough.is_empty());
        }
        let (backend, warnings) =
            load("      type: claude\n      model: m\n      organization: org-AbC123\n");
        assert_eq!(backend.organization, None);
        assert_eq!(
            warnings,
            [
                "ignored: agents[0].backend.organization — MassGen sends it as the \
                 `OpenAI-Organization` header of its `openai` and `grok` backends only; massgen \
                 does the same, so on `claude` it changes nothing"
            ]
        );
        let error = from_text(
            "agents:\n  - id: a\n    backend: {type: openai, model: m, organization: 'org 1'}\n",
            "c.yaml",
            &Env::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("`agents[0].backend.organization` is not an organization id"),
            "{error}"
        );
    }

    #[test]
    fn azure_reads_its_endpoint_from_azure_endpoint_too() {
        let (backend, warnings) = load(
            "      type: azure_openai\n      model: gpt-4o\n      azure_endpoint: https://me.openai.azure.com\n",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            backend.base_url.as_deref(),
            Some("https://me.openai.azure.com")
        );
    }
}
