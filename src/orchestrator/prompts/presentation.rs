//! The final presentation's messages: the winner (or decomposition's presenter) gets the
//! votes and every answer, worded for the strategy that makes the final answer.

use std::fmt::Write as _;

use super::{PromptContext, code_tools, decomposition, final_answer, history_block, memory};
use crate::backend::Message;
use crate::orchestrator::coordination::Feedback;
use crate::protocol::{AgentId, FinalAnswerStrategy};

use super::filesystem::filesystem_instructions;

/// What the final presentation call needs.
pub struct Presentation<'a> {
    pub winner: &'a AgentId,
    pub feedback: &'a Feedback,
    pub tie_broken: bool,
    /// Every agent's latest answer, real ids, config order.
    pub answers: &'a [(AgentId, &'a str)],
    pub strategy: FinalAnswerStrategy,
    /// Any agent voted before coordination ended.
    pub voted: bool,
    /// Decomposition mode: every agent's work, told to the presenter instead of the votes.
    pub decomposition: Option<&'a [decomposition::SubtaskWork<'a>]>,
}

/// `[system, user]` for the winner's final presentation.
pub fn presentation_messages(
    context: &PromptContext<'_>,
    presentation: &Presentation<'_>,
) -> Vec<Message> {
    let mut system = String::new();
    if let Some(identity) = context
        .system_message
        .filter(|text| !text.trim().is_empty())
    {
        system.push_str(identity.trim());
        system.push_str("\n\n");
    }
    system.push_str(
        "You have been selected as the winning presenter. Several agents worked on the user's \
         request; present the final answer now, combining the strengths of all participants' \
         answers into one complete, polished response. Speak to the user directly and do not \
         mention agents, votes or this selection process.",
    );
    if let Some(filesystem) = &context.filesystem {
        system.push_str("\n\n");
        system.push_str(&filesystem_instructions(filesystem, true));
    }
    if let Some(code) = context.code_tools {
        let workspace = context.filesystem.as_ref().map(|view| view.workspace);
        system.push_str("\n\n");
        system.push_str(&code_tools::code_tools_instructions(code, workspace));
    }
    if context.memory {
        system.push_str("\n\n");
        system.push_str(memory::PRESENTER_INSTRUCTIONS);
    }

    let mut user = history_block(context.history);
    if let Some(work) = presentation.decomposition {
        user.push_str(&decomposition::presentation_content(context.question, work));
        let attachments = context.attachments.to_vec();
        return vec![
            Message::system(system),
            Message::user_with(user, attachments),
        ];
    }
    let _ = write!(
        user,
        "<ORIGINAL MESSAGE> {} <END OF ORIGINAL MESSAGE>\n\nVOTING RESULTS:\n",
        context.question
    );
    let reasons: Vec<&str> = presentation
        .feedback
        .iter()
        .map(|(_, reason)| reason.as_str())
        .filter(|reason| !reason.trim().is_empty())
        .collect();
    let (strategy, voted) = (presentation.strategy, presentation.voted);
    if strategy == FinalAnswerStrategy::Synthesize && !voted {
        user.push_str(final_answer::SYNTHESIS_WITHOUT_VOTES);
        user.push('\n');
    } else {
        let _ = write!(user, "You received {} vote(s)", presentation.feedback.len());
        if presentation.tie_broken {
            user.push_str(" (tie-broken by registration order)");
        }
        if reasons.is_empty() {
            user.push_str(".\n");
        } else {
            let _ = writeln!(user, " with feedback: {}", reasons.join("; "));
        }
    }
    user.push_str("\nAll answers provided during coordination:\n");
    let mark_own = final_answer::marks_own_answer(strategy, voted);
    for (agent, answer) in presentation.answers {
        let mine = if mark_own && agent == presentation.winner {
            " (YOUR ANSWER)"
        } else {
            ""
        };
        let _ = writeln!(user, "{agent}: \"{answer}\"{mine}");
    }
    user.push('\n');
    user.push_str(final_answer::instruction(strategy, voted));
    vec![
        Message::system(system),
        Message::user_with(user, context.attachments.to_vec()),
    ]
}
