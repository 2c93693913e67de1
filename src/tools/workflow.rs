//! The workflow tools with MassGen's exact names, descriptions and JSON schemas, and the
//! parsing of a model's workflow calls.

use serde_json::{Value, json};

use crate::backend::{ToolCall, ToolSpec};
use crate::protocol::AnonId;

pub const NEW_ANSWER: &str = "new_answer";
pub const VOTE: &str = "vote";
/// Decomposition mode's `vote`: the agent is done with its subtask.
pub const STOP: &str = "stop";

pub fn is_workflow_tool(name: &str) -> bool {
    name == NEW_ANSWER
        || name == VOTE
        || name == STOP
        || name == super::rank::RANK
        || name == super::critique::CRITIQUE
}

/// `stop` (decomposition mode) as MassGen's `StopToolkit` defines it.
pub fn stop_spec() -> ToolSpec {
    ToolSpec {
        name: STOP.into(),
        description: "Signal that you have reviewed the current state and are satisfied with \
                      your deliverables as-is. Only call this if you made no improvements to your \
                      work this round. If you changed or improved your deliverables, use \
                      new_answer instead to share them."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "summary": {
                    "type": "string",
                    "description": "What you accomplished and how it connects to other agents' work"
                },
                "status": {
                    "type": "string",
                    "enum": ["complete", "blocked"],
                    "description": "Whether your subtask is complete or blocked on something"
                }
            },
            "required": ["summary", "status"]
        }),
    }
}

/// Decomposition mode's workflow tools: `new_answer` and `stop` (`stop` alone once the
/// agent may not answer).
pub fn decomposition_tools(answer_limit_reached: bool) -> Vec<ToolSpec> {
    if answer_limit_reached {
        vec![stop_spec()]
    } else {
        vec![new_answer_spec(), stop_spec()]
    }
}

pub fn new_answer_spec() -> ToolSpec {
    ToolSpec {
        name: NEW_ANSWER.into(),
        description: "Submit a new and improved answer".into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "content": {
                    "type": "string",
                    "description": "Your improved answer. If any builtin tools like search or code execution were used, mention how they are used here."
                }
            },
            "required": ["content"]
        }),
    }
}

/// `vote` whose `agent_id` enum lists the anonymous ids that currently have answers.
pub fn vote_spec(candidates: &[AnonId]) -> ToolSpec {
    let mut agent_id = json!({
        "type": "string",
        "description": "Anonymous agent ID (e.g. 'agent1', 'agent2')"
    });
    if !candidates.is_empty() {
        agent_id["enum"] = candidates
            .iter()
            .map(|anon| Value::from(anon.as_str()))
            .collect();
    }
    ToolSpec {
        name: VOTE.into(),
        description: "Vote for the best agent to present final answer".into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "agent_id": agent_id,
                "reason": {
                    "type": "string",
                    "description": "Brief reason why this agent has the best answer"
                }
            },
            "required": ["agent_id", "reason"]
        }),
    }
}

/// The workflow tools for one round; vote-only rounds get `vote` alone.
pub fn workflow_tools(candidates: &[AnonId], vote_only: bool) -> Vec<ToolSpec> {
    if vote_only {
        vec![vote_spec(candidates)]
    } else {
        vec![new_answer_spec(), vote_spec(candidates)]
    }
}

/// A workflow call with its arguments checked for shape (not yet against coordination).
#[derive(Clone, Debug, PartialEq)]
pub enum WorkflowCall {
    NewAnswer {
        content: String,
    },
    Vote {
        agent_id: String,
        reason: String,
    },
    /// `stop`: `status` is `complete` or `blocked`.
    Stop {
        summary: String,
        status: String,
    },
    /// The council's `rank`: labels best first, as written (checked against the labels
    /// shown by the orchestrator); `source` says whether it came as the tool or as a
    /// "FINAL RANKING:" list in text.
    Rank {
        ranking: Vec<String>,
        reasoning: String,
        source: crate::protocol::RankingSource,
    },
    /// The debate's `critique`: peers' anonymous ids with what it says of each (checked
    /// against the peers shown by the orchestrator); `from_text`: a reply in text that
    /// critiques every peer shown.
    Critique {
        critiques: Vec<super::critique::CritiqueEntry>,
        from_text: bool,
    },
}

/// A call's arguments as JSON (`{}` when empty); the error text is for the model.
pub fn call_arguments(call: &ToolCall) -> Result<Value, String> {
    if call.arguments.trim().is_empty() {
        return Ok(json!({}));
    }
    serde_json::from_str(&call.arguments).map_err(|error| {
        format!(
            "The arguments of `{}` are not valid JSON ({error}). Call it again with a JSON object.",
            call.name
        )
    })
}

