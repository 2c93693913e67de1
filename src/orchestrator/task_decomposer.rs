//! Decomposition mode's decomposer: with no `subtask` in the config, one model call writes
//! every agent's subtask from MassGen's decomposition prompt; a reply it cannot read gives
//! MassGen's generic fallback subtasks.

use std::sync::Arc;

use serde_json::Value;

use super::model_call::{ModelLink, TextRole};
use crate::backend::Message;
use crate::protocol::SubtaskSource;

/// MassGen's canonical non-blocking clause for decomposition subtasks.
const PARALLEL_START: &str = "Start immediately in parallel using contract-first \
     assumptions/stubs for boundaries; do not wait for another agent's deliverable.";

/// One agent as the decomposer sees it: its id and its system message, if any.
pub struct Member<'a> {
    pub id: &'a str,
    pub system_message: Option<&'a str>,
}

/// MassGen's `_build_decomposition_prompt` (no planning context, no guidelines).
pub fn prompt(task: &str, members: &[Member<'_>]) -> String {
    let descriptions: Vec<String> = members
        .iter()
        .enumerate()
        .map(|(index, member)| {
            let description = member
                .system_message
                .map(|text| text.chars().take(200).collect::<String>())
                .unwrap_or_else(|| "General-purpose agent".into());
            format!(
                "- agent{} (output key: {}): {description}",
                index + 1,
                member.id
            )
        })
        .collect();
    let entry = r#"{"subtask": "owned scope + integration touchpoints + quality bar", "criteria": [{"text": "criterion text", "category": "standard"}]}"#;
    let schema: Vec<String> = members
        .iter()
        .map(|member| format!("\"{}\": {entry}", member.id))
        .collect();
    format!(
        "Create a decomposition plan for {} agents.\n\nTask: {task}\n\nAgents and their \
         expertise:\n{}\n\n{REQUIREMENTS}{{\"subtasks\": {{{}}}}}\n",
        members.len(),
        descriptions.join("\n"),
        schema.join(", ")
    )
}

const REQUIREMENTS: &str = "Requirements:
- Assign exactly one subtask to each agent ID.
- Keep subtasks complementary and non-overlapping.
- Make each subtask concrete and actionable.
- Ensure subtasks are roughly equal in expected effort and completion time.
- Balance depth: each subtask should include implementation work plus quality validation.
- Avoid \"tiny scope\" assignments unless all subtasks are intentionally tiny.
- Keep ownership-first boundaries: each agent has one primary scope and only adjacent integration responsibilities.
- Keep cross-subtask bleed limited to integration needs (interfaces/contracts/shared assets); avoid unrelated takeover.
- Ensure every subtask can start at kickoff in parallel (no hard dependency on another agent finishing first).
- If you reference peers in subtask prose, use anonymous aliases (`agent1`, `agent2`, ...) from the list above, not raw IDs.
- Use contract-first phrasing for integration (interfaces/placeholders/stubs), not serial handoff phrasing.
- Write each subtask as 2-3 sentences covering:
  1) primary owned scope,
  2) integration touchpoints with neighboring scopes,
  3) quality bar (tests/checks/accessibility or equivalent).
- For each agent, also provide 4-6 checklist criteria tailored to that owned subtask.
- Criteria should reinforce role discipline: owned-scope quality, relevant integration,
  boundary discipline, regression safety, and meaningful improvement.
- Return valid JSON only (no markdown/prose), using this schema:
";

