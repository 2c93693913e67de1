//! The scripted model as decomposition mode's decomposer: asked for a decomposition plan
//! (no tools), it gives each agent the request lists one part of the task, as JSON.

use serde_json::{Map, Value as Json, json};

use crate::backend::{ChatRequest, Message};

const ASKED: &str = "Create a decomposition plan for ";

/// The plan as JSON text, if `request` asks for one.
pub fn reply(request: &ChatRequest) -> Option<String> {
    if !request.tools.is_empty() {
        return None;
    }
    let prompt = request.messages.iter().find_map(|message| match message {
        Message::User { content, .. } if content.starts_with(ASKED) => Some(content.as_str()),
        Message::User { .. } | Message::System { .. } | Message::Assistant { .. } => None,
        Message::Tool { .. } => None,
    })?;
    let task = prompt
        .lines()
        .find_map(|line| line.strip_prefix("Task: "))
        .unwrap_or("the task")
        .trim();
    let ids: Vec<&str> = prompt
        .lines()
        .filter_map(|line| line.split_once("(output key: ")?.1.split_once("):"))
        .map(|(id, _)| id)
        .collect();
    let total = ids.len();
    let subtasks: Map<String, Json> = ids
        .iter()
        .enumerate()
        .map(|(index, id)| {
            let subtask = format!(
                "Part {} of {total} of \"{task}\", owned by {id}.",
                index + 1
            );
            (
                (*id).to_string(),
                json!({ "subtask": subtask, "criteria": [] }),
            )
        })
        .collect();
    Some(json!({ "subtasks": subtasks }).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn answers_a_decomposition_request_with_one_part_per_agent() {
        let prompt = "Create a decomposition plan for 2 agents.\n\nTask: Build it\n\nAgents and \
                      their expertise:\n- agent1 (output key: api): General-purpose agent\n- \
                      agent2 (output key: ui): General-purpose agent\n";
        let request = ChatRequest {
            messages: Arc::new(vec![Message::user(prompt)]),
            tools: Vec::new(),
        };
        let reply: Json = serde_json::from_str(&reply(&request).expect("a plan")).expect("json");
        assert_eq!(
            reply["subtasks"]["ui"]["subtask"],
            "Part 2 of 2 of \"Build it\", owned by ui."
        );
        let other = ChatRequest {
            messages: Arc::new(vec![Message::user("What is 2+2?")]),
            tools: Vec::new(),
        };
        assert_eq!(super::reply(&other), None);
    }
}
