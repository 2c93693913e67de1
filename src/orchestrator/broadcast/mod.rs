//! Broadcast (`coordination.broadcast`): agents ask the user or each other with
//! `ask_others`. The tools and their calls, the board of open questions, the prompt
//! section that tells agents they may ask, and a peer's answer from a side call to its
//! model (MassGen's "shadow agent"), so the peer's own work is never interrupted.

mod board;
pub mod tools;

pub use board::{Board, Reply, Request, human_summary};
pub use tools::{BroadcastCall, is_broadcast_tool};

use std::fmt::Write as _;
use std::sync::Arc;

use crate::backend::Message;
use crate::orchestrator::model_call::{ModelLink, TextRole};
use crate::protocol::{BroadcastTarget, Question};

/// The system-prompt section for agents that may ask.
pub fn guidance(target: BroadcastTarget, wait_by_default: bool) -> String {
    let whom = match target {
        BroadcastTarget::Human => "the human user",
        BroadcastTarget::Agents | BroadcastTarget::Off => "the other agents",
    };
    let mut text = format!(
        "## Agent Communication\n\
         You can ask {whom} with the `ask_others` tool. Use it for significant decisions, \
         design choices or information only they have — not for what you can find out \
         yourself. Prefer structured `questions`, each with 2-5 options and a recommendation; \
         ask at most a few questions per call and include all the context needed, since \
         {whom} cannot see your files. Mention the replies you used in your `new_answer`."
    );
    if wait_by_default {
        text.push_str("\n`ask_others` waits for the replies and returns them.");
    } else {
        text.push_str(
            "\n`ask_others` returns a `request_id` at once; check it later with \
             `check_broadcast_status` and read the replies with `get_broadcast_responses`.",
        );
    }
    if target == BroadcastTarget::Human {
        text.push_str(
            "\nNote: only the human answers your questions (the other agents are not told).",
        );
    }
    text
}

/// The question as a peer reads it.
fn question_text(questions: &[Question]) -> String {
    let mut text = String::new();
    for (index, question) in questions.iter().enumerate() {
        if questions.len() > 1 {
            let _ = write!(text, "{}. ", index + 1);
        }
        text.push_str(&question.text);
        text.push('\n');
        for option in &question.options {
            let _ = write!(text, "   - {} ({})", option.label, option.id);
            if !option.description.is_empty() {
                let _ = write!(text, ": {}", option.description);
            }
            text.push('\n');
        }
    }
    text
}

/// A peer's reply to `questions` asked by `asker_anon`: one call to the peer's model with
/// its own system message and no tools.
pub async fn peer_answer(
    model: &ModelLink,
    system_message: Option<&str>,
    asker_anon: &str,
    questions: &[Question],
) -> String {
    let mut system = system_message.unwrap_or_default().trim().to_string();
    if !system.is_empty() {
        system.push_str("\n---\n");
    }
    system.push_str(
        "## BROADCAST RESPONSE MODE\n\nYou are responding to a question from another agent in \
         your team. Answer directly and concisely from what you know; say so when you do not \
         know. Where the question offers options, name the one you recommend and why.",
    );
    let messages = Arc::new(vec![
        Message::system(system),
        Message::user(format!(
            "**BROADCAST QUESTION FROM {}:**\n\n{}\nPlease provide your response:",
            asker_anon.to_ascii_uppercase(),
            question_text(questions)
        )),
    ]);
    match model.call_model(&messages, &[], TextRole::Quiet).await {
        Ok(turn) if !turn.text.trim().is_empty() => turn.text.trim().to_string(),
        Ok(_) => "[No response generated]".to_string(),
        Err(error) => format!("[Error generating response: {error}]"),
    }
}