/// Reads the reply as MassGen does: the whole text, a fenced JSON block, or the outermost
/// `{…}`; `subtasks` (or the object itself) keyed by agent id. Agents the reply leaves out
/// get MassGen's "complementary work" subtask; `None` when nothing could be read.
pub fn parse(reply: &str, ids: &[&str]) -> Option<Vec<String>> {
    let mut candidates = vec![reply.trim().to_string()];
    let mut rest = reply;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let body = after.strip_prefix("json").unwrap_or(after);
        let Some(end) = body.find("```") else { break };
        candidates.push(body[..end].trim().to_string());
        rest = &body[end + 3..];
    }
    if let (Some(start), Some(end)) = (reply.find('{'), reply.rfind('}'))
        && end > start
    {
        candidates.push(reply[start..=end].to_string());
    }
    candidates.iter().find_map(|candidate| {
        let payload: Value = serde_json::from_str(candidate).ok()?;
        let subtasks = payload.get("subtasks").unwrap_or(&payload).as_object()?;
        let found: Vec<Option<String>> = ids
            .iter()
            .map(|id| match subtasks.get(*id)? {
                Value::String(text) => Some(text.trim().to_string()),
                Value::Object(spec) => Some(spec.get("subtask")?.as_str()?.trim().to_string()),
                _ => None,
            })
            .map(|text| text.filter(|text| !text.is_empty()))
            .collect();
        if found.iter().all(Option::is_none) {
            return None;
        }
        let existing: Vec<String> = ids
            .iter()
            .zip(&found)
            .filter_map(|(id, text)| {
                let head: String = text.as_ref()?.chars().take(60).collect();
                Some(format!("{id}: {head}"))
            })
            .collect();
        let existing = existing.join(", ");
        Some(
            ids.iter()
                .zip(found)
                .map(|(id, text)| {
                    text.unwrap_or_else(|| {
                        format!(
                            "Handle aspects of the task not covered by other agents \
                             ({existing}). Focus on complementary work as agent '{id}'."
                        )
                    })
                })
                .collect(),
        )
    })
}

/// MassGen's `_generate_fallback_subtasks`.
pub fn fallback(members: &[Member<'_>]) -> Vec<String> {
    let total = members.len();
    members
        .iter()
        .enumerate()
        .map(|(index, member)| {
            if member.system_message.is_some() {
                format!(
                    "Own one distinct slice of the task aligned with your specialization. \
                     Implement that slice end-to-end, validate quality with concrete checks, and \
                     only touch adjacent interfaces needed for integration. {PARALLEL_START}"
                )
            } else {
                format!(
                    "Own part {} of {total} of this task with implementation depth and quality \
                     checks. Coordinate on shared boundaries with peers, but avoid taking over \
                     unrelated scopes. {PARALLEL_START}",
                    index + 1
                )
            }
        })
        .collect()
}

/// Asks the model behind `model` and reads its reply; a failed call or an unreadable
/// reply gives the fallback subtasks.
pub async fn decompose(
    model: &ModelLink,
    task: &str,
    members: &[Member<'_>],
) -> (Vec<String>, SubtaskSource) {
    let messages = Arc::new(vec![Message::user(prompt(task, members))]);
    let ids: Vec<&str> = members.iter().map(|member| member.id).collect();
    let parsed = match model.call_model(&messages, &[], TextRole::Quiet).await {
        Ok(turn) => parse(&turn.text, &ids),
        Err(error) => {
            tracing::warn!(%error, "decomposition: the decomposer call failed; fallback subtasks");
            None
        }
    };
    model.report_spent();
    match parsed {
        Some(subtasks) => (subtasks, SubtaskSource::Decomposer),
        None => (fallback(members), SubtaskSource::Fallback),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fenced_json_and_fills_the_agents_it_left_out() {
        let reply =
            "Here:\n```json\n{\"subtasks\": {\"api\": {\"subtask\": \"Build the API\"}}}\n```";
        let subtasks = parse(reply, &["api", "ui"]).expect("parsed");
        assert_eq!(subtasks[0], "Build the API");
        assert!(subtasks[1].contains("(api: Build the API)") && subtasks[1].contains("'ui'"));
        assert_eq!(
            parse(r#"{"api": "A", "ui": "B"}"#, &["api", "ui"]),
            Some(vec!["A".into(), "B".into()])
        );
        assert_eq!(parse("no json here", &["api"]), None);
        assert_eq!(parse(r#"{"other": "x"}"#, &["api"]), None);
    }

    #[test]
    fn the_prompt_and_the_fallback_follow_massgen() {
        let members = [
            Member {
                id: "api",
                system_message: Some("You write APIs"),
            },
            Member {
                id: "ui",
                system_message: None,
            },
        ];
        let text = prompt("Build a shop", &members);
        assert!(
            text.starts_with("Create a decomposition plan for 2 agents.\n\nTask: Build a shop")
        );
        assert!(text.contains("- agent1 (output key: api): You write APIs"));
        assert!(text.contains("- agent2 (output key: ui): General-purpose agent"));
        assert!(text.contains("{\"subtasks\": {\"api\": {\"subtask\""));
        let fallback = fallback(&members);
        assert!(fallback[0].starts_with("Own one distinct slice"));
        assert!(fallback[1].starts_with("Own part 2 of 2 of this task"));
    }
}
