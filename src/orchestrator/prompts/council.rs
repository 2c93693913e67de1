//! The council's own messages: a member's ranking round (the answers it was shown under
//! their labels, the `rank` tool and the "FINAL RANKING:" text form), the nudge after a
//! reply that ranked nothing, and the chairman's synthesis.

use std::fmt::Write as _;

use super::{PromptContext, history_block};
use crate::backend::Message;
use crate::orchestrator::coordination::council::ShownAnswer;
use crate::protocol::RankedStanding;

/// How the chairman's system prompt begins (the scripted backend knows it by this).
pub const CHAIRMAN_INTRO: &str = "You are the chairman of a council.";

/// The heading of the aggregate ranking in the chairman's message.
pub const AGGREGATE_HEADING: &str = "AGGREGATE RANKING:";

pub(super) fn identity(context: &PromptContext<'_>) -> String {
    context
        .system_message
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(|text| format!("{text}\n\n"))
        .unwrap_or_default()
}

pub(super) fn answers_block(text: &mut String, answers: &[&ShownAnswer], notes: &[String]) {
    for (answer, note) in answers.iter().zip(notes) {
        let _ = write!(
            text,
            "<{label}>{note}\n{content}\n<end of {label}>\n\n",
            label = answer.label,
            content = answer.content.trim()
        );
    }
}

/// `[system, user]` for a member's ranking round over `shown`.
pub fn ranking_messages(context: &PromptContext<'_>, shown: &[ShownAnswer]) -> Vec<Message> {
    let mut system = identity(context);
    system.push_str(
        "You are a member of a council. Several members answered the user's question on \
         their own; you now judge their answers, which are anonymous. Judge each on accuracy \
         and completeness, not on length or style, and never on who might have written it.",
    );
    let mut user = history_block(context.history);
    let _ = write!(
        user,
        "<ORIGINAL MESSAGE> {} <END OF ORIGINAL MESSAGE>\n\n",
        context.question
    );
    let answers: Vec<&ShownAnswer> = shown.iter().collect();
    answers_block(&mut user, &answers, &vec![String::new(); answers.len()]);
    let labels: Vec<&str> = shown.iter().map(|answer| answer.label.as_str()).collect();
    let _ = write!(
        user,
        "Evaluate each response briefly, then rank them best first by calling the `rank` tool \
         with {{\"ranking\": [\"{first}\", …], \"reasoning\": \"…\"}}. The labels: {all}.\n\
         If you cannot call tools, end your reply with the line \"FINAL RANKING:\" followed by \
         a numbered list, best first, one label per line (for example \"1. {first}\").",
        first = labels.first().copied().unwrap_or("Response A"),
        all = labels.join(", ")
    );
    vec![Message::system(system), Message::user(user)]
}

/// The nudge after a ranking reply with no usable ranking.
pub fn ranking_reminder(partial_text: &str, labels: &[String]) -> String {
    let mut message = String::new();
    if !partial_text.trim().is_empty() {
        let _ = write!(
            message,
            "<incomplete_response>\n{}\n</incomplete_response>\n\n",
            partial_text.trim()
        );
    }
    let _ = write!(
        message,
        "Your reply ranked nothing I could read. Call the `rank` tool with the labels you were \
         shown ({}), best first, or end your reply with the line \"FINAL RANKING:\" and a \
         numbered list of those labels.",
        labels.join(", ")
    );
    message
}

/// `[system, user]` for the chairman: every answer with its label and its standing
/// (`ranked`, best first), and the aggregate ranking.
pub fn synthesis_messages(
    context: &PromptContext<'_>,
    ranked: &[(ShownAnswer, RankedStanding)],
) -> Vec<Message> {
    let mut system = identity(context);
    system.push_str(CHAIRMAN_INTRO);
    system.push_str(
        " Several members answered the user's question on their own, then ranked each \
         other's answers anonymously. Write the single best final answer from them: keep \
         what the answers agree on and what the best-ranked ones get right, correct what is \
         wrong, and weigh the ranking as evidence, not as a verdict. Speak to the user \
         directly and do not mention the council, its members or the rankings.",
    );
    let mut user = history_block(context.history);
    let _ = write!(
        user,
        "<ORIGINAL MESSAGE> {} <END OF ORIGINAL MESSAGE>\n\nTHE COUNCIL'S ANSWERS (best \
         ranked first):\n\n",
        context.question
    );
    let answers: Vec<&ShownAnswer> = ranked.iter().map(|(answer, _)| answer).collect();
    let notes: Vec<String> = ranked
        .iter()
        .map(|(_, standing)| standing_note(standing))
        .collect();
    answers_block(&mut user, &answers, &notes);
    user.push_str(AGGREGATE_HEADING);
    for (answer, standing) in ranked {
        let _ = write!(user, "\n- {}:{}", answer.label, standing_note(standing));
    }
    user.push_str("\n\nWrite the final answer now.");
    vec![Message::system(system), Message::user(user)]
}

/// " 5 points, mean rank 1.5 over 2 ballots".
fn standing_note(standing: &RankedStanding) -> String {
    match standing.mean_rank {
        Some(mean) => format!(
            " {} points, mean rank {mean:.2} over {} ballot{}",
            standing.points,
            standing.ballots,
            if standing.ballots == 1 { "" } else { "s" }
        ),
        None => format!(" {} points, ranked by no ballot", standing.points),
    }
}
