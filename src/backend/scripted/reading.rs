//! What the scripted model reads from its request: the question, the current answers,
//! which tools it was offered, which mode the prompt is in, and the tool calls made so far
//! with their results.
//!
//! These are the tags the orchestrator's prompts use; a scenario test fails if they drift.

use crate::backend::compression::CALLS_MADE;
use crate::backend::{ChatRequest, Message, ToolCall};

const ORIGINAL_OPEN: &str = "<ORIGINAL MESSAGE>";
const ORIGINAL_CLOSE: &str = "<END OF ORIGINAL MESSAGE>";
const ANSWERS_OPEN: &str = "<CURRENT ANSWERS from the agents>";
const ANSWERS_CLOSE: &str = "<END OF CURRENT ANSWERS>";

/// The header of the planning prompt, and where the user's request follows it.
pub const PLANNING_MODE: &str = "# TASK PLANNING MODE";
const PLANNING_REQUEST: &str = "USER'S REQUEST:";
/// The header of the execution prompt, and the section that holds the user's task.
pub const EXECUTION_MODE: &str = "# PLAN EXECUTION MODE";
const EXECUTION_TASK: &str = "## Your Task";
/// The answer format of config planning mode's irreversibility question.
pub const IRREVERSIBILITY: &str = "IRREVERSIBLE: YES/NO";

/// The user's question, from the first user message that carries one. A planning or
/// execution prompt is unwrapped to the request it was built around.
pub fn question(request: &ChatRequest) -> String {
    let original = request
        .messages
        .iter()
        .filter_map(|message| match message {
            Message::User { content, .. } => between(content, ORIGINAL_OPEN, ORIGINAL_CLOSE)
                // Decomposition mode's presenter reads the task this way.
                .or_else(|| between(content, "ORIGINAL TASK:\n", "\n\nAGENT WORK SUMMARIES:")),
            Message::System { .. } | Message::Assistant { .. } | Message::Tool { .. } => None,
        })
        .next()
        .unwrap_or_default();
    unwrap_mode_prompt(original).trim().to_string()
}

fn unwrap_mode_prompt(text: &str) -> &str {
    if text.contains(PLANNING_MODE)
        && let Some((_, request)) = text.rsplit_once(PLANNING_REQUEST)
    {
        return request;
    }
    if text.contains(EXECUTION_MODE)
        && let Some(start) = text.find(EXECUTION_TASK)
    {
        let task = &text[start + EXECUTION_TASK.len()..];
        return task.find("\n## ").map_or(task, |end| &task[..end]);
    }
    text
}

/// Whether a user message contains `marker`.
pub fn user_says(request: &ChatRequest, marker: &str) -> bool {
    request.messages.iter().any(|message| match message {
        Message::User { content, .. } => content.contains(marker),
        Message::System { .. } | Message::Assistant { .. } | Message::Tool { .. } => false,
    })
}

/// The result of one tool call, as the conversation holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToolResult<'a> {
    pub call_id: &'a str,
    pub name: &'a str,
    pub content: &'a str,
    pub is_error: bool,
}

/// Every tool result in the conversation, oldest first.
pub fn tool_results(request: &ChatRequest) -> impl Iterator<Item = ToolResult<'_>> {
    request.messages.iter().filter_map(as_result)
}

/// The results that came back after the model's latest reply.
pub fn latest_results(request: &ChatRequest) -> Vec<ToolResult<'_>> {
    let after_reply = request
        .messages
        .iter()
        .rposition(|message| matches!(message, Message::Assistant { .. }))
        .map_or(0, |index| index + 1);
    request.messages[after_reply..]
        .iter()
        .filter_map(as_result)
        .collect()
}

/// The model's replies so far, each with the tool calls it made.
pub fn replies(request: &ChatRequest) -> impl Iterator<Item = &[ToolCall]> {
    request.messages.iter().filter_map(|message| match message {
        Message::Assistant { tool_calls, .. } => Some(tool_calls.as_slice()),
        Message::System { .. } | Message::User { .. } | Message::Tool { .. } => None,
    })
}

