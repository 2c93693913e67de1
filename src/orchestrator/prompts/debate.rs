//! The debate's own messages: a member's critique round (its peers' answers under their
//! anonymous ids and the `critique` tool), its revision round (its answer and the
//! critiques of it), its final vote, and the chairman's synthesis from the whole thread.

use std::fmt::Write as _;

use super::council::{CHAIRMAN_INTRO, answers_block, identity};
use super::{PromptContext, history_block};
use crate::backend::Message;
use crate::orchestrator::coordination::council::ShownAnswer;

/// The heading of the critiques of a member's answer in its revision round (the scripted
/// backend knows a revision round by it).
pub const CRITIQUES_HEADING: &str = "CRITIQUES OF YOUR ANSWER:";

/// The heading of the last round's critiques in the chairman's message (the scripted
/// backend knows a debate's chairman by it).
pub const THREAD_HEADING: &str = "THE LAST ROUND'S CRITIQUES:";

/// The heading of the final answers in a member's final vote.
pub const FINAL_ANSWERS_HEADING: &str = "THE FINAL ANSWERS:";

fn question_block(context: &PromptContext<'_>) -> String {
    let mut user = history_block(context.history);
    let _ = write!(
        user,
        "<ORIGINAL MESSAGE> {} <END OF ORIGINAL MESSAGE>\n\n",
        context.question
    );
    user
}

fn shown_block(user: &mut String, shown: &[ShownAnswer]) {
    let answers: Vec<&ShownAnswer> = shown.iter().collect();
    answers_block(user, &answers, &vec![String::new(); answers.len()]);
}

/// `[system, user]` for a member's critique round over its peers' answers (`shown`).
pub fn critique_messages(
    context: &PromptContext<'_>,
    round: u32,
    shown: &[ShownAnswer],
) -> Vec<Message> {
    let mut system = identity(context);
    system.push_str(
        "You are a member of a debate. Several members answered the user's question; in this \
         round you critique your peers' answers: say plainly what is wrong, missing or \
         doubtful, and what is right. Judge accuracy and completeness, not length or style.",
    );
    let mut user = question_block(context);
    let _ = write!(user, "YOUR PEERS' ANSWERS (debate round {round}):\n\n");
    shown_block(&mut user, shown);
    let ids: Vec<&str> = shown.iter().map(|answer| answer.label.as_str()).collect();
    let _ = write!(
        user,
        "Critique them by calling the `critique` tool with {{\"critiques\": [{{\"agent\": \
         \"{first}\", \"critique\": \"…\"}}, …]}}, one entry per peer you critique. The peers: \
         {all}. If you cannot call tools, reply with your critique in text; it counts as a \
         critique of every peer above.",
        first = ids.first().copied().unwrap_or("agent1"),
        all = ids.join(", ")
    );
    vec![Message::system(system), Message::user(user)]
}

/// `[system, user]` for a member's revision round: its answer and every critique of it
/// this round (`(critic's id, critique)`).
pub fn revision_messages(
    context: &PromptContext<'_>,
    round: u32,
    own: &str,
    critiques: &[(String, String)],
) -> Vec<Message> {
    let mut system = identity(context);
    system.push_str(
        "You are a member of a debate. Your peers have critiqued your answer. Revise it where \
         a critique is right; where it is wrong, keep your answer and defend it. Your revision \
         replaces your answer.",
    );
    let mut user = question_block(context);
    let _ = write!(
        user,
        "YOUR ANSWER (debate round {round}):\n<your answer>\n{}\n<end of your answer>\n\n\
         {CRITIQUES_HEADING}\n\n",
        own.trim()
    );
    if critiques.is_empty() {
        user.push_str("(nobody critiqued your answer this round)\n\n");
    }
    for (critic, critique) in critiques {
        let _ = write!(
            user,
            "<critique by {critic}>\n{}\n<end of critique by {critic}>\n\n",
            critique.trim()
        );
    }
    user.push_str(
        "Submit your revised answer, complete, with `new_answer` (the same text if you keep \
         it). If you cannot call tools, reply with the revised answer alone.",
    );
    vec![Message::system(system), Message::user(user)]
}

/// `[system, user]` for a member's final vote among the final answers.
pub fn final_vote_messages(context: &PromptContext<'_>, finals: &[ShownAnswer]) -> Vec<Message> {
    let mut system = identity(context);
    system.push_str(
        "You are a member of a debate that is over. Vote for the best final answer to the \
         user's question, on accuracy and completeness; your own is among them.",
    );
    let mut user = question_block(context);
    user.push_str(FINAL_ANSWERS_HEADING);
    user.push_str("\n\n");
    shown_block(&mut user, finals);
    user.push_str("Vote once with the `vote` tool, naming the agent id of the best answer.");
    vec![Message::system(system), Message::user(user)]
}

/// `[system, user]` for the chairman: every member's final answer and the last round's
/// critiques (`(critic, target, critique)`).
pub fn debate_synthesis_messages(
    context: &PromptContext<'_>,
    finals: &[ShownAnswer],
    critiques: &[(String, String, String)],
) -> Vec<Message> {
    let mut system = identity(context);
    system.push_str(CHAIRMAN_INTRO);
    system.push_str(
        " Its members answered the user's question, then critiqued and revised their answers \
         over rounds of debate. Write the single best final answer from the thread: keep what \
         the final answers agree on, settle what they dispute on the evidence of the \
         critiques, and correct what is wrong. Speak to the user directly and do not mention \
         the debate, its members or the critiques.",
    );
    let mut user = question_block(context);
    user.push_str("THE MEMBERS' FINAL ANSWERS:\n\n");
    shown_block(&mut user, finals);
    user.push_str(THREAD_HEADING);
    if critiques.is_empty() {
        user.push_str("\n(none)");
    }
    for (critic, target, critique) in critiques {
        let _ = write!(user, "\n- {critic} on {target}: {}", critique.trim());
    }
    user.push_str("\n\nWrite the final answer now.");
    vec![Message::system(system), Message::user(user)]
}

/// The nudge after a critique reply that said nothing.
pub fn critique_reminder(peers: &[String]) -> String {
    format!(
        "Your reply critiqued nothing. Call the `critique` tool on the peers you were shown \
         ({}), or reply with your critique in text.",
        peers.join(", ")
    )
}