/// Reads one workflow call; the error text goes back to the model as the tool result.
pub fn parse_call(call: &ToolCall) -> Result<WorkflowCall, String> {
    let arguments = call_arguments(call)?;
    let text = |field: &str| -> Result<String, String> {
        match arguments.get(field) {
            Some(Value::String(text)) if !text.trim().is_empty() => Ok(text.clone()),
            Some(Value::String(_)) => Err(format!("`{}` needs a non-empty `{field}`.", call.name)),
            Some(_) => Err(format!("`{field}` of `{}` must be a string.", call.name)),
            None => Err(format!(
                "`{}` is missing the required `{field}` argument.",
                call.name
            )),
        }
    };
    match call.name.as_str() {
        NEW_ANSWER => Ok(WorkflowCall::NewAnswer {
            content: text("content")?,
        }),
        VOTE => Ok(WorkflowCall::Vote {
            agent_id: text("agent_id")?.trim().to_string(),
            reason: arguments
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
        }),
        STOP => Ok(WorkflowCall::Stop {
            summary: text("summary")?,
            status: match arguments.get("status").and_then(Value::as_str) {
                Some(status @ ("complete" | "blocked")) => status.to_string(),
                None => "complete".to_string(),
                Some(other) => {
                    return Err(format!(
                        "`status` of `stop` must be \"complete\" or \"blocked\", not {other:?}."
                    ));
                }
            },
        }),
        super::rank::RANK => {
            let (ranking, reasoning) = super::rank::parse_rank(&arguments)?;
            Ok(WorkflowCall::Rank {
                ranking,
                reasoning,
                source: crate::protocol::RankingSource::Tool,
            })
        }
        super::critique::CRITIQUE => Ok(WorkflowCall::Critique {
            critiques: super::critique::parse_critique(&arguments)?,
            from_text: false,
        }),
        other => Err(format!("`{other}` is not a workflow tool.")),
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
    fn vote_schema_lists_only_candidates_with_answers() {
        let spec = vote_spec(&[
            AnonymousIds::two()[0].clone(),
            AnonymousIds::two()[1].clone(),
        ]);
        assert_eq!(
            spec.parameters["properties"]["agent_id"]["enum"],
            json!(["agent1", "agent2"])
        );
        assert_eq!(spec.parameters["required"], json!(["agent_id", "reason"]));
        assert_eq!(
            spec.description,
            "Vote for the best agent to present final answer"
        );
        let empty = vote_spec(&[]);
        assert!(
            empty.parameters["properties"]["agent_id"]
                .get("enum")
                .is_none()
        );
    }

    #[test]
    fn vote_only_rounds_offer_no_new_answer() {
        let tools = workflow_tools(&[], true);
        assert_eq!(tools.len(), 1);
        assert_eq!(tools[0].name, VOTE);
        assert_eq!(new_answer_spec().parameters["required"], json!(["content"]));
    }

    #[test]
    fn stop_carries_summary_and_status() {
        assert_eq!(
            stop_spec().parameters["required"],
            json!(["summary", "status"])
        );
        assert_eq!(decomposition_tools(true).len(), 1);
        assert_eq!(
            parse_call(&call(
                "stop",
                r#"{"summary":"api done","status":"blocked"}"#
            )),
            Ok(WorkflowCall::Stop {
                summary: "api done".into(),
                status: "blocked".into()
            })
        );
        assert!(
            parse_call(&call("stop", r#"{"summary":"x","status":"maybe"}"#))
                .unwrap_err()
                .contains("complete")
        );
    }

    #[test]
    fn parses_calls_and_explains_bad_ones() {
        assert_eq!(
            parse_call(&call("vote", r#"{"agent_id":" agent2 ","reason":"best"}"#)),
            Ok(WorkflowCall::Vote {
                agent_id: "agent2".into(),
                reason: "best".into()
            })
        );
        assert_eq!(
            parse_call(&call("new_answer", r#"{"content":"Paris"}"#)),
            Ok(WorkflowCall::NewAnswer {
                content: "Paris".into()
            })
        );
        assert!(
            parse_call(&call("new_answer", "{not json"))
                .unwrap_err()
                .contains("not valid JSON")
        );
        assert!(
            parse_call(&call("new_answer", "{}"))
                .unwrap_err()
                .contains("missing")
        );
        assert!(
            parse_call(&call("vote", r#"{"agent_id": 3}"#))
                .unwrap_err()
                .contains("must be a string")
        );
    }

    struct AnonymousIds;
    impl AnonymousIds {
        fn two() -> Vec<AnonId> {
            let ids = [
                crate::protocol::AgentId::new("a"),
                crate::protocol::AgentId::new("b"),
            ];
            let mapping = crate::protocol::AnonymousMapping::new(&ids);
            mapping.pairs().map(|(anon, _)| anon.clone()).collect()
        }
    }
}
