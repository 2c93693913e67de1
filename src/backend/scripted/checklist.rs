//! What a scripted agent under checklist-gated voting does once it has an answer: submit
//! its next scripted scores with `submit_checklist`, then follow the verdict.

use super::reading;
use crate::backend::ChatRequest;
use crate::config::{ScriptedOptions, ScriptedToolCall};

const SUBMIT_CHECKLIST: &str = "submit_checklist";

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
    let Some(result) = reading::tool_results(request)
        .filter(|result| result.name == SUBMIT_CHECKLIST)
        .last()
    else {
        let scores = options.checklist[index.min(options.checklist.len() - 1)].clone();
        return Some(Step::Submit(ScriptedToolCall {
            name: SUBMIT_CHECKLIST.into(),
            arguments: serde_json::json!({ "scores": scores }),
        }));
    };
    let verdict = serde_json::from_str::<serde_json::Value>(result.content)
        .ok()
        .and_then(|reply| reply.get("verdict")?.as_str().map(str::to_string));
    match verdict.as_deref() {
        Some("new_answer") => Some(Step::Answer),
        _ => Some(Step::Vote),
    }
}
