//! The broadcast tools agents are offered (`ask_others`, and for polling
//! `check_broadcast_status` / `get_broadcast_responses`), with MassGen's names and
//! parameters, and the reading of their calls.

use serde_json::{Value, json};

use crate::backend::ToolSpec;
use crate::protocol::{BroadcastTarget, Question, QuestionOption};

pub const ASK_OTHERS: &str = "ask_others";
pub const CHECK_STATUS: &str = "check_broadcast_status";
pub const GET_RESPONSES: &str = "get_broadcast_responses";

pub fn is_broadcast_tool(name: &str) -> bool {
    matches!(name, ASK_OTHERS | CHECK_STATUS | GET_RESPONSES)
}

/// The tools for `target`; the polling pair only when `ask_others` does not wait by default.
pub fn specs(target: BroadcastTarget, wait_by_default: bool) -> Vec<ToolSpec> {
    let who = match target {
        BroadcastTarget::Human => "the human user",
        BroadcastTarget::Agents | BroadcastTarget::Off => "other agents",
    };
    let mut specs = vec![ToolSpec {
        name: ASK_OTHERS.into(),
        description: format!(
            "Call this tool to ask questions to {who} for collaborative problem-solving. \
             PREFERRED: Use the 'questions' parameter with structured questions that have \
             predefined options - this provides a better UX and clearer responses. Only use \
             'question' (simple text) for truly open-ended questions where options don't make \
             sense. IMPORTANT: Include ALL relevant context in your questions. Use this for \
             significant decisions, design choices, or when confirmation would be valuable."
        ),
        parameters: json!({
            "type": "object",
            "properties": {
                "questions": {
                    "type": "array",
                    "description": "PREFERRED: Array of structured questions with predefined options.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "text": {"type": "string", "description": "The question"},
                            "options": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "id": {"type": "string"},
                                        "label": {"type": "string"},
                                        "description": {"type": "string"}
                                    },
                                    "required": ["id", "label"]
                                }
                            },
                            "multiSelect": {"type": "boolean", "description": "Allow several options"},
                            "required": {"type": "boolean"}
                        },
                        "required": ["text", "options"]
                    }
                },
                "question": {
                    "type": "string",
                    "description": format!("FALLBACK: A simple text question. {who} cannot see your files or workspace, so include requirements, constraints and what you have found.")
                },
                "wait": {
                    "type": "boolean",
                    "description": format!("Whether to wait for responses (default: {wait_by_default}). If true, blocks until responses are collected. If false, returns request_id for polling.")
                }
            }
        }),
    }];
    if !wait_by_default {
        let request_id = json!({
            "type": "object",
            "properties": {"request_id": {"type": "string", "description": "Request ID from ask_others()"}},
            "required": ["request_id"]
        });
        specs.push(ToolSpec {
            name: CHECK_STATUS.into(),
            description: "Check the status of a broadcast request to see if responses are ready."
                .into(),
            parameters: request_id.clone(),
        });
        specs.push(ToolSpec {
            name: GET_RESPONSES.into(),
            description: "Get responses for a broadcast request (for polling mode).".into(),
            parameters: request_id,
        });
    }
    specs
}

/// A broadcast call with its arguments read.
#[derive(Clone, Debug, PartialEq)]
pub enum BroadcastCall {
    Ask {
        questions: Vec<Question>,
        wait: bool,
    },
    Status {
        request_id: String,
    },
    Responses {
        request_id: String,
    },
}

/// Reads a call of one of the broadcast tools; the error goes back to the model.
pub fn parse(tool: &str, arguments: &str, wait_by_default: bool) -> Result<BroadcastCall, String> {
    let arguments: Value = if arguments.trim().is_empty() {
        json!({})
    } else {
        serde_json::from_str(arguments)
            .map_err(|error| format!("the arguments of `{tool}` are not valid JSON ({error})"))?
    };
    match tool {
        ASK_OTHERS => {
            let wait = arguments["wait"].as_bool().unwrap_or(wait_by_default);
            let questions = questions(&arguments)?;
            Ok(BroadcastCall::Ask { questions, wait })
        }
        CHECK_STATUS | GET_RESPONSES => {
            let request_id = arguments["request_id"]
                .as_str()
                .filter(|id| !id.trim().is_empty())
                .ok_or_else(|| format!("`{tool}` needs the `request_id` that ask_others returned"))?
                .to_string();
            Ok(if tool == CHECK_STATUS {
                BroadcastCall::Status { request_id }
            } else {
                BroadcastCall::Responses { request_id }
            })
        }
        _ => Err(format!("`{tool}` is not a broadcast tool")),
    }
}

