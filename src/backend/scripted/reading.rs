//! What the scripted model reads from its request: the question, the current answers,
//! which workflow tools it was offered, and how its last tool call went.
//!
//! These are the tags the orchestrator's prompts use; a scenario test fails if they drift.

use crate::backend::{ChatRequest, Message};

const ORIGINAL_OPEN: &str = "<ORIGINAL MESSAGE>";
const ORIGINAL_CLOSE: &str = "<END OF ORIGINAL MESSAGE>";
const ANSWERS_OPEN: &str = "<CURRENT ANSWERS from the agents>";
const ANSWERS_CLOSE: &str = "<END OF CURRENT ANSWERS>";

/// The user's question, from the first user message that carries one.
pub fn question(request: &ChatRequest) -> String {
    request
        .messages
        .iter()
        .filter_map(|message| match message {
            Message::User { content } => between(content, ORIGINAL_OPEN, ORIGINAL_CLOSE),
            Message::System { .. } | Message::Assistant { .. } | Message::Tool { .. } => None,
        })
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// `(anon id, answer)` pairs from the CURRENT ANSWERS block.
pub fn current_answers(request: &ChatRequest) -> Vec<(String, String)> {
    let Some(block) = request.messages.iter().find_map(|message| match message {
        Message::User { content } => between(content, ANSWERS_OPEN, ANSWERS_CLOSE),
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
    request
        .messages
        .iter()
        .any(|message| matches!(message, Message::Tool { .. }))
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
            ],
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
}
