//! The council's `rank` workflow tool: its schema (the labels the ranker was shown) and the
//! reading of its arguments, best first.

use serde_json::{Value, json};

use crate::backend::ToolSpec;

pub const RANK: &str = "rank";

/// `rank` over the labels this ranker was shown, in the order it saw them.
pub fn rank_spec(labels: &[String]) -> ToolSpec {
    ToolSpec {
        name: RANK.into(),
        description: "Rank the responses you were shown, best first. You may leave out \
                      responses you cannot judge."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "ranking": {
                    "type": "array",
                    "items": {"type": "string", "enum": labels},
                    "description": "Response labels, best first (e.g. [\"Response B\", \"Response A\"])"
                },
                "reasoning": {
                    "type": "string",
                    "description": "Briefly, why this order"
                }
            },
            "required": ["ranking"]
        }),
    }
}

/// `ranking` (labels as written, trimmed) and `reasoning` (empty when absent); the error
/// text is for the model. Whether the labels were shown is the orchestrator's to judge.
pub fn parse_rank(arguments: &Value) -> Result<(Vec<String>, String), String> {
    let ranking = match arguments.get("ranking") {
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(|label| label.trim().to_string())
                    .ok_or_else(|| {
                        "every entry of `ranking` must be a label such as \"Response A\"."
                            .to_string()
                    })
            })
            .collect::<Result<Vec<String>, String>>()?,
        Some(_) => return Err("`ranking` of `rank` must be a list of labels, best first.".into()),
        None => return Err("`rank` is missing the required `ranking` argument.".into()),
    };
    if ranking.is_empty() {
        return Err("`ranking` is empty: list the responses you were shown, best first.".into());
    }
    let reasoning = arguments
        .get("reasoning")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    Ok((ranking, reasoning))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_offers_only_the_shown_labels() {
        let spec = rank_spec(&["Response B".into(), "Response A".into()]);
        assert_eq!(
            spec.parameters["properties"]["ranking"]["items"]["enum"],
            json!(["Response B", "Response A"])
        );
        assert_eq!(spec.parameters["required"], json!(["ranking"]));
    }

    #[test]
    fn reads_a_ranking_and_explains_bad_ones() {
        assert_eq!(
            parse_rank(
                &json!({"ranking": [" Response B", "Response A"], "reasoning": "B is right"})
            ),
            Ok((
                vec!["Response B".into(), "Response A".into()],
                "B is right".into()
            ))
        );
        assert!(
            parse_rank(&json!({"ranking": []}))
                .unwrap_err()
                .contains("empty")
        );
        assert!(
            parse_rank(&json!({"ranking": "Response A"}))
                .unwrap_err()
                .contains("list")
        );
        assert!(
            parse_rank(&json!({"ranking": [1]}))
                .unwrap_err()
                .contains("label")
        );
        assert!(parse_rank(&json!({})).unwrap_err().contains("missing"));
    }
}
