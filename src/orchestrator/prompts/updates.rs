//! Text appended to an agent's tool result mid-round: peers' new answers (MassGen's
//! mid-stream injection) and the round time limit's notices.

use std::fmt::Write as _;
use std::time::Duration;

use super::PromptContext;
use crate::orchestrator::coordination::FreshAnswer;

/// An injected answer is cut to this many characters; the agent reads the rest in the
/// peer's workspace, or in full when it next restarts.
pub const INJECTED_ANSWER_CHARS: usize = 500;

const RULE: &str = "============================================================";

/// The update block for `fresh` answers, as the reader sees them.
pub fn injection_block(context: &PromptContext<'_>, fresh: &[FreshAnswer]) -> String {
    let mut block =
        format!("\n{RULE}\n⚠️  IMPORTANT: NEW ANSWER RECEIVED - ACTION REQUIRED\n{RULE}\n\n");
    let named = |revised: bool| -> Vec<&str> {
        fresh
            .iter()
            .filter(|fresh| fresh.revised == revised)
            .map(|fresh| fresh.answer.anon.as_str())
            .collect()
    };
    let mut summary = Vec::new();
    let first = named(false);
    if !first.is_empty() {
        summary.push(format!("{} submitted new answer(s)", first.join(", ")));
    }
    let revised = named(true);
    if !revised.is_empty() {
        summary.push(format!("{} updated their answer(s)", revised.join(", ")));
    }
    let _ = writeln!(block, "[UPDATE: {}]\n", summary.join("; "));
    for fresh in fresh {
        let anon = fresh.answer.anon.as_str();
        let _ = write!(block, "  [{anon}] ({})", fresh.answer.label);
        if let Some(filesystem) = &context.filesystem {
            let _ = write!(
                block,
                " (workspace: {})",
                filesystem.temp.join(anon).display()
            );
        }
        block.push_str(":\n");
        if let Some((_, progress)) = context.progress.iter().find(|(id, _)| id == anon) {
            let _ = writeln!(
                block,
                "  Progress: {} (informational only)",
                crate::plan::progress_line(progress)
            );
        }
        let content = match &context.filesystem {
            Some(filesystem) => filesystem.localise(&fresh.answer.content),
            None => fresh.answer.content.clone(),
        };
        let _ = writeln!(block, "  {}\n", cut(content.trim(), INJECTED_ANSWER_CHARS));
    }
    let _ = write!(
        block,
        "{RULE}\nREQUIRED ACTION - You MUST do one of the following:\n{RULE}\n\n\
         1. Evaluate the new answer(s): read them (and their workspace files, if any) and \
         compare them with your own work.\n\
         2. Then choose one:\n   \
         a) VOTE for an answer that is complete and correct (the `vote` tool)\n   \
         b) BUILD on their work: improve or extend it and submit your enhanced answer with \
         `new_answer`\n   \
         c) MERGE approaches: combine the best parts of theirs and yours\n   \
         d) CONTINUE your own approach if you believe it is better\n\n\
         Do not ignore this update: evaluate it and decide.\n{RULE}\n"
    );
    block
}

/// The first `max` characters of `text`, with `...` when it was longer.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Appended to the first tool result after a round passes its soft time limit.
pub fn wrap_up_notice(round: u32, elapsed: Duration, limit: Duration, grace: Duration) -> String {
    let kind = if round <= 1 { "initial" } else { "subsequent" };
    format!(
        "\n{RULE}\n⏰ ROUND TIME LIMIT APPROACHING - PLEASE WRAP UP\n{RULE}\n\n\
         You have exceeded the soft time limit for this {kind} round ({:.0}s / {:.0}s).\n\
         Finish what makes your work presentable, then submit soon:\n\
         1. `new_answer` - submit your current best answer (work in progress is fine)\n\
         2. `vote` - vote for an existing answer if one is satisfactory\n\n\
         Submit within the next {:.0} seconds. After that every other tool call is refused \
         and you must submit immediately. The next round allows further iteration.\n{RULE}\n",
        elapsed.as_secs_f64(),
        limit.as_secs_f64(),
        grace.as_secs_f64()
    )
}

/// The tool result of a call refused after the grace period.
pub fn hard_block_message(
    tool: &str,
    since_notice: Duration,
    grace: Duration,
    denials: u32,
) -> String {
    let mut message = format!(
        "⛔ HARD TIMEOUT - TOOL `{tool}` BLOCKED (attempt #{denials})\n\
         You received the time limit warning {:.0}s ago (grace period: {:.0}s).\n\
         Only `vote` or `new_answer` are allowed. Submit immediately, noting any unsolved \
         problems.",
        since_notice.as_secs_f64(),
        grace.as_secs_f64()
    );
    if denials >= 3 {
        let _ = write!(
            message,
            "\n⚠️ WARNING: {denials} consecutive blocked calls. Your turn ends after {} blocked calls.",
            crate::orchestrator::round_clock::MAX_CONSECUTIVE_DENIALS
        );
    }
    message
}
