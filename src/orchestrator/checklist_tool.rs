//! The `submit_checklist` tool of checklist-gated voting, with MassGen's name, description
//! and parameters, and the reading of its calls; the turn driver judges them.

use serde_json::{Value, json};

use crate::backend::ToolSpec;

pub const SUBMIT_CHECKLIST: &str = "submit_checklist";

/// MassGen's addition to the description under `criteria_mode: bootstrap_inline`.
const PROPOSE_HINT: &str = " ALSO emit 'proposed_criteria': a short list (<=3) of criterion \
                            objects {\"text\": \"...\", \"category\": \
                            \"primary|standard|stretch\", \"anti_patterns\": [\"...\"]} \
                            describing quality dimensions a stronger answer would satisfy \
                            that the current answers do NOT. These flow into subsequent \
                            rounds' checklist. Skip only when no genuine gap is visible — at \
                            most one round in three should skip entirely.";

/// The tool; `propose_criteria` (bootstrap_inline) adds MassGen's `proposed_criteria`.
pub fn spec(propose_criteria: bool) -> ToolSpec {
    let mut spec = base_spec();
    if propose_criteria {
        spec.description.push_str(PROPOSE_HINT);
        spec.parameters["properties"]["proposed_criteria"] = json!({
            "type": "array",
            "description": "Optional list of new evaluation criteria a stronger answer would satisfy that the current answers do NOT yet satisfy. Each entry: {\"text\": str, \"category\": \"primary\"|\"standard\"|\"stretch\", \"anti_patterns\": [str, ...]}. Keep short (<=3). Skip when no gap is visible.",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "category": {"type": "string"},
                    "anti_patterns": {"type": "array", "items": {"type": "string"}}
                },
                "required": ["text"]
            }
        });
    }
    spec
}

fn base_spec() -> ToolSpec {
    ToolSpec {
        name: SUBMIT_CHECKLIST.into(),
        description: "Submit your checklist evaluation. When multiple agents exist, scores must \
                      use per-agent format: {\"agent1.1\": {\"E1\": {\"score\": 8, \
                      \"reasoning\": \"...\"}, ...}, \"agent2.1\": {...}}. Each score entry \
                      needs 'score' (0-10) and 'reasoning'. Use 'report_path' to pass a \
                      markdown gap report when required."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "scores": {
                    "type": "object",
                    "description": "Your confidence scores with reasoning for each checklist item. Use the latest answer label of every agent whose answer you have seen as the keys (\"agent1.2\", \"agent2.1\"); each maps criterion IDs to {\"score\": N, \"reasoning\": \"...\"} objects. With only your own answer, flat format: {\"E1\": {\"score\": N, \"reasoning\": \"...\"}, ...}.",
                    "additionalProperties": true
                },
                "report_path": {
                    "type": "string",
                    "description": "Path to the markdown gap report in the workspace. Required when checklist report gating is enabled."
                }
            },
            "required": ["scores"]
        }),
    }
}

/// The `proposed_criteria` of a call as sent (`Null` when absent or unreadable).
pub fn proposed_criteria(arguments: &str) -> Value {
    serde_json::from_str::<Value>(arguments)
        .ok()
        .and_then(|arguments| arguments.get("proposed_criteria").cloned())
        .unwrap_or(Value::Null)
}

/// The `scores` object of a call; a JSON string holding it is read too (some models send
/// one). The error text goes back to the model.
pub fn scores(arguments: &str) -> Result<Value, String> {
    let arguments: Value = if arguments.trim().is_empty() {
        json!({})
    } else {
        serde_json::from_str(arguments).map_err(|error| {
            format!(
                "The arguments of `{SUBMIT_CHECKLIST}` are not valid JSON ({error}). Call it \
                 again with a JSON object."
            )
        })?
    };
    match arguments.get("scores") {
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(parsed @ Value::Object(_)) => Ok(parsed),
            _ => Err("scores must be a JSON object, not a string".into()),
        },
        Some(scores @ Value::Object(_)) => Ok(scores.clone()),
        Some(_) => Err("scores must be a JSON object".into()),
        None => Err(format!(
            "`{SUBMIT_CHECKLIST}` is missing the required `scores` argument."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_come_as_an_object_or_a_json_string_of_one() {
        let object = scores(r#"{"scores": {"E1": 8}}"#).unwrap();
        assert_eq!(object, json!({"E1": 8}));
        let string = scores(r#"{"scores": "{\"E1\": 8}"}"#).unwrap();
        assert_eq!(string, object);
        assert!(
            scores(r#"{"scores": "E1 is 8"}"#)
                .unwrap_err()
                .contains("not a string")
        );
        assert!(
            scores(r#"{"scores": 8}"#)
                .unwrap_err()
                .contains("JSON object")
        );
        assert!(scores("{}").unwrap_err().contains("missing"));
        assert!(scores("{oops").unwrap_err().contains("not valid JSON"));
        assert_eq!(spec(false).parameters["required"], json!(["scores"]));
    }

    #[test]
    fn proposed_criteria_appear_only_when_agents_may_propose() {
        let plain = spec(false);
        assert!(
            plain.parameters["properties"]
                .get("proposed_criteria")
                .is_none()
        );
        assert!(!plain.description.contains("proposed_criteria"));
        let bootstrap = spec(true);
        let schema = &bootstrap.parameters["properties"]["proposed_criteria"];
        assert_eq!(schema["items"]["required"], json!(["text"]));
        assert!(bootstrap.description.ends_with("should skip entirely."));
        let sent = proposed_criteria(r#"{"scores": {}, "proposed_criteria": [{"text": "x"}]}"#);
        assert_eq!(sent, json!([{"text": "x"}]));
        assert_eq!(proposed_criteria(r#"{"scores": {}}"#), Value::Null);
    }
}
