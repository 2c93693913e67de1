//! The debate's `critique` workflow tool: its schema (the peers' anonymous ids the critic
//! was shown) and the reading of its arguments.

use serde_json::{Value, json};

use crate::backend::ToolSpec;

pub const CRITIQUE: &str = "critique";

/// One critique as the model wrote it: the peer's anonymous id and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CritiqueEntry {
    pub agent: String,
    pub critique: String,
}

/// `critique` over the peers this critic was shown (`agent1`, `agent3`, …).
pub fn critique_spec(peers: &[String]) -> ToolSpec {
    ToolSpec {
        name: CRITIQUE.into(),
        description: "Critique your peers' answers: for each peer you critique, say what is \
                      wrong, missing or doubtful in its answer, and what is right."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "critiques": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "properties": {
                            "agent": {
                                "type": "string",
                                "enum": peers,
                                "description": "The peer's anonymous id (e.g. 'agent2')"
                            },
                            "critique": {
                                "type": "string",
                                "description": "Your critique of that peer's answer"
                            }
                        },
                        "required": ["agent", "critique"]
                    }
                }
            },
            "required": ["critiques"]
        }),
    }
}

/// The critiques as written (ids trimmed); the error text is for the model. Whether the
/// ids were shown is the orchestrator's to judge.
pub fn parse_critique(arguments: &Value) -> Result<Vec<CritiqueEntry>, String> {
    let items = match arguments.get("critiques") {
        Some(Value::Array(items)) => items,
        Some(_) => {
            return Err(
                "`critiques` of `critique` must be a list of {\"agent\", \"critique\"} objects."
                    .into(),
            );
        }
        None => return Err("`critique` is missing the required `critiques` argument.".into()),
    };
    if items.is_empty() {
        return Err("`critiques` is empty: critique at least one peer's answer.".into());
    }
    items
        .iter()
        .map(|item| {
            let field = |name: &str| {
                item.get(name)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|text| !text.is_empty())
                    .map(str::to_string)
            };
            match (field("agent"), field("critique")) {
                (Some(agent), Some(critique)) => Ok(CritiqueEntry { agent, critique }),
                _ => Err(
                    "every entry of `critiques` needs an `agent` (such as \"agent2\") and \
                          a non-empty `critique`."
                        .into(),
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_offers_only_the_shown_peers() {
        let spec = critique_spec(&["agent2".into(), "agent3".into()]);
        assert_eq!(
            spec.parameters["properties"]["critiques"]["items"]["properties"]["agent"]["enum"],
            json!(["agent2", "agent3"])
        );
        assert_eq!(spec.parameters["required"], json!(["critiques"]));
    }

    #[test]
    fn reads_critiques_and_explains_bad_ones() {
        assert_eq!(
            parse_critique(
                &json!({"critiques": [{"agent": " agent2", "critique": "Off by one."}]})
            ),
            Ok(vec![CritiqueEntry {
                agent: "agent2".into(),
                critique: "Off by one.".into()
            }])
        );
        assert!(
            parse_critique(&json!({"critiques": []}))
                .unwrap_err()
                .contains("empty")
        );
        assert!(
            parse_critique(&json!({"critiques": "agent2 is wrong"}))
                .unwrap_err()
                .contains("list")
        );
        assert!(
            parse_critique(&json!({"critiques": [{"agent": "agent2"}]}))
                .unwrap_err()
                .contains("non-empty `critique`")
        );
        assert!(parse_critique(&json!({})).unwrap_err().contains("missing"));
    }
}
