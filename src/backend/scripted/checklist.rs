//! What a scripted agent under checklist-gated voting does once it has an answer: submit
//! its next scripted scores with `submit_checklist` (with its `report_path` and
//! `proposed_criteria`), then follow the verdict, sending its scripted `draft_approach`
//! first after a `new_answer` verdict.

use super::reading;
use crate::backend::ChatRequest;
use crate::config::{ScriptedOptions, ScriptedToolCall};

const SUBMIT_CHECKLIST: &str = "submit_checklist";
const DRAFT_APPROACH: &str = "draft_approach";

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Submit(ScriptedToolCall),
    /// The verdict allows the vote: vote rather than answer again.
    Vote,
    /// The verdict asks for a new answer: answer as usual.
    Answer,
}

/// `answer_index`: the position of the agent's newest answer among its scripted answers.
/// `None` when the agent is not gated, has no scripted scores or no answer yet.
pub fn step(
    request: &ChatRequest,
    options: &ScriptedOptions,
    answer_index: Option<usize>,
) -> Option<Step> {
    let index = answer_index?;
    if options.checklist.is_empty() || !reading::offers(request, SUBMIT_CHECKLIST) {
        return None;
    }
    let results: Vec<_> = reading::tool_results(request).collect();
    let Some(position) = results
        .iter()
        .rposition(|result| result.name == SUBMIT_CHECKLIST)
    else {
        let scores = options.checklist[index.min(options.checklist.len() - 1)].clone();
        let mut arguments = serde_json::json!({ "scores": scores });
        if let Some(path) = &options.checklist_report {
            arguments["report_path"] = serde_json::Value::from(path.as_str());
        }
        if let Some(proposed) = options.proposed_criteria.get(index) {
            arguments["proposed_criteria"] = proposed.clone();
        }
        return Some(Step::Submit(ScriptedToolCall {
            name: SUBMIT_CHECKLIST.into(),
            arguments,
        }));
    };
    let verdict = serde_json::from_str::<serde_json::Value>(results[position].content)
        .ok()
        .and_then(|reply| reply.get("verdict")?.as_str().map(str::to_string));
    if verdict.as_deref() != Some("new_answer") {
        return Some(Step::Vote);
    }
    let drafted = results[position..]
        .iter()
        .any(|result| result.name == DRAFT_APPROACH);
    match &options.approach {
        Some(arguments) if !drafted && reading::offers(request, DRAFT_APPROACH) => {
            Some(Step::Submit(ScriptedToolCall {
                name: DRAFT_APPROACH.into(),
                arguments: arguments.clone(),
            }))
        }
        _ => Some(Step::Answer),
    }
}
