//! Finds the workflow action a model wrote as JSON text (see `text_workflow`): the last
//! JSON object in the reply, fenced or not, whose `action_type` names an accepted
//! workflow tool, turned into that tool's name and arguments.

use serde_json::{Map, Value};

use super::text_workflow;

/// The tool and its arguments (a JSON object) of the last action in `text` that
/// `accepts` takes (by tool name); `None` when there is none or it is malformed.
pub fn parse(text: &str, accepts: impl Fn(&str) -> bool) -> Option<(&'static str, Value)> {
    let starts = text.match_indices('{').map(|(at, _)| at).rev();
    for start in starts {
        let mut values = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        let Some(Ok(Value::Object(object))) = values.next() else {
            continue;
        };
        let Some((tool, key)) = object
            .get("action_type")
            .and_then(Value::as_str)
            .and_then(text_workflow::action)
        else {
            continue;
        };
        if accepts(tool) {
            return Some((tool, arguments(tool, key, object)));
        }
    }
    None
}

/// The data object's fields (or the object's own, without `action_type`), without
/// MassGen's echoed `action`; `submit` is confirmed unless it says otherwise.
fn arguments(tool: &str, key: &str, mut object: Map<String, Value>) -> Value {
    let mut arguments = match object.remove(key) {
        Some(Value::Object(data)) => data,
        Some(_) | None => {
            object.remove("action_type");
            object
        }
    };
    arguments.remove("action");
    if tool == "submit" {
        arguments.entry("confirmed").or_insert(Value::Bool(true));
    }
    Value::Object(arguments)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn any(text: &str) -> Option<(&'static str, Value)> {
        parse(text, |_| true)
    }

    #[test]
    fn a_fenced_action_after_prose_is_found() {
        let text = "Agent 2 cites its sources.\n\n```json\n{\"action_type\": \"vote\", \"vote_data\": {\"action\": \"vote\", \"agent_id\": \"agent2\", \"reason\": \"sources {cited}\"}}\n```\n";
        assert_eq!(
            any(text),
            Some((
                "vote",
                json!({"agent_id": "agent2", "reason": "sources {cited}"})
            ))
        );
    }

    #[test]
    fn a_bare_action_with_prose_around_and_the_last_one_wins() {
        let text = "First I thought {\"action_type\": \"vote\", \"vote_data\": {\"agent_id\": \"agent1\", \"reason\": \"x\"}} but then {\"action_type\": \"new_answer\", \"answer_data\": {\"content\": \"fn main() {}\"}} done.";
        assert_eq!(
            any(text),
            Some(("new_answer", json!({"content": "fn main() {}"})))
        );
    }

    #[test]
    fn malformed_unknown_or_refused_actions_are_no_call() {
        assert_eq!(any("plain answer"), None);
        assert_eq!(
            any(
                "```json\n{\"action_type\": \"vote\", \"vote_data\": {\"agent_id\": \"agent1\",\n```"
            ),
            None
        );
        assert_eq!(
            any("{\"action_type\": \"ask_others\", \"question\": \"?\"}"),
            None
        );
        assert_eq!(any("{\"agent_id\": \"agent1\"}"), None);
        let vote = "{\"action_type\": \"vote\", \"vote_data\": {\"agent_id\": \"agent1\"}}";
        assert_eq!(parse(vote, |tool| tool == "new_answer"), None);
    }

    #[test]
    fn post_evaluation_actions_use_our_tool_names() {
        assert_eq!(
            any("{\"action_type\": \"submit\", \"submit_data\": {\"action\": \"submit\"}}"),
            Some(("submit", json!({"confirmed": true})))
        );
        assert_eq!(
            any(
                "{\"action_type\": \"restart\", \"restart_data\": {\"reason\": \"r\", \"instructions\": \"i\"}}"
            ),
            Some((
                "restart_orchestration",
                json!({"reason": "r", "instructions": "i"})
            ))
        );
        assert_eq!(
            any("{\"action_type\": \"new_answer\", \"content\": \"flat\"}"),
            Some(("new_answer", json!({"content": "flat"})))
        );
    }
}
