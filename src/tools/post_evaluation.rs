//! The winner's two post-evaluation tools, with MassGen's names and schemas: `submit`
//! sends the final answer to the user, `restart_orchestration` sends the turn back for
//! another attempt with guidance.

use serde_json::{Value, json};

use crate::backend::{ToolCall, ToolSpec};

pub const SUBMIT: &str = "submit";
pub const RESTART_ORCHESTRATION: &str = "restart_orchestration";

pub fn is_post_evaluation_tool(name: &str) -> bool {
    name == SUBMIT || name == RESTART_ORCHESTRATION
}

pub fn post_evaluation_tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: SUBMIT.into(),
            description: "Submit the final answer to the user. Call this when the answer fully \
                          and accurately addresses the original task."
                .into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "confirmed": {
                        "type": "boolean",
                        "description": "Confirm that the answer is complete and ready for the user",
                        "enum": [true]
                    }
                },
                "required": ["confirmed"]
            }),
        },
        ToolSpec {
            name: RESTART_ORCHESTRATION.into(),
            description: "Restart the orchestration because the answer is incomplete or \
                          incorrect; give the reason and instructions for the next attempt."
                .into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "reason": {
                        "type": "string",
                        "description": "Clear explanation of what is wrong with the answer"
                    },
                    "instructions": {
                        "type": "string",
                        "description": "Detailed, actionable guidance for the next attempt"
                    }
                },
                "required": ["reason", "instructions"]
            }),
        },
    ]
}

/// The winner's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Submit,
    Restart {
        reason: String,
        instructions: String,
    },
}

/// Reads one post-evaluation call; the error text goes back to the model.
pub fn parse_decision(call: &ToolCall) -> Result<Decision, String> {
    let arguments = super::workflow::call_arguments(call)?;
    match call.name.as_str() {
        SUBMIT => Ok(Decision::Submit),
        RESTART_ORCHESTRATION => {
            let text = |field: &str| {
                arguments
                    .get(field)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|text| !text.is_empty())
                    .map(str::to_string)
                    .ok_or_else(|| {
                        format!("`restart_orchestration` needs a non-empty `{field}` string.")
                    })
            };
            Ok(Decision::Restart {
                reason: text("reason")?,
                instructions: text("instructions")?,
            })
        }
        other => Err(format!("`{other}` is not a post-evaluation tool.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, arguments: &str) -> ToolCall {
        ToolCall {
            id: "c1".into(),
            name: name.into(),
            arguments: arguments.into(),
            signature: None,
        }
    }

    #[test]
    fn the_schemas_are_massgens() {
        let tools = post_evaluation_tools();
        assert_eq!(tools[0].name, "submit");
        assert_eq!(
            tools[0].parameters["properties"]["confirmed"]["enum"],
            json!([true])
        );
        assert_eq!(tools[1].name, "restart_orchestration");
        assert_eq!(
            tools[1].parameters["required"],
            json!(["reason", "instructions"])
        );
    }

    #[test]
    fn decisions_are_read_and_bad_restarts_refused() {
        assert_eq!(
            parse_decision(&call("submit", r#"{"confirmed": true}"#)),
            Ok(Decision::Submit)
        );
        assert_eq!(
            parse_decision(&call(
                "restart_orchestration",
                r#"{"reason": "no sources", "instructions": "cite one"}"#
            )),
            Ok(Decision::Restart {
                reason: "no sources".into(),
                instructions: "cite one".into()
            })
        );
        let refused = parse_decision(&call("restart_orchestration", r#"{"reason": "x"}"#));
        assert!(refused.unwrap_err().contains("instructions"));
        assert!(parse_decision(&call("restart_orchestration", "{")).is_err());
    }
}
