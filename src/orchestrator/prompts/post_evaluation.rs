//! The winner's check of its final answer (MassGen's post-evaluation) and the feedback the
//! next attempt starts from when it sends the answer back.

use std::fmt::Write as _;

use super::{PromptContext, history_block};
use crate::backend::Message;

const POST_EVALUATION: &str = "\
## Post-Presentation Evaluation

You have just presented a final answer to the user. Now evaluate whether it fully \
addresses the original task.

**Your task:** review the final answer below and decide whether it completely and \
accurately addresses every requirement of the original task.

**Tools:** you have the same files and tools as during the presentation. Use them to \
verify that files the answer claims exist do exist, that their contents match the \
description, and that technical claims hold.

**Decision:** call exactly ONE of these tools:
1. `submit(confirmed=true)` when the answer addresses ALL parts of the task, its claims \
are accurate and verified, and the work is complete.
2. `restart_orchestration(reason, instructions)` when the answer is incomplete, contains \
errors, or misses important aspects of the task. Give a clear `reason` (what is wrong) and \
detailed, actionable `instructions` for the next attempt.

Be honest and thorough: a restart with clear instructions leads to a better result.";

/// `[system, user]` for the check of `answer`.
pub fn post_evaluation_messages(context: &PromptContext<'_>, answer: &str) -> Vec<Message> {
    let mut system = String::from("<system_prompt>\n");
    if let Some(identity) = context
        .system_message
        .filter(|text| !text.trim().is_empty())
    {
        let _ = write!(
            system,
            "<agent_identity priority=\"critical\">\n{}\n</agent_identity>\n",
            identity.trim()
        );
    }
    let _ = write!(
        system,
        "<post_evaluation priority=\"medium\">\n{POST_EVALUATION}\n</post_evaluation>\n</system_prompt>"
    );
    let mut user = history_block(context.history);
    let _ = write!(
        user,
        "<ORIGINAL MESSAGE> {} <END OF ORIGINAL MESSAGE>\n\nFINAL ANSWER TO EVALUATE:\n{}\n\n\
         Review this answer carefully and determine if it fully addresses the original task. \
         Use your available tools to verify claims and check files as needed.\nThen call \
         either submit(confirmed=True) if the answer is satisfactory, or \
         restart_orchestration(reason, instructions) if improvements are needed.",
        context.question,
        answer.trim()
    );
    vec![Message::system(system), Message::user(user)]
}

/// MassGen's `<PREVIOUS ATTEMPT FEEDBACK>` block, placed first in every user message of
/// the next attempt.
pub fn attempt_feedback(reason: &str, instructions: &str, previous_answer: Option<&str>) -> String {
    let mut block = format!(
        "<PREVIOUS ATTEMPT FEEDBACK>\nThe previous orchestration attempt was restarted \
         because:\n{}\n\n**Instructions for this attempt:**\n{}",
        reason.trim(),
        instructions.trim()
    );
    if let Some(answer) = previous_answer.filter(|answer| !answer.trim().is_empty()) {
        let _ = write!(
            block,
            "\n\n**Previous attempt's winning answer (for reference):**\n{}",
            answer.trim()
        );
    }
    block.push_str(
        "\n\nPlease address these specific issues in your coordination and final answer.\n\
         <END OF PREVIOUS ATTEMPT FEEDBACK>\n\n",
    );
    block
}
