//! The scripted model in a debate: how it critiques, revises, votes and chairs.
//!
//! - **Critique** (`critique` offered): one deterministic sentence per peer shown, naming
//!   its own answer and whether the peer's agrees; with `critique_as_text` the same
//!   sentences as a reply in text, no tool call.
//! - **Revision** (the critiques of its answer shown, `new_answer` offered): it keeps its
//!   answer; with `adopt_majority` it adopts the answer most of the answers it has seen
//!   (its own and its critics') agree with, its own on a tie.
//! - **Final vote** (`vote` offered over the final answers): the answer most final answers
//!   agree with, its own on a tie.
//! - **Chairing** (the chairman's prompt with the thread): the final answer most agree
//!   with, the first on a tie.
//!
//! With `fail_in_debate` every call after its answer fails.

use super::plan::{Action, Plan};
use super::ranking::{labelled_blocks, normalized, own_answer};
use super::reading;
use crate::backend::{ChatRequest, Message};
use crate::config::{FailureMode, ScriptedFailure, ScriptedOptions, ScriptedToolCall};

/// The orchestrator's headings (`prompts::debate`), by which each request is known.
const CRITIQUES_HEADING: &str = "CRITIQUES OF YOUR ANSWER:";
const THREAD_HEADING: &str = "THE LAST ROUND'S CRITIQUES:";
const FINAL_ANSWERS_HEADING: &str = "THE FINAL ANSWERS:";
/// How its critiques state its own answer, so the critiqued can read it back.
const MINE_OPEN: &str = "My answer is «";
const MINE_CLOSE: &str = "»";

enum Request {
    Critique,
    Revision,
    FinalVote,
    Chair,
}

fn kind(request: &ChatRequest) -> Option<Request> {
    if reading::offers(request, "critique") {
        Some(Request::Critique)
    } else if reading::offers(request, "new_answer")
        && reading::user_says(request, CRITIQUES_HEADING)
    {
        Some(Request::Revision)
    } else if reading::offers(request, "vote") && reading::user_says(request, FINAL_ANSWERS_HEADING)
    {
        Some(Request::FinalVote)
    } else if request.tools.is_empty() && reading::user_says(request, THREAD_HEADING) {
        Some(Request::Chair)
    } else {
        None
    }
}

/// The debate's plan for this request, when it is a debate request.
pub(super) fn plan(
    request: &ChatRequest,
    options: &ScriptedOptions,
    own_anon: &str,
) -> Option<Plan> {
    let plan = match kind(request)? {
        Request::Critique => critique(request, options),
        Request::Revision => {
            let own = current_answer(request);
            let content = if options.debate.adopt_majority {
                let seen: Vec<String> = std::iter::once(own.clone())
                    .chain(critics_answers(request))
                    .collect();
                majority(&seen, 0).unwrap_or(own)
            } else {
                own
            };
            Plan {
                reasoning: None,
                text: Some("Weighing the critiques of my answer.".into()),
                action: Action::Answer(content),
            }
        }
        Request::FinalVote => {
            let finals = labelled_blocks(request, "agent");
            let texts: Vec<String> = finals.iter().map(|(_, text)| text.clone()).collect();
            let own = finals
                .iter()
                .position(|(label, _)| label == own_anon)
                .unwrap_or(0);
            let chosen = majority_index(&texts, own).unwrap_or(own);
            Plan {
                reasoning: None,
                text: Some("Voting for the answer most of us reached.".into()),
                action: Action::Vote {
                    agent_id: finals
                        .get(chosen)
                        .map_or_else(|| own_anon.to_string(), |(label, _)| label.clone()),
                    reason: "Most final answers agree with it.".into(),
                },
            }
        }
        Request::Chair => {
            let finals = labelled_blocks(request, "agent");
            let texts: Vec<String> = finals.iter().map(|(_, text)| text.clone()).collect();
            let chosen = majority_index(&texts, 0).unwrap_or(0);
            let (label, text) = finals.get(chosen).cloned().unwrap_or_default();
            Plan {
                reasoning: None,
                text: None,
                action: Action::Present(format!("{label} holds up best.\n{text}")),
            }
        }
    };
    Some(plan)
}

