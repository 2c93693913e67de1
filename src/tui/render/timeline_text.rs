//! What each timeline entry says, and in which style: one line of text per kind of
//! coordination event (turns, answers, votes, restarts, timeouts, plans, the winner).

use super::format::{duration, plural, retrying, seconds};
use crate::protocol::ChecklistVerdict;
use crate::protocol::symbols::{
    APPROACH, BLOCKED, CHECKLIST, COMPRESSED, CRITERIA, HELD, PERSONA, PLANNING_MODE, RELEASED,
    REPLY, STOPPED, SUBTASK,
};
use crate::protocol::{FAIRNESS_RELEASED_LINE, compression_line, fairness_hold_line};
use crate::protocol::{
    FinalAnswerStrategy, PlanOutcome, PlanStatus, PostEvaluationOutcome, RoundTimeStage,
    TimeoutScope, TurnOutcome, WinnerBasis,
};
use crate::tui::state::{Delivery, EntryKind, asked, refusal};
use crate::tui::theme::Theme;

/// Open tasks a partial plan's entry names.
const OPEN_SHOWN: usize = 3;

/// What the entry says, and in which style.
pub fn describe(kind: &EntryKind, theme: &Theme) -> (String, ratatui::style::Style) {
    match kind {
        EntryKind::TurnStarted { turn, question } => {
            (format!("◈ turn {turn}: {question}"), theme.accent())
        }
        EntryKind::Restarted { round, reason } => {
            (format!("↻ round {round}: {reason}"), theme.dim())
        }
        EntryKind::FairnessHold { lead, cap } => (
            format!("{HELD} {}", fairness_hold_line(*lead, *cap)),
            theme.warn(),
        ),
        EntryKind::FairnessReleased => {
            (format!("{RELEASED} {FAIRNESS_RELEASED_LINE}"), theme.dim())
        }
        EntryKind::Injected { labels } => {
            let labels: Vec<String> = labels.iter().map(ToString::to_string).collect();
            (
                format!("📨 update received: {} (no restart)", labels.join(", ")),
                theme.accent(),
            )
        }
        EntryKind::RoundTimeLimit { stage } => (
            match stage {
                RoundTimeStage::WrapUp => "⏱ round time limit: wrap up now".to_string(),
                RoundTimeStage::Blocked => {
                    "⏱ round time limit passed: only vote and new_answer allowed".to_string()
                }
            },
            theme.warn(),
        ),
        EntryKind::Compressed {
            reason,
            tokens_before,
            tokens_after,
            window,
            summarized,
        } => (
            format!(
                "{COMPRESSED} {}",
                compression_line(*reason, *tokens_before, *tokens_after, *window, *summarized)
            ),
            theme.warn(),
        ),
        EntryKind::PostEvaluation { outcome } => match outcome {
            None => ("🔍 checking the final answer".to_string(), theme.accent()),
            Some(PostEvaluationOutcome::Submitted) => {
                ("🔍 final answer confirmed".to_string(), theme.good())
            }
            Some(PostEvaluationOutcome::RestartRequested { reason, .. }) => {
                (format!("🔍 sent back: {reason}"), theme.warn())
            }
            Some(PostEvaluationOutcome::Failed { message }) => (
                format!("🔍 check failed ({message}); the answer stands"),
                theme.warn(),
            ),
        },
        EntryKind::OrchestrationRestart {
            attempt,
            max_attempts,
            reason,
            instructions,
        } => (
            format!(
                "🔄 ORCHESTRATION RESTART (attempt {attempt}/{max_attempts}) · REASON: {reason} · \
                 INSTRUCTIONS: {instructions}"
            ),
            theme.winner(),
        ),
        EntryKind::Answer { label, preview } => (format!("✔ {label} {preview}"), theme.good()),
        EntryKind::Vote {
            target,
            target_label,
            reason,
        } => (
            format!("🗳 → {target} ({target_label}): {reason}"),
            theme.text(),
        ),
        EntryKind::Checklist { result } => (
            format!("{CHECKLIST} checklist: {}", result.summary()),
            match result.verdict {
                ChecklistVerdict::Vote => theme.good(),
                ChecklistVerdict::NewAnswer => theme.warn(),
            },
        ),
        EntryKind::Approach { summary } => {
            (format!("{APPROACH} approach: {summary}"), theme.text())
        }
        EntryKind::VoteIgnored { target, why } => {
            (format!("⊘ vote for {target} ignored: {why}"), theme.warn())
        }
        EntryKind::Enforcement {
            attempt,
            max_attempts,
            detail,
        } => (
            format!("⟳ attempt {attempt}/{max_attempts}: {detail}"),
            theme.warn(),
        ),
        EntryKind::Retrying {
            reason,
            delay_ms,
            attempt,
            max_retries,
        } => (
            retrying(reason, *delay_ms, *attempt, *max_retries),
            theme.warn(),
        ),
        EntryKind::Strategy(entry) => super::strategy_text::describe(entry, theme),
        EntryKind::Error { message } => (format!("✗ {message}"), theme.bad()),
        EntryKind::Killed { reason } => (format!("✗ dropped: {reason}"), theme.bad()),
        EntryKind::Winner {
            tally,
            is_tie,
            basis,
        } => {
            let leader = tally.iter().max_by_key(|count| count.votes);
            let how = match basis {
                WinnerBasis::Votes => "by votes",
                WinnerBasis::TieBrokenByConfigOrder => "tie broken by config order",
                WinnerBasis::FirstAnswer => "no votes: first answer",
                WinnerBasis::Presenter => "presenter: integrates every subtask",
                WinnerBasis::Chairman => "chairman: synthesizes every answer",
            };
            let tie = if *is_tie { " (tie)" } else { "" };
            let counts = tally
                .iter()
                .map(|count| format!("{} {}", count.agent, count.votes))
                .collect::<Vec<_>>()
                .join(", ");
            (
                format!(
                    "🏆 winner {}{tie}, {how} [{counts}]",
                    leader
                        .map(|count| count.agent.to_string())
                        .unwrap_or_default()
                ),
                theme.winner(),
            )
        }
        EntryKind::Presenting { label, strategy } => {
            let how = match strategy {
                FinalAnswerStrategy::WinnerPresent => "",
                FinalAnswerStrategy::WinnerReuse => " · the winner's answer as written",
                FinalAnswerStrategy::Synthesize => " · synthesized from all answers",
            };
            (format!("🎯 presenting {label}{how}"), theme.accent())
        }
        EntryKind::Overridden { label, agent } => (
            format!("👤 override: final answer is {label} ({agent})"),
            theme.winner(),
        ),
        EntryKind::FinalDone {
            fallback,
            after_timeout,
        } => (
            match (fallback, after_timeout) {
                (false, _) => "final answer presented".to_string(),
                (true, Some(TimeoutScope::Orchestrator)) => {
                    "final answer: the winner's stored answer (time ran out)".to_string()
                }
                (true, Some(TimeoutScope::Presentation)) => {
                    "final answer: the winner's stored answer (presenting took too long)"
                        .to_string()
                }
                (true, None) => {
                    "final answer: the winner's stored answer (presentation failed)".to_string()
                }
            },
            theme.good(),
        ),
        EntryKind::Timeout { scope, seconds } => (
            match scope {
                TimeoutScope::Orchestrator => format!("⏱ coordination timed out after {seconds} s"),
                TimeoutScope::Presentation => format!("⏱ presentation timed out after {seconds} s"),
            },
            theme.warn(),
        ),
        EntryKind::Cancelled => ("✗ cancelled".to_string(), theme.warn()),
        EntryKind::AnswerNow { stopped } => (answer_now(stopped), theme.accent()),
        EntryKind::HumanInput { text, delivery } => match delivery {
            Delivery::Queued => (format!("👤 queued: {text}"), theme.accent()),
            Delivery::Delivered(to) => (
                format!("👤 delivered to {}: {text}", names(to)),
                theme.accent(),
            ),
            Delivery::NotDelivered => (
                format!("👤 not delivered, the agents finished first: {text}"),
                theme.warn(),
            ),
        },
        EntryKind::Warning { message } => (format!("⚠ {message}"), theme.warn()),
        EntryKind::ToolRefused { tool, path, reason } => {
            (refusal(tool, path, reason), theme.warn())
        }
        EntryKind::TurnFinished {
            outcome,
            duration_ms,
        } => {
            let what = match outcome {
                TurnOutcome::Completed => "✓ turn done",
                TurnOutcome::TimedOut => "⏱ turn timed out",
                TurnOutcome::Cancelled => "✗ turn cancelled",
                TurnOutcome::Failed => "✗ turn failed: no answer",
            };
            (
                format!("{what} in {}", duration(duration_ms / 1000)),
                theme.dim(),
            )
        }
        EntryKind::Persona { summary } => (format!("{PERSONA} persona: {summary}"), theme.dim()),
        EntryKind::Subtasks { subtasks, source } => {
            let each: Vec<String> = subtasks
                .iter()
                .map(|(agent, subtask)| format!("{agent}: {subtask}"))
                .collect();
            (
                format!(
                    "{SUBTASK} subtasks ({}): {}",
                    source.name(),
                    each.join(" · ")
                ),
                theme.dim(),
            )
        }
        EntryKind::Stopped { status, summary } => (
            format!("{STOPPED} stopped ({status}): {summary}"),
            if status == "blocked" {
                theme.warn()
            } else {
                theme.good()
            },
        ),
        EntryKind::Criteria { source, ids } => (
            format!("{CRITERIA} criteria ({}): {}", source.name(), ids.join(" ")),
            theme.dim(),
        ),
        EntryKind::PlanningMode {
            irreversible: false,
            ..
        } => (
            format!("{PLANNING_MODE} planning mode: nothing irreversible, tools allowed"),
            theme.dim(),
        ),
        EntryKind::PlanningMode {
            irreversible: true,
            blocked,
        } => {
            let what = match blocked {
                0 => "every MCP tool".to_string(),
                count => plural(*count, "tool"),
            };
            (
                format!(
                    "{PLANNING_MODE} planning mode: irreversible, {what} blocked until the \
                     presentation"
                ),
                theme.warn(),
            )
        }
        EntryKind::ToolBlocked { tool } => (
            format!("{BLOCKED} {tool} blocked by planning mode"),
            theme.warn(),
        ),
        EntryKind::QuestionAsked {
            target,
            text,
            count,
        } => (asked(*target, text, *count), theme.accent()),
        EntryKind::QuestionAnswered { from, answer } => {
            let who = from
                .as_ref()
                .map_or_else(|| "you".to_string(), ToString::to_string);
            let answer = if answer.is_empty() {
                "(no answer)"
            } else {
                answer.as_str()
            };
            (format!("{REPLY} {who} replied: {answer}"), theme.text())
        }
        EntryKind::QuestionClosed {
            timed_out: true,
            responses,
        } => (
            format!("⏱ the question timed out ({})", replies(*responses)),
            theme.warn(),
        ),
        EntryKind::QuestionClosed {
            timed_out: false,
            responses,
        } => (
            format!("{REPLY} question closed: {}", replies(*responses)),
            theme.dim(),
        ),
        EntryKind::Plan {
            id,
            status,
            tasks,
            detail,
            divergence,
            outcome,
        } => plan_entry(
            id,
            *status,
            *tasks,
            detail.as_deref(),
            (*divergence, outcome.as_ref()),
            theme,
        ),
        EntryKind::ToolCall {
            tool,
            ok,
            duration_ms,
        } => {
            let (mark, style) = if *ok {
                ("✓", theme.text())
            } else {
                ("✗", theme.bad())
            };
            (
                format!("🔧 {tool} {mark} {} s", seconds(*duration_ms)),
                style,
            )
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
/// The user's "answer now", and whose rounds it cut short.
fn answer_now(stopped: &[crate::protocol::AgentId]) -> String {
    if stopped.is_empty() {
        "⚡ answer now: refinement ended; the leader presents".to_string()
    } else {
        format!(
            "⚡ answer now: refinement ended, {} stopped; the leader presents",
            names(stopped)
        )
    }
}

fn names(agents: &[crate::protocol::AgentId]) -> String {
    let names: Vec<String> = agents.iter().map(ToString::to_string).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "no agent".into(),
    }
}

fn replies(count: u32) -> String {
    if count == 1 {
        "1 reply".into()
    } else {
        format!("{count} replies")
    }
}

/// `📋 plan … ready: 12 tasks`, `✗ plan … failed: why`, `✓ plan … completed (3/3 tasks
/// done, divergence 0.15)`, `◐ plan … partial (1/3 tasks done, divergence 0.00): open T002
/// blocked, T003 pending`.
fn plan_entry(
    id: &str,
    status: PlanStatus,
    tasks: usize,
    detail: Option<&str>,
    (divergence, outcome): (Option<f64>, Option<&PlanOutcome>),
    theme: &Theme,
) -> (String, ratatui::style::Style) {
    let counted = outcome.map_or_else(|| plural(tasks, "task"), PlanOutcome::done_words);
    let tasks = plural(tasks, "task");
    match status {
        PlanStatus::Planning => (format!("📋 planning {id}"), theme.dim()),
        PlanStatus::Ready => (format!("📋 plan {id} ready: {tasks}"), theme.good()),
        PlanStatus::Executing => (format!("▶ executing plan {id} ({tasks})"), theme.accent()),
        PlanStatus::Completed => {
            let divergence =
                divergence.map_or_else(String::new, |score| format!(", divergence {score:.2}"));
            let detail = detail.map_or_else(String::new, |detail| format!(": {detail}"));
            (
                format!("✓ plan {id} completed ({counted}{divergence}){detail}"),
                theme.good(),
            )
        }
        PlanStatus::Partial => {
            let divergence =
                divergence.map_or_else(String::new, |score| format!(", divergence {score:.2}"));
            let open = outcome.map_or_else(String::new, |outcome| {
                format!(": open {}", outcome.open_words(OPEN_SHOWN))
            });
            (
                format!("◐ plan {id} partial ({counted}{divergence}){open}"),
                theme.warn(),
            )
        }
        PlanStatus::Failed => (
            format!(
                "✗ plan {id} failed: {}",
                detail.unwrap_or("no reason given")
            ),
            theme.bad(),
        ),
    }
}
