//! What the coordination key tests share: a two-agent config to add keys to, and readers
//! of a turn's tool calls and events.

use massgen::protocol::{Event, EventMsg};

pub fn two_agents(extra_a: &str, orchestrator: &str) -> String {
    format!(
        r#"
agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 100
      answer: "Answer from a"
      vote_for: a
{extra_a}
  - id: b
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 1000, answer: "Answer from b", vote_for: a}}
orchestrator:
{orchestrator}
"#
    )
}

/// `(tool, ok, output)` of every tool call `agent` finished.
pub fn tool_ends(events: &[Event], agent: &str) -> Vec<(String, bool, String)> {
    events
        .iter()
        .filter(|event| event.agent.as_ref().is_some_and(|id| id.as_str() == agent))
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd {
                tool, ok, output, ..
            } => Some((tool.clone(), *ok, output.clone())),
            _ => None,
        })
        .collect()
}

pub fn count(events: &[Event], wanted: impl Fn(&EventMsg) -> bool) -> usize {
    events.iter().filter(|event| wanted(&event.msg)).count()
}