/// The failure of every call after its answer (`fail_in_debate`).
pub(super) fn debate_failure(
    request: &ChatRequest,
    options: &ScriptedOptions,
) -> Option<ScriptedFailure> {
    (options.debate.fail_in_debate && kind(request).is_some()).then(|| ScriptedFailure {
        mode: FailureMode::Error,
        after_tokens: 0,
        times: None,
        message: "scripted debate failure".into(),
    })
}

fn critique(request: &ChatRequest, options: &ScriptedOptions) -> Plan {
    let own = own_answer(request, options);
    let peers = labelled_blocks(request, "agent");
    let sentence = |text: &str| {
        let verdict = if normalized(text) == normalized(&own) {
            "agrees with mine"
        } else {
            "differs from mine"
        };
        format!("{MINE_OPEN}{own}{MINE_CLOSE}; this answer {verdict}.")
    };
    if options.debate.critique_as_text {
        let lines: Vec<String> = peers.iter().map(|(_, text)| sentence(text)).collect();
        return Plan {
            reasoning: None,
            text: Some(lines.join("\n")),
            action: Action::Talk,
        };
    }
    let critiques: Vec<serde_json::Value> = peers
        .iter()
        .map(|(label, text)| serde_json::json!({"agent": label, "critique": sentence(text)}))
        .collect();
    Plan {
        reasoning: None,
        text: Some("Critiquing my peers' answers.".into()),
        action: Action::CallTools(vec![ScriptedToolCall {
            name: "critique".into(),
            arguments: serde_json::json!({ "critiques": critiques }),
        }]),
    }
}

/// The text of the `<your answer>` block of a revision request.
fn current_answer(request: &ChatRequest) -> String {
    labelled_blocks(request, "your answer")
        .into_iter()
        .next()
        .map(|(_, text)| text)
        .unwrap_or_default()
}

/// The answers its critics stated in their critiques ("My answer is «…»").
fn critics_answers(request: &ChatRequest) -> Vec<String> {
    let mut answers = Vec::new();
    for message in request.messages.iter() {
        let Message::User { content, .. } = message else {
            continue;
        };
        let mut rest = content.as_str();
        while let Some(start) = rest.find(MINE_OPEN) {
            let after = &rest[start + MINE_OPEN.len()..];
            let Some(end) = after.find(MINE_CLOSE) else {
                break;
            };
            answers.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    answers
}

/// The index of the answer most of `texts` agree with (same words, any case and
/// spacing); a tie goes to `preferred` when it is among the most agreed, else the first.
fn majority_index(texts: &[String], preferred: usize) -> Option<usize> {
    let support = |index: usize| {
        texts
            .iter()
            .filter(|text| normalized(text) == normalized(&texts[index]))
            .count()
    };
    let best = (0..texts.len()).map(support).max()?;
    if preferred < texts.len() && support(preferred) == best {
        return Some(preferred);
    }
    (0..texts.len()).find(|index| support(*index) == best)
}

fn majority(texts: &[String], preferred: usize) -> Option<String> {
    majority_index(texts, preferred).map(|index| texts[index].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_majority_wins_and_a_tie_keeps_the_preferred() {
        let texts: Vec<String> = ["5", "4", " 4 "].map(String::from).to_vec();
        assert_eq!(majority_index(&texts, 0), Some(1));
        let tie: Vec<String> = ["5", "4"].map(String::from).to_vec();
        assert_eq!(majority_index(&tie, 0), Some(0));
        assert_eq!(majority_index(&tie, 1), Some(1));
        assert_eq!(majority_index(&[], 0), None);
    }
}