/// The result of the call with this id, if it came back.
pub fn result_of<'a>(request: &'a ChatRequest, call_id: &str) -> Option<ToolResult<'a>> {
    tool_results(request).find(|result| result.call_id == call_id)
}

fn as_result(message: &Message) -> Option<ToolResult<'_>> {
    match message {
        Message::Tool {
            call_id,
            name,
            content,
            is_error,
        } => Some(ToolResult {
            call_id,
            name,
            content,
            is_error: *is_error,
        }),
        Message::System { .. } | Message::User { .. } | Message::Assistant { .. } => None,
    }
}

/// `(anon id, answer)` pairs from the CURRENT ANSWERS block.
pub fn current_answers(request: &ChatRequest) -> Vec<(String, String)> {
    let Some(block) = request.messages.iter().find_map(|message| match message {
        Message::User { content, .. } => between(content, ANSWERS_OPEN, ANSWERS_CLOSE),
        Message::System { .. } | Message::Assistant { .. } | Message::Tool { .. } => None,
    }) else {
        return Vec::new();
    };
    let mut answers = Vec::new();
    let mut rest = block;
    while let Some(start) = rest.find("<agent") {
        let after = &rest[start + 1..];
        let Some(name_end) = after.find('>') else {
            break;
        };
        let anon = &after[..name_end];
        let close = format!("<end of {anon}>");
        let body = &after[name_end + 1..];
        let Some(body_end) = body.find(&close) else {
            break;
        };
        answers.push((anon.to_string(), body[..body_end].trim().to_string()));
        rest = &body[body_end + close.len()..];
    }
    answers
}

