//! Gemini request options as MassGen maps them onto `GenerateContentConfig`: generation
//! settings under `generationConfig` (camelCased), `safetySettings` / `toolConfig` /
//! `cachedContent` at the top level, built-in `tools`, and MassGen's shorthands
//! `thinking`, `include_thoughts`, `thinking_budget` and `function_calling_mode`.

use serde_json::{Map, Value, json};

use crate::backend::wire::WireOptions;

/// Request fields a passthrough option may set beside `generationConfig`; any other option
/// is a generation setting (`thinkingConfig`, `topP`, …).
const TOP_LEVEL: [&str; 5] = [
    "safetySettings",
    "toolConfig",
    "cachedContent",
    "contents",
    "systemInstruction",
];

/// Model families that think, for which MassGen asks for the thoughts when the config says
/// nothing about thinking.
const THINKING_MODELS: [&str; 4] = [
    "gemini-2.5",
    "gemini-3",
    "gemini-exp",
    "gemini-2.0-flash-thinking",
];

/// Where each option goes.
#[derive(Default)]
pub(super) struct Routed {
    pub top: Map<String, Value>,
    pub generation: Map<String, Value>,
    pub tools: Vec<Value>,
}

pub(super) fn route(options: &WireOptions) -> Routed {
    let mut routed = Routed::default();
    let mut thinking = Map::new();
    let mut thinking_asked = false;
    for (key, value) in &options.passthrough {
        let key = lower_camel(key);
        match (key.as_str(), value) {
            ("generationConfig", Value::Object(settings)) => {
                for (name, setting) in settings {
                    routed
                        .generation
                        .entry(lower_camel(name))
                        .or_insert_with(|| setting.clone());
                }
            }
            // Built-in tools (`googleSearch`, `codeExecution`, …) beside our functions.
            ("tools", Value::Array(extra)) => routed.tools.extend(extra.iter().cloned()),
            ("thinkingConfig" | "thinking", Value::Object(settings)) => {
                thinking_asked = true;
                for (name, setting) in settings {
                    thinking
                        .entry(lower_camel(name))
                        .or_insert_with(|| setting.clone());
                }
            }
            ("thinking" | "includeThoughts", Value::Bool(on)) => {
                thinking_asked = true;
                thinking.entry("includeThoughts").or_insert(json!(on));
            }
            ("thinkingBudget", budget) => {
                thinking
                    .entry("thinkingBudget")
                    .or_insert_with(|| budget.clone());
            }
            ("functionCallingMode", Value::String(mode)) => {
                let mode = mode.to_ascii_uppercase();
                if ["AUTO", "ANY", "NONE"].contains(&mode.as_str()) {
                    routed
                        .top
                        .entry("toolConfig")
                        .or_insert_with(|| json!({"functionCallingConfig": {"mode": mode}}));
                }
            }
            (name, _) if TOP_LEVEL.contains(&name) => {
                routed.top.entry(key).or_insert_with(|| value.clone());
            }
            _ => {
                routed
                    .generation
                    .entry(key)
                    .or_insert_with(|| value.clone());
            }
        }
    }
    let model = options.model.to_ascii_lowercase();
    if !thinking_asked && THINKING_MODELS.iter().any(|family| model.contains(family)) {
        thinking.insert("includeThoughts".into(), json!(true));
    }
    if !thinking.is_empty() {
        routed
            .generation
            .insert("thinkingConfig".into(), Value::Object(thinking));
    }
    routed
}

/// `top_p` → `topP`; names already in lowerCamelCase stay as they are.
pub(super) fn lower_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for character in name.chars() {
        if character == '_' && !out.is_empty() {
            upper = true;
        } else if upper {
            out.extend(character.to_uppercase());
            upper = false;
        } else {
            out.push(character);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(model: &str, pairs: &[(&str, Value)]) -> Routed {
        let mut options = WireOptions::new(model);
        for (key, value) in pairs {
            options.passthrough.insert((*key).into(), value.clone());
        }
        route(&options)
    }

    #[test]
    fn option_names_become_lower_camel_case() {
        assert_eq!(lower_camel("top_p"), "topP");
        assert_eq!(lower_camel("thinking_config"), "thinkingConfig");
        assert_eq!(lower_camel("topK"), "topK");
        assert_eq!(lower_camel("_private"), "_private");
    }

    #[test]
    fn thinking_models_get_their_thoughts_unless_the_config_decides() {
        let routed = with("gemini-2.5-flash", &[]);
        assert_eq!(
            routed.generation["thinkingConfig"],
            json!({"includeThoughts": true})
        );
        assert!(with("gemini-1.5-pro", &[]).generation.is_empty());
        let off = with("gemini-2.5-pro", &[("include_thoughts", json!(false))]);
        assert_eq!(
            off.generation["thinkingConfig"],
            json!({"includeThoughts": false})
        );
        let dict = with(
            "gemini-2.5-pro",
            &[("thinking_config", json!({"thinking_budget": 1024}))],
        );
        assert_eq!(
            dict.generation["thinkingConfig"],
            json!({"thinkingBudget": 1024})
        );
        let shorthand = with(
            "gemini-2.5-pro",
            &[("thinking", json!(true)), ("thinking_budget", json!(-1))],
        );
        assert_eq!(
            shorthand.generation["thinkingConfig"],
            json!({"includeThoughts": true, "thinkingBudget": -1})
        );
    }

    #[test]
    fn function_calling_mode_becomes_the_tool_config() {
        let routed = with("gemini-2.5-pro", &[("function_calling_mode", json!("any"))]);
        assert_eq!(
            routed.top["toolConfig"],
            json!({"functionCallingConfig": {"mode": "ANY"}})
        );
        let bad = with(
            "gemini-2.5-pro",
            &[("function_calling_mode", json!("sometimes"))],
        );
        assert!(bad.top.is_empty());
    }
}
