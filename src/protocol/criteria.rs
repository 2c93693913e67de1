//! The evaluation criteria checklist-gated voting scores answers against, and where they
//! came from (MassGen's defaults, a generator call, a file, the config), as the run
//! announces them; and MassGen's reading of a criteria list (`{text, category}` entries).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One criterion, `E1`…`En`, scored 0–10.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalCriterion {
    pub id: String,
    /// `primary` (at most one: where models fall short by default), `standard` or `stretch`.
    pub category: String,
    pub text: String,
}

/// Where the criteria of a turn came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CriteriaSource {
    /// MassGen's static defaults.
    Default,
    /// Written for the task by `evaluation_criteria_generator`'s model call.
    Generated,
    /// `--eval-criteria FILE`.
    File,
    /// `checklist_criteria_inline` in the config.
    Inline,
    /// `checklist_criteria_preset`: one of MassGen's named sets.
    Preset,
    /// The criteria above grown by the agents' proposals (`criteria_mode: bootstrap_inline`).
    Bootstrap,
}

impl CriteriaSource {
    pub fn name(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Generated => "generated",
            Self::File => "file",
            Self::Inline => "inline",
            Self::Preset => "preset",
            Self::Bootstrap => "bootstrap",
        }
    }
}

/// MassGen's category names, its legacy ones mapped (`must`/`core` → standard,
/// `could` → stretch; anything else → standard).
pub fn category_of(raw: Option<&Value>) -> &'static str {
    let raw = raw
        .and_then(Value::as_str)
        .unwrap_or("standard")
        .trim()
        .to_ascii_lowercase();
    match raw.as_str() {
        "primary" => "primary",
        "could" | "stretch" => "stretch",
        _ => "standard",
    }
}

/// A criteria list as MassGen reads `checklist_criteria_inline` and `--eval-criteria`:
/// objects with `text` (or `description`, or `name`) and an optional `category`, numbered
/// `E1`…; the error names the entry that is wrong.
pub fn criteria_from_list(items: &[Value]) -> Result<Vec<EvalCriterion>, String> {
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let number = index + 1;
            let Value::Object(fields) = item else {
                return Err(format!(
                    "criterion {number} must be an object like {{\"text\": \"...\", \
                     \"category\": \"primary|standard|stretch\"}}, not {}",
                    json_type(item)
                ));
            };
            let text = ["text", "description", "name"]
                .iter()
                .filter_map(|key| fields.get(*key).and_then(Value::as_str))
                .map(str::trim)
                .find(|text| !text.is_empty())
                .ok_or_else(|| {
                    let keys: Vec<&str> = fields.keys().map(String::as_str).collect();
                    format!(
                        "criterion {number} has no `text` (its keys: {})",
                        if keys.is_empty() {
                            "none".to_string()
                        } else {
                            keys.join(", ")
                        }
                    )
                })?;
            Ok(EvalCriterion {
                id: format!("E{number}"),
                category: category_of(fields.get("category")).to_string(),
                text: text.to_string(),
            })
        })
        .collect()
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_text_or_its_aliases_and_maps_legacy_categories() {
        let list = json!([
            {"text": "Cites sources", "category": "must"},
            {"description": "Is short", "category": "could"},
            {"name": "Is kind", "category": "PRIMARY"},
            {"text": "Works"}
        ]);
        let criteria = criteria_from_list(list.as_array().unwrap()).unwrap();
        let got: Vec<(&str, &str, &str)> = criteria
            .iter()
            .map(|c| (c.id.as_str(), c.category.as_str(), c.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("E1", "standard", "Cites sources"),
                ("E2", "stretch", "Is short"),
                ("E3", "primary", "Is kind"),
                ("E4", "standard", "Works"),
            ]
        );
    }

    #[test]
    fn names_the_entry_without_text() {
        let list = json!([{"text": "ok"}, {"category": "primary"}]);
        let error = criteria_from_list(list.as_array().unwrap()).unwrap_err();
        assert!(error.contains("criterion 2 has no `text`"), "{error}");
        assert!(error.contains("category"), "{error}");
        let error = criteria_from_list(&[json!("plain")]).unwrap_err();
        assert!(error.contains("criterion 1 must be an object"), "{error}");
    }
}