/// The anonymous ids the `vote` tool accepts, if `vote` is offered.
pub fn vote_options(request: &ChatRequest) -> Option<Vec<String>> {
    let vote = request.tools.iter().find(|tool| tool.name == "vote")?;
    Some(
        vote.parameters["properties"]["agent_id"]["enum"]
            .as_array()
            .map(|ids| {
                ids.iter()
                    .filter_map(|id| id.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
    )
}

pub fn offers(request: &ChatRequest, tool: &str) -> bool {
    request.tools.iter().any(|spec| spec.name == tool)
}

/// The tool whose result is the last message, if that result was an error.
pub fn last_rejected_tool(request: &ChatRequest) -> Option<&str> {
    match request.messages.last()? {
        Message::Tool {
            name,
            is_error: true,
            ..
        } => Some(name),
        Message::Tool { .. }
        | Message::System { .. }
        | Message::User { .. }
        | Message::Assistant { .. } => None,
    }
}

/// Whether this conversation already holds results of tool calls.
pub fn has_tool_results(request: &ChatRequest) -> bool {
    tool_results(request).next().is_some()
}

/// Whether this conversation holds a result of a call to `tool`.
pub fn has_result_of(request: &ChatRequest, tool: &str) -> bool {
    tool_results(request).any(|result| result.name == tool)
}

/// How many results of `tool` the conversation holds.
/// Calls compressed out of the conversation count too: the record of them says how many.
pub fn results_of(request: &ChatRequest, tool: &str) -> usize {
    let compressed: usize = request
        .messages
        .iter()
        .filter_map(|message| match message {
            Message::User { content, .. } => Some(content),
            Message::System { .. } | Message::Assistant { .. } | Message::Tool { .. } => None,
        })
        .flat_map(|content| content.lines())
        .filter_map(|line| line.strip_prefix(CALLS_MADE))
        .flat_map(|calls| calls.trim_end_matches('.').split(", "))
        .filter_map(|call| {
            let (name, count) = call.rsplit_once(" (")?;
            (name == tool).then(|| count.trim_end_matches(')').parse::<usize>().ok())?
        })
        .sum();
    compressed
        + tool_results(request)
            .filter(|result| result.name == tool)
            .count()
}

/// The JSON object a tool result starts with. The orchestrator may append text to a
/// result (peers' new answers, a time notice), which a model reads past, and so does this.
pub fn leading_object(content: &str) -> Option<serde_json::Value> {
    serde_json::Deserializer::from_str(content)
        .into_iter::<serde_json::Value>()
        .next()?
        .ok()
        .filter(serde_json::Value::is_object)
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_question_and_answers() {
        let request = ChatRequest {
            messages: vec![
                Message::system("sys"),
                Message::user(
                    "<ORIGINAL MESSAGE> Why? <END OF ORIGINAL MESSAGE>\n\n\
                     <CURRENT ANSWERS from the agents>\n<agent1> one\ntwo <end of agent1>\n\
                     <agent3> three <end of agent3>\n<END OF CURRENT ANSWERS>",
                ),
            ]
            .into(),
            tools: vec![],
        };
        assert_eq!(question(&request), "Why?");
        assert_eq!(
            current_answers(&request),
            vec![
                ("agent1".to_string(), "one\ntwo".to_string()),
                ("agent3".to_string(), "three".to_string())
            ]
        );
    }

    #[test]
    fn planning_and_execution_prompts_are_unwrapped_to_the_request() {
        let ask = |prompt: &str| ChatRequest {
            messages: vec![Message::user(format!(
                "<ORIGINAL MESSAGE>{prompt}<END OF ORIGINAL MESSAGE>"
            ))]
            .into(),
            tools: vec![],
        };
        let planning = ask("# TASK PLANNING MODE\n\nPlan well.\n\nUSER'S REQUEST:\nBuild a blog\n");
        assert_eq!(question(&planning), "Build a blog");
        assert!(user_says(&planning, PLANNING_MODE));
        let execution = ask(
            "# PLAN EXECUTION MODE\n\nGo!\n\n## Your Task\nBuild a blog\n\n## Getting Started\n1.",
        );
        assert_eq!(question(&execution), "Build a blog");
        assert_eq!(
            question(&ask("USER'S REQUEST: as is")),
            "USER'S REQUEST: as is"
        );
    }

    #[test]
    fn latest_results_are_those_after_the_last_reply() {
        let call = |id: &str| ToolCall {
            id: id.into(),
            name: "t".into(),
            arguments: "{}".into(),
            signature: None,
        };
        let result = |id: &str| Message::Tool {
            call_id: id.into(),
            name: "t".into(),
            content: id.into(),
            is_error: false,
        };
        let request = ChatRequest {
            messages: vec![
                Message::user("q"),
                Message::assistant("", vec![call("a")]),
                result("a"),
                Message::assistant("", vec![call("b"), call("c")]),
                result("b"),
                result("c"),
            ]
            .into(),
            tools: vec![],
        };
        let latest: Vec<&str> = latest_results(&request).iter().map(|r| r.call_id).collect();
        assert_eq!(latest, ["b", "c"]);
        assert_eq!(tool_results(&request).count(), 3);
        assert_eq!(
            replies(&request).map(<[ToolCall]>::len).collect::<Vec<_>>(),
            [1, 2]
        );
        assert_eq!(result_of(&request, "a").map(|r| r.content), Some("a"));
        assert!(has_result_of(&request, "t") && !has_result_of(&request, "u"));
    }

    #[test]
    fn a_result_is_read_past_the_text_appended_to_it() {
        let injected = "{\"count\": 1}\n====\n⚠️  IMPORTANT: NEW ANSWER RECEIVED\n{not json}";
        assert_eq!(
            leading_object(injected),
            Some(serde_json::json!({"count": 1}))
        );
        assert_eq!(leading_object(" {} tail"), Some(serde_json::json!({})));
        assert_eq!(
            leading_object("42 apples"),
            None,
            "text, not a result object"
        );
        assert_eq!(leading_object("Tool failed"), None);
        assert_eq!(leading_object(""), None);
    }
}
