//! The workflow tools as a JSON reply, for a Gemini agent with built-in tools (Google
//! Search, code execution). Gemini 2.x refuses built-in tools beside function declarations,
//! and a coordination round always offers `new_answer`/`vote` (a post-evaluation,
//! `submit`/`restart_orchestration`). As MassGen does, a call whose only functions are
//! those tools declares none: the system instruction asks for a JSON reply naming the
//! tool, earlier workflow calls are replayed as text, and the decoder turns the reply back
//! into the tool call, so the agent can search in every round.

use serde_json::{Value, json};

use crate::backend::{Message, ToolSpec};
use crate::config::ServerTools;

/// The tools that may be answered in text: the orchestrator's workflow and post-evaluation
/// tools (named here, since the backend sits below the tools layer).
const TEXT_TOOLS: [&str; 4] = ["new_answer", "vote", "submit", "restart_orchestration"];

/// How far back a reply's JSON object may start, in candidate `{`s.
const MAX_CANDIDATES: usize = 64;

/// Built-in tools are on and every function offered may be answered in text.
pub(super) fn applies(server_tools: ServerTools, tools: &[ToolSpec]) -> bool {
    (server_tools.web_search || server_tools.code_execution)
        && !tools.is_empty()
        && tools
            .iter()
            .all(|tool| TEXT_TOOLS.contains(&tool.name.as_str()))
}

/// The system instruction's part that asks for the JSON reply.
pub(super) fn instruction(tools: &[ToolSpec]) -> String {
    let mut text = String::from(
        "## How to call a tool\n\
         The tools below are not function calls here. To call one, end your reply with a \
         single JSON object and nothing after it:\n\
         {\"tool\": \"<tool name>\", \"arguments\": {<the tool's arguments>}}\n\
         You may use Google Search and code execution before that. Call exactly one of:\n",
    );
    for tool in tools {
        text.push_str(&format!(
            "- `{}`: {}. Arguments (JSON schema): {}\n",
            tool.name, tool.description, tool.parameters
        ));
    }
    text
}

/// `messages` with earlier workflow calls and their results as plain text, since no
/// function is declared to replay them against.
pub(super) fn rewrite_history(messages: &[Message]) -> Vec<Message> {
    messages
        .iter()
        .map(|message| match message {
            Message::Assistant {
                content,
                tool_calls,
                reasoning,
            } if tool_calls
                .iter()
                .any(|call| TEXT_TOOLS.contains(&call.name.as_str())) =>
            {
                let mut text = content.clone();
                for call in tool_calls {
                    let arguments: Value =
                        serde_json::from_str(&call.arguments).unwrap_or_else(|_| json!({}));
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&json!({"tool": call.name, "arguments": arguments}).to_string());
                }
                Message::Assistant {
                    content: text,
                    tool_calls: Vec::new(),
                    reasoning: reasoning.clone(),
                }
            }
            Message::Tool {
                name,
                content,
                is_error,
                ..
            } if TEXT_TOOLS.contains(&name.as_str()) => Message::user(format!(
                "{} of `{name}`: {content}",
                if *is_error { "Error" } else { "Result" }
            )),
            other => other.clone(),
        })
        .collect()
}

/// The tool call a reply's last JSON object names: `(tool, arguments)`.
pub(super) fn parse_reply(text: &str) -> Option<(String, Value)> {
    let starts: Vec<usize> = text
        .char_indices()
        .filter(|(_, ch)| *ch == '{')
        .map(|(index, _)| index)
        .collect();
    starts
        .iter()
        .rev()
        .take(MAX_CANDIDATES)
        .find_map(|&start| call_at(&text[start..]))
}