fn questions(arguments: &Value) -> Result<Vec<Question>, String> {
    if let Some(items) = arguments["questions"]
        .as_array()
        .filter(|items| !items.is_empty())
    {
        return items.iter().enumerate().map(structured).collect();
    }
    match arguments["question"].as_str().map(str::trim) {
        Some(text) if !text.is_empty() => Ok(vec![Question {
            text: text.to_string(),
            options: Vec::new(),
            multi_select: false,
            required: true,
        }]),
        Some(_) | None => Err(
            "ask_others needs `questions` (structured, with options) or `question` (text)".into(),
        ),
    }
}

fn structured((index, item): (usize, &Value)) -> Result<Question, String> {
    let text = item["text"]
        .as_str()
        .or_else(|| item.as_str())
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .ok_or_else(|| format!("questions[{index}] has no `text`"))?;
    let options = item["options"]
        .as_array()
        .map(|options| {
            options
                .iter()
                .enumerate()
                .filter_map(|(number, option)| option_of(number, option))
                .collect()
        })
        .unwrap_or_default();
    Ok(Question {
        text: text.to_string(),
        options,
        multi_select: item["multiSelect"]
            .as_bool()
            .or_else(|| item["multi_select"].as_bool())
            .unwrap_or(false),
        required: item["required"].as_bool().unwrap_or(true),
    })
}

fn option_of(number: usize, option: &Value) -> Option<QuestionOption> {
    if let Some(label) = option.as_str() {
        return Some(QuestionOption {
            id: format!("opt{}", number + 1),
            label: label.to_string(),
            description: String::new(),
        });
    }
    let label = option["label"]
        .as_str()
        .or_else(|| option["id"].as_str())?
        .to_string();
    Some(QuestionOption {
        id: option["id"]
            .as_str()
            .map_or_else(|| format!("opt{}", number + 1), str::to_string),
        label,
        description: option["description"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_structured_and_simple_questions() {
        let call = parse(
            ASK_OTHERS,
            r#"{"questions":[{"text":"Stack?","options":[{"id":"a","label":"Rust"},"Go"],"multiSelect":true}],"wait":false}"#,
            true,
        )
        .unwrap();
        let BroadcastCall::Ask { questions, wait } = call else {
            panic!("not an ask: {call:?}");
        };
        assert!(!wait);
        assert!(questions[0].multi_select);
        assert_eq!(questions[0].options[1].id, "opt2");
        assert_eq!(questions[0].options[1].label, "Go");
        let call = parse(ASK_OTHERS, r#"{"question":"Why?"}"#, true).unwrap();
        assert!(matches!(call, BroadcastCall::Ask { wait: true, .. }));
    }

    #[test]
    fn bad_calls_say_what_is_missing() {
        assert!(parse(ASK_OTHERS, "{}", true).unwrap_err().contains("needs"));
        assert!(
            parse(ASK_OTHERS, "{nope", true)
                .unwrap_err()
                .contains("JSON")
        );
        assert!(
            parse(CHECK_STATUS, "{}", true)
                .unwrap_err()
                .contains("request_id")
        );
        assert!(
            parse(ASK_OTHERS, r#"{"questions":[{"options":[]}]}"#, true)
                .unwrap_err()
                .contains("questions[0]")
        );
    }

    #[test]
    fn polling_tools_only_when_not_waiting_by_default() {
        assert_eq!(specs(BroadcastTarget::Human, true).len(), 1);
        let names: Vec<String> = specs(BroadcastTarget::Agents, false)
            .into_iter()
            .map(|spec| spec.name)
            .collect();
        assert_eq!(names, [ASK_OTHERS, CHECK_STATUS, GET_RESPONSES]);
    }
}
