//! The `draft_approach` tool of checklist-gated voting, with MassGen 0.1.97's name,
//! description and parameters, offered beside `submit_checklist`; the turn driver judges
//! its calls.

use serde_json::{Value, json};

use crate::backend::ToolSpec;

pub const DRAFT_APPROACH: &str = "draft_approach";

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: DRAFT_APPROACH.into(),
        description: "Propose what to build for your next answer. Must be called after \
                      submit_checklist returns an iterate verdict. Pass 'plan' mapping \
                      criterion IDs to lists of entries with 'plan' (what to do) and 'sources' \
                      (which answers to draw from, or 'fresh' for new ideas). Optionally pass \
                      'preserve' for elements worth keeping from existing answers."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "vision": {
                    "type": "string",
                    "description": "Optional north star: what the ideal output would look like, independent of existing answers. Guides execution toward excellence rather than incremental fixes."
                },
                "plan": {
                    "type": "object",
                    "description": "Map of criterion ID to list of entries describing what to build. Each entry has 'plan' (what to do) and 'sources' (which existing answers to draw from, or 'fresh' for new ideas). Must cover ALL failing criteria.",
                    "additionalProperties": {
                        "type": "array",
                        "items": {
                            "oneOf": [
                                {"type": "string"},
                                {
                                    "type": "object",
                                    "properties": {
                                        "plan": {"type": "string"},
                                        "sources": {"type": "array", "items": {"type": "string"}},
                                        "impact": {"type": "string", "enum": ["transformative", "structural", "incremental"]}
                                    }
                                }
                            ]
                        }
                    }
                },
                "preserve": {
                    "type": "object",
                    "description": "Optional: specific elements from existing answers worth bringing forward. Each entry has 'what' (strength to keep) and 'source' (which answer). Can be empty when building fresh.",
                    "additionalProperties": {
                        "oneOf": [
                            {"type": "string"},
                            {
                                "type": "object",
                                "properties": {
                                    "what": {"type": "string"},
                                    "source": {"type": "string"}
                                }
                            }
                        ]
                    }
                }
            },
            "required": ["plan"]
        }),
    }
}

/// The call's arguments as an object; the error text goes back to the model.
pub fn arguments(arguments: &str) -> Result<Value, String> {
    if arguments.trim().is_empty() {
        return Ok(json!({}));
    }
    match serde_json::from_str::<Value>(arguments) {
        Ok(object @ Value::Object(_)) => Ok(object),
        Ok(_) => Err(format!(
            "The arguments of `{DRAFT_APPROACH}` must be a JSON object."
        )),
        Err(error) => Err(format!(
            "The arguments of `{DRAFT_APPROACH}` are not valid JSON ({error}). Call it again \
             with a JSON object."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_must_be_a_json_object() {
        assert_eq!(arguments(r#"{"plan": {}}"#).unwrap(), json!({"plan": {}}));
        assert_eq!(arguments("").unwrap(), json!({}));
        assert!(arguments("[1]").unwrap_err().contains("JSON object"));
        assert!(arguments("{oops").unwrap_err().contains("not valid JSON"));
        assert_eq!(spec().parameters["required"], json!(["plan"]));
    }
}
