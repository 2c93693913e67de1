//! Turns a plan into timed stream events and plays them at the configured speed.

use std::time::Duration;

use futures::StreamExt;

use super::plan::{Action, Plan};
use crate::backend::{BackendError, ChatRequest, EventStream, FinishReason, StreamEvent};
use crate::config::{FailureMode, ScriptedFailure, ScriptedOptions};
use crate::protocol::Usage;

/// One step of the reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// An event that counts as one streamed token (paced by `tokens_per_second`).
    Token(StreamEvent),
    /// An event sent without pacing.
    Instant(StreamEvent),
    Fail(BackendError),
    /// Stop sending without ending the stream.
    Stall,
}

pub fn steps(
    plan: &Plan,
    request: &ChatRequest,
    call_number: u32,
    failure: Option<&ScriptedFailure>,
    report_usage: bool,
) -> Vec<Step> {
    let mut steps = Vec::new();
    if let Some(reasoning) = &plan.reasoning {
        steps
            .extend(tokens(reasoning).map(|token| Step::Token(StreamEvent::ReasoningDelta(token))));
    }
    let reasoning_tokens = steps.len();
    let mut body = plan.text.clone().unwrap_or_default();
    if let Action::Present(text) = &plan.action {
        body = text.clone();
    }
    if !body.is_empty() && !matches!(plan.action, Action::Present(_)) && !body.ends_with('\n') {
        body.push('\n');
    }
    steps.extend(tokens(&body).map(|token| Step::Token(StreamEvent::TextDelta(token))));

    let calls: Vec<(String, serde_json::Value)> = match &plan.action {
        Action::Answer(content) => vec![(
            "new_answer".into(),
            serde_json::json!({ "content": content }),
        )],
        Action::Vote { agent_id, reason } => vec![(
            "vote".into(),
            serde_json::json!({ "agent_id": agent_id, "reason": reason }),
        )],
        Action::Stop { summary } => vec![(
            "stop".into(),
            serde_json::json!({ "summary": summary, "status": "complete" }),
        )],
        Action::CallTools(calls) => calls
            .iter()
            .map(|call| (call.name.clone(), call.arguments.clone()))
            .collect(),
        Action::Present(_) | Action::Talk => Vec::new(),
    };
    for (index, (name, arguments)) in calls.iter().enumerate() {
        steps.push(Step::Token(StreamEvent::ToolCallStart {
            index,
            id: format!("call_{call_number}_{index}"),
            name: name.clone(),
        }));
        let json = arguments.to_string();
        for fragment in fragments(&json, 24) {
            steps.push(Step::Token(StreamEvent::ToolCallArgsDelta {
                index,
                fragment,
            }));
        }
    }

    let output_tokens = steps.len() as u64;
    let input_chars: usize = request.messages.iter().map(|m| m.content().len()).sum();
    let usage = Usage {
        input_tokens: (input_chars / 4) as u64 + 1,
        output_tokens,
        reasoning_tokens: reasoning_tokens as u64,
        ..Usage::default()
    };
    if let Some(failure) = failure {
        let cut = failure.after_tokens.min(steps.len());
        match failure.mode {
            FailureMode::Error => {
                steps.truncate(cut);
                steps.push(Step::Fail(BackendError::Failed {
                    message: failure.message.clone(),
                }));
                return steps;
            }
            FailureMode::Hang => {
                steps.truncate(cut);
                steps.push(Step::Stall);
                return steps;
            }
            FailureMode::Truncate => {
                steps.truncate(cut);
                return steps;
            }
            FailureMode::NoWorkflow | FailureMode::InvalidVote => {}
        }
    }
    if report_usage {
        steps.push(Step::Instant(StreamEvent::Usage(usage)));
    }
    let reason = if calls.is_empty() {
        FinishReason::Stop
    } else {
        FinishReason::ToolCalls
    };
    steps.push(Step::Instant(StreamEvent::Finish(reason)));
    steps
}

/// Streams the steps: the first token after `first_token_ms`, then one token per
/// `1 / tokens_per_second` seconds (no waiting at all at 0).
pub fn play(steps: Vec<Step>, options: &ScriptedOptions) -> EventStream {
    let token_gap = if options.tokens_per_second > 0.0 {
        Duration::try_from_secs_f64(1.0 / options.tokens_per_second).unwrap_or(Duration::ZERO)
    } else {
        Duration::ZERO
    };
    let first_delay = Duration::from_millis(options.first_token_ms);
    futures::stream::iter(steps.into_iter().enumerate())
        .then(move |(position, step)| async move {
            let pace = if matches!(step, Step::Token(_)) {
                token_gap
            } else {
                Duration::ZERO
            };
            let delay = if position == 0 {
                first_delay + pace
            } else {
                pace
            };
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            match step {
                Step::Token(event) | Step::Instant(event) => Ok(event),
                Step::Fail(error) => Err(error),
                Step::Stall => std::future::pending().await,
            }
        })
        .boxed()
}

/// Splits text into word-sized tokens, each word with the whitespace after it.
fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut seen_word = false;
        let mut in_trailing_space = false;
        let mut end = rest.len();
        for (index, c) in rest.char_indices() {
            if c.is_whitespace() {
                in_trailing_space = seen_word;
            } else if in_trailing_space {
                end = index;
                break;
            } else {
                seen_word = true;
            }
        }
        let (token, tail) = rest.split_at(end);
        rest = tail;
        Some(token.to_string())
    })
}

fn fragments(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(size.max(1))
        .map(|chunk| chunk.iter().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn tokens_are_paced_by_tokens_per_second() {
        let options = ScriptedOptions {
            tokens_per_second: 10.0,
            first_token_ms: 500,
            ..ScriptedOptions::default()
        };
        let steps = ["one ", "two ", "three"]
            .map(|token| Step::Token(StreamEvent::TextDelta(token.into())))
            .to_vec();
        let start = tokio::time::Instant::now();
        let mut stream = play(steps, &options);
        let mut arrivals = Vec::new();
        while let Some(item) = stream.next().await {
            item.unwrap();
            arrivals.push(start.elapsed().as_millis());
        }
        assert_eq!(arrivals, [600, 700, 800]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_stall_never_ends_and_an_error_ends_the_stream() {
        let options = ScriptedOptions {
            tokens_per_second: 0.0,
            ..ScriptedOptions::default()
        };
        let mut stalled = play(vec![Step::Stall], &options);
        let waited =
            tokio::time::timeout(std::time::Duration::from_secs(3600), stalled.next()).await;
        assert!(waited.is_err(), "a stalled stream yields nothing");
        let failing = play(
            vec![Step::Fail(BackendError::Failed {
                message: "boom".into(),
            })],
            &options,
        );
        let items: Vec<_> = failing.collect().await;
        assert_eq!(
            items,
            [Err(BackendError::Failed {
                message: "boom".into()
            })]
        );
    }

    #[test]
    fn tokens_keep_every_character() {
        let text = "Hello  world,\nnew line ";
        let pieces: Vec<String> = tokens(text).collect();
        assert_eq!(pieces.concat(), text);
        assert_eq!(pieces, vec!["Hello  ", "world,\n", "new ", "line "]);
    }
}
