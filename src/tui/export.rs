//! `/export [N] [path]`: a finished turn as Markdown — the question, every answer with its
//! label and author, the votes with their reasons (those that counted apart from those a
//! newer answer reset), the final answer, and tokens and cost per agent and in total —
//! written to a new file that never replaces an existing one.

use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::protocol::{Spend, TurnOutcome};
use crate::session::format_usd;
use crate::tui::state::{TurnRecord, VoteGroup};

mod headings;

use headings::nested;

/// Where `/export` writes turn `turn` unless told: `.massgen/exports/turn_N.md` under `cwd`.
pub fn default_path(cwd: &Path, turn: u32) -> PathBuf {
    cwd.join(".massgen")
        .join("exports")
        .join(format!("turn_{turn}.md"))
}

/// The turn as a Markdown document: `#` for the turn, `##` for each part, `###` below
/// that; headings inside the question and the answers nest below the part they are in.
pub fn markdown(record: &TurnRecord) -> String {
    let mut out = String::new();
    let outcome = match record.outcome {
        TurnOutcome::Completed => "completed",
        TurnOutcome::TimedOut => "timed out",
        TurnOutcome::Cancelled => "cancelled",
        TurnOutcome::Failed => "failed",
    };
    let _ = writeln!(out, "# Turn {}\n", record.turn);
    let winner = record
        .winner
        .as_ref()
        .map(|winner| format!(" · winner: {winner}"))
        .unwrap_or_default();
    #[allow(clippy::cast_precision_loss)]
    let seconds = record.duration_ms as f64 / 1000.0;
    let _ = writeln!(out, "_{outcome}{winner} · {seconds:.1} s_\n");
    let _ = writeln!(
        out,
        "## Question\n\n{}\n",
        nested(record.question.trim_end(), 2)
    );
    let _ = writeln!(out, "## Answers\n");
    let mut any = false;
    for part in &record.agents {
        for (label, content) in &part.answers {
            any = true;
            let _ = writeln!(
                out,
                "### {label} — {}\n\n{}\n",
                part.id,
                nested(content.trim_end(), 3)
            );
        }
    }
    if !any {
        let _ = writeln!(out, "No answers.\n");
    }
    votes(&mut out, record);
    let _ = writeln!(out, "## Final answer\n");
    match &record.final_answer {
        Some(answer) => {
            let _ = writeln!(
                out,
                "_{} by {}_\n\n{}\n",
                answer.label,
                answer.agent,
                nested(answer.content.trim_end(), 2)
            );
        }
        None => {
            let _ = writeln!(out, "No final answer.\n");
        }
    }
    let _ = writeln!(out, "## Tokens and cost\n");
    let _ = writeln!(out, "| Agent | Input | Output | Reasoning | Cost |");
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for part in &record.agents {
        let _ = writeln!(out, "{}", spend_row(part.id.as_str(), &part.spend));
    }
    let _ = writeln!(out, "{}", spend_row("**total**", &record.spend));
    out
}

/// `## Votes`: those that counted, then under their own headings those that did not (a
/// newer answer reset them, or they were void), each saying why.
fn votes(out: &mut String, record: &TurnRecord) {
    let _ = writeln!(out, "## Votes\n");
    let mut any = false;
    for group in VoteGroup::ALL {
        let votes = record.votes_in(group);
        if votes.is_empty() {
            continue;
        }
        any = true;
        let _ = writeln!(out, "### {} · {}\n", group.title(), votes.len());
        for (voter, vote) in votes {
            let _ = writeln!(out, "- **{voter}** {}", vote.text());
        }
        let _ = writeln!(out);
    }
    if !any {
        let _ = writeln!(out, "No votes.\n");
    }
}

fn spend_row(name: &str, spend: &Spend) -> String {
    let cost = match spend.known_cost() {
        Some(cost) => format_usd(cost),
        None => format!("{} + unknown", format_usd(spend.cost_usd)),
    };
    format!(
        "| {name} | {} | {} | {} | {cost} |",
        spend.usage.input_tokens, spend.usage.output_tokens, spend.usage.reasoning_tokens
    )
}

/// Writes `contents` to `path`, or, if a file is there, to the first free
/// `<stem>_2.<ext>`, `<stem>_3.<ext>`, …; makes the directory. Returns the path written.
pub fn write_new(path: &Path, contents: &str) -> io::Result<PathBuf> {
    if let Some(parent) = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
    {
        std::fs::create_dir_all(parent)?;
    }
    let stem = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| "turn".into());
    let extension = path
        .extension()
        .map(|extension| format!(".{}", extension.to_string_lossy()))
        .unwrap_or_default();
    for attempt in 1..=1000 {
        let candidate = if attempt == 1 {
            path.to_path_buf()
        } else {
            path.with_file_name(format!("{stem}_{attempt}{extension}"))
        };
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(mut file) => {
                file.write_all(contents.as_bytes())?;
                return Ok(candidate);
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "1000 files of that name exist already",
    ))
}

/// The notice `/export` leaves once the file is written (or not).
pub fn notice(turn: u32, written: &io::Result<PathBuf>, asked: &Path) -> String {
    match written {
        Ok(path) => format!("turn {turn} exported to {}", path.display()),
        Err(error) => format!(
            "could not export turn {turn} to {} ({error}); give another path: /export {turn} PATH",
            asked.display()
        ),
    }
}

#[cfg(test)]
mod tests;
