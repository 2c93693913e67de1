//! The scripted model in a council: how it answers, ranks and chairs.
//!
//! - **Answering** (`new_answer` offered without `vote` or `stop`): its first answer.
//! - **Ranking** (`rank` offered): the labels it was shown, answers that agree with its own
//!   first answer (same words, any case and spacing) first, then in label order; it calls
//!   `rank`, or with `rank_as_text` writes a "FINAL RANKING:" list instead, or with
//!   `rank_garbage` a reply that names no response.
//! - **Chairing** (the chairman's prompt, no tools): a line naming the top-ranked label,
//!   then that answer's text; with `fail_as_chairman` the call fails.

use super::plan::{Action, Plan};
use super::reading;
use crate::backend::{ChatRequest, Message};
use crate::config::{FailureMode, ScriptedFailure, ScriptedOptions, ScriptedToolCall};

/// How the orchestrator's chairman prompt begins (`prompts::council::CHAIRMAN_INTRO`).
const CHAIRMAN_INTRO: &str = "You are the chairman of a council.";
/// The aggregate ranking's heading (`prompts::council::AGGREGATE_HEADING`).
const AGGREGATE_HEADING: &str = "AGGREGATE RANKING:";

/// The council's plan for this request, when it is a council request.
pub(super) fn plan(request: &ChatRequest, options: &ScriptedOptions) -> Option<Plan> {
    if reading::offers(request, "rank") {
        return Some(rank(request, options));
    }
    if is_chairman_request(request) {
        return Some(Plan {
            reasoning: None,
            text: None,
            action: Action::Present(chair(request)),
        });
    }
    let answering = reading::offers(request, "new_answer")
        && !reading::offers(request, "vote")
        && !reading::offers(request, "stop");
    answering.then(|| Plan {
        reasoning: None,
        text: Some("Answering on my own.".into()),
        action: Action::Answer(own_answer(request, options)),
    })
}

/// The failure of its synthesis call as chairman (`fail_as_chairman`).
pub(super) fn chair_failure(
    request: &ChatRequest,
    options: &ScriptedOptions,
) -> Option<ScriptedFailure> {
    (options.council.fail_as_chairman && is_chairman_request(request)).then(|| ScriptedFailure {
        mode: FailureMode::Error,
        after_tokens: 0,
        times: None,
        message: "scripted chairman failure".into(),
    })
}

fn is_chairman_request(request: &ChatRequest) -> bool {
    request.tools.is_empty()
        && request.messages.iter().any(|message| match message {
            Message::System { content } => content.contains(CHAIRMAN_INTRO),
            _ => false,
        })
}

pub(super) fn own_answer(request: &ChatRequest, options: &ScriptedOptions) -> String {
    options
        .answers
        .first()
        .map(|answer| answer.replace("{question}", &reading::question(request)))
        .unwrap_or_default()
}

pub(super) fn normalized(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Every `<Response X>…<end of Response X>` block of the user's message, in order.
fn shown_answers(request: &ChatRequest) -> Vec<(String, String)> {
    labelled_blocks(request, "Response ")
}

/// Every `<{prefix}X>…<end of {prefix}X>` block of the user's message, in order, as
/// (label, text).
pub(super) fn labelled_blocks(request: &ChatRequest, prefix: &str) -> Vec<(String, String)> {
    let Some(content) = request.messages.iter().find_map(|message| match message {
        Message::User { content, .. } => Some(content.as_str()),
        _ => None,
    }) else {
        return Vec::new();
    };
    let mut answers = Vec::new();
    let mut rest = content;
    let open = format!("<{prefix}");
    while let Some(start) = rest.find(&open) {
        let after = &rest[start + 1..];
        let Some(name_end) = after.find('>') else {
            break;
        };
        let label = &after[..name_end];
        let close = format!("<end of {label}>");
        let body = &after[name_end + 1..];
        let Some(body_end) = body.find(&close) else {
            break;
        };
        let text = body[..body_end]
            .split_once('\n')
            .map_or("", |(_, text)| text);
        answers.push((label.to_string(), text.trim().to_string()));
        rest = &body[body_end + close.len()..];
    }
    answers
}

fn rank(request: &ChatRequest, options: &ScriptedOptions) -> Plan {
    let own = normalized(&own_answer(request, options));
    let mut shown = shown_answers(request);
    shown.sort_by_key(|(_, text)| normalized(text) != own);
    let order: Vec<String> = shown.into_iter().map(|(label, _)| label).collect();
    if options.council.rank_garbage {
        return Plan {
            reasoning: None,
            text: Some("They all have their merits; I cannot choose.".into()),
            action: Action::Talk,
        };
    }
    if options.council.rank_as_text {
        let list: Vec<String> = order
            .iter()
            .enumerate()
            .map(|(index, label)| format!("{}. {label}", index + 1))
            .collect();
        return Plan {
            reasoning: None,
            text: Some(format!(
                "Weighing the responses against my own.\n\nFINAL RANKING:\n{}",
                list.join("\n")
            )),
            action: Action::Talk,
        };
    }
    Plan {
        reasoning: None,
        text: Some("Ranking the responses, those that agree with mine first.".into()),
        action: Action::CallTools(vec![ScriptedToolCall {
            name: "rank".into(),
            arguments: serde_json::json!({
                "ranking": order,
                "reasoning": "Answers that agree with mine first, then in label order."
            }),
        }]),
    }
}

/// "Response A ranked first.\n<its text>".
fn chair(request: &ChatRequest) -> String {
    let answers = shown_answers(request);
    let top = request
        .messages
        .iter()
        .find_map(|message| match message {
            Message::User { content, .. } => content
                .split_once(AGGREGATE_HEADING)
                .and_then(|(_, list)| list.trim_start().strip_prefix("- "))
                .and_then(|line| line.split_once(':'))
                .map(|(label, _)| label.trim().to_string()),
            _ => None,
        })
        .or_else(|| answers.first().map(|(label, _)| label.clone()))
        .unwrap_or_default();
    let text = answers
        .iter()
        .find(|(label, _)| *label == top)
        .map_or("", |(_, text)| text.as_str());
    format!("{top} ranked first.\n{text}")
}