fn call_at(text: &str) -> Option<(String, Value)> {
    let value = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .next()?
        .ok()?;
    let tool = value.get("tool")?.as_str()?;
    if !TEXT_TOOLS.contains(&tool) {
        return None;
    }
    let arguments = value
        .get("arguments")
        .filter(|arguments| arguments.is_object())
        .cloned()
        .unwrap_or_else(|| json!({}));
    Some((tool.to_string(), arguments))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::ToolCall;

    /// `new_answer` and a `vote` whose choices are `candidates`.
    fn workflow_tools(candidates: &[&str]) -> Vec<ToolSpec> {
        let object = |properties: Value| json!({"type": "object", "properties": properties});
        vec![
            ToolSpec {
                name: "new_answer".into(),
                description: "Submit a new and improved answer".into(),
                parameters: object(json!({"content": {"type": "string"}})),
            },
            ToolSpec {
                name: "vote".into(),
                description: "Vote for the best agent to present final answer".into(),
                parameters: object(json!({
                    "agent_id": {"type": "string", "enum": candidates},
                    "reason": {"type": "string"}
                })),
            },
        ]
    }

    fn search() -> ServerTools {
        ServerTools {
            web_search: true,
            code_execution: false,
        }
    }

    #[test]
    fn only_workflow_tools_with_built_in_tools_on_are_answered_in_text() {
        let round = workflow_tools(&[]);
        assert!(applies(search(), &round));
        assert!(!applies(ServerTools::default(), &round));
        let mut with_other = round.clone();
        with_other.push(ToolSpec {
            name: "mcp__fs__read".into(),
            description: "read".into(),
            parameters: json!({"type": "object"}),
        });
        assert!(!applies(search(), &with_other));
        assert!(!applies(search(), &[]));
    }

    #[test]
    fn the_instruction_names_each_tool_with_its_schema() {
        let text = instruction(&workflow_tools(&["agent1"]));
        assert!(text.contains("`new_answer`"), "{text}");
        assert!(
            text.contains("`vote`") && text.contains("\"enum\":[\"agent1\"]"),
            "{text}"
        );
        assert!(text.contains("{\"tool\": \"<tool name>\""), "{text}");
    }

    #[test]
    fn the_last_json_object_naming_a_tool_is_the_call() {
        let fenced = "I searched.\n```json\n{\"tool\": \"vote\", \"arguments\": {\"agent_id\": \"agent1\", \"reason\": \"cites {sources}\"}}\n```";
        assert_eq!(
            parse_reply(fenced),
            Some((
                "vote".into(),
                json!({"agent_id": "agent1", "reason": "cites {sources}"})
            ))
        );
        let answer = "{\"tool\": \"new_answer\", \"arguments\": {\"content\": \"Paris\"}} thanks";
        assert_eq!(
            parse_reply(answer),
            Some(("new_answer".into(), json!({"content": "Paris"})))
        );
        assert_eq!(
            parse_reply("{\"tool\": \"rm_rf\", \"arguments\": {}}"),
            None
        );
        assert_eq!(parse_reply("{\"tool\": \"vote\", \"arguments\": "), None);
        assert_eq!(parse_reply("no json at all"), None);
    }

    #[test]
    fn earlier_workflow_calls_are_replayed_as_text() {
        let messages = vec![
            Message::Assistant {
                content: "Voting.".into(),
                tool_calls: vec![ToolCall {
                    id: String::new(),
                    name: "vote".into(),
                    arguments: "{\"agent_id\":\"agent9\",\"reason\":\"x\"}".into(),
                    signature: None,
                }],
                reasoning: Vec::new(),
            },
            Message::Tool {
                call_id: String::new(),
                name: "vote".into(),
                content: "Invalid agent_id 'agent9'".into(),
                is_error: true,
            },
        ];
        let rewritten = rewrite_history(&messages);
        let Message::Assistant {
            content,
            tool_calls,
            ..
        } = &rewritten[0]
        else {
            panic!("{rewritten:?}");
        };
        assert!(tool_calls.is_empty());
        assert!(content.starts_with("Voting.\n{\"arguments\":"), "{content}");
        assert_eq!(
            rewritten[1],
            Message::user("Error of `vote`: Invalid agent_id 'agent9'")
        );
    }
}
