//! The `--automation` display, MassGen's "silent" one: a few lines a script can parse, one
//! block per turn, on standard output —
//!
//! ```text
//! LOG_DIR: <the turn's log directory>
//! STATUS: <LOG_DIR>/status.json
//! QUESTION: <the question, on one line>
//! [Coordination in progress - monitor status.json for real-time updates]
//!
//! WINNER: <agent id>
//! ANSWER_FILE: <LOG_DIR>/final/<winner>/answer.txt
//! DURATION: <seconds, one decimal>s
//! ANSWER_PREVIEW: <the first 200 characters of the answer, on one line>[...]
//!
//! COMPLETED: <N> agents, <seconds>s total
//! ```
//!
//! A council turn adds, as they happen, `STAGE: <stage>` as the turn enters each stage,
//! `RANKING: <ranker>: <member> > <member> … (tool|text)` per ballot, `RANKING_MISSING:
//! <ranker>: <why>`, `AGGREGATE: <member> <points>, …` once every ranker is done and
//! `CHAIRMAN: <member> (configured|top_ranked|fallback after <member>)`; a debate adds
//! `CRITIQUE: <critic> -> <member>, … (round <N>)` per critique.
//!
//! Before the first block, `RUNTIME_INBOX: <dir>` names the steering inbox (`--inbox-dir`)
//! and `APPROVALS: <dir>` each directory where agents in `approval_mode: file` put their
//! requests (`<dir>/<agent>/req_<id>.json`, answered with `resp_<id>.json` beside it).
//! Tool approvals add, as they happen, `APPROVAL_REQUEST: <request id> <agent>: <preview>`
//! for each ask (followed, when the ask is a file handshake, by `APPROVAL_ANSWER_FILE:
//! <request id> <path of the resp_<id>.json to write>`) and `APPROVAL: <agent>
//! allowed|denied by <decider>: <preview>` for each decision that was asked or denied.
//!
//! `LOG_DIR` and `STATUS` are left out when logging is off, `WINNER`, `ANSWER_FILE` and
//! `ANSWER_PREVIEW` when the turn has no answer. Which session `--continue` goes on with,
//! warnings, a reached cost budget, why a turn ended without an answer and how a saved plan
//! ended (ready, failed, completed or partial, with the tasks done) go to standard error.

use std::io::{self, Write};
use std::path::PathBuf;

use super::Printer;
use crate::protocol::{
    AgentId, ChairmanBasis, Event, EventMsg, RankingSource, StrategyEvent, TurnOutcome,
};
use crate::sanitize::sanitize_for_terminal as clean;
use crate::session::format_usd;

/// Characters of the answer shown on `ANSWER_PREVIEW:`.
const PREVIEW_CHARS: usize = 200;

pub struct AutomationPrinter<W: Write, D: Write> {
    out: W,
    diagnostics: D,
    turn: TurnSoFar,
}

/// What the running turn has said so far.
#[derive(Default)]
struct TurnSoFar {
    agents: usize,
    log_dir: Option<PathBuf>,
    winner: Option<AgentId>,
    answer: Option<String>,
}

impl<W: Write, D: Write> AutomationPrinter<W, D> {
    pub fn new(out: W, diagnostics: D) -> Self {
        Self {
            out,
            diagnostics,
            turn: TurnSoFar::default(),
        }
    }

    pub fn into_inner(self) -> (W, D) {
        (self.out, self.diagnostics)
    }

    fn started(
        &mut self,
        question: &str,
        agents: usize,
        log_dir: Option<PathBuf>,
    ) -> io::Result<()> {
        if let Some(dir) = &log_dir {
            writeln!(self.out, "LOG_DIR: {}", dir.display())?;
            writeln!(self.out, "STATUS: {}", dir.join("status.json").display())?;
        }
        writeln!(self.out, "QUESTION: {}", one_line(question))?;
        writeln!(
            self.out,
            "[Coordination in progress - monitor status.json for real-time updates]"
        )?;
        self.turn = TurnSoFar {
            agents,
            log_dir,
            ..TurnSoFar::default()
        };
        Ok(())
    }

    fn finished(&mut self, outcome: TurnOutcome, duration_ms: u64) -> io::Result<()> {
        let turn = std::mem::take(&mut self.turn);
        #[allow(clippy::cast_precision_loss)]
        let seconds = duration_ms as f64 / 1000.0;
        writeln!(self.out)?;
        if let Some(answer) = &turn.answer {
            if let Some(winner) = &turn.winner {
                writeln!(self.out, "WINNER: {winner}")?;
                if let Some(dir) = &turn.log_dir {
                    let file = dir.join("final").join(winner.as_str()).join("answer.txt");
                    writeln!(self.out, "ANSWER_FILE: {}", file.display())?;
                }
            }
            writeln!(self.out, "DURATION: {seconds:.1}s")?;
            writeln!(self.out, "ANSWER_PREVIEW: {}", preview(answer))?;
        } else {
            writeln!(self.out, "DURATION: {seconds:.1}s")?;
        }
        let ended = match outcome {
            TurnOutcome::Completed => None,
            TurnOutcome::TimedOut if turn.answer.is_some() => {
                Some("timed out; the best answer so far was presented")
            }
            TurnOutcome::TimedOut => Some("timed out with no answer"),
            TurnOutcome::Cancelled => Some("was cancelled"),
            TurnOutcome::Failed => Some("failed: no agent produced an answer"),
        };
        if let Some(ended) = ended {
            writeln!(self.diagnostics, "massgen: the turn {ended}")?;
        }
        writeln!(self.out)?;
        writeln!(
            self.out,
            "COMPLETED: {} agents, {seconds:.1}s total",
            turn.agents
        )
    }
}

impl<W: Write + Send, D: Write + Send> Printer for AutomationPrinter<W, D> {
    fn print(&mut self, event: &Event) -> io::Result<()> {
        let msg = &event.msg;
        if let EventMsg::TurnStarted {
            question,
            agents,
            log_dir,
            ..
        } = msg
        {
            self.started(question, agents.len(), log_dir.clone())?;
        } else if let EventMsg::OrchestrationRestarted {
            log_dir: Some(dir), ..
        } = msg
        {
            // The answer file is written in the attempt that ends the turn.
            self.turn.log_dir = Some(dir.clone());
        } else if let EventMsg::WinnerSelected { winner, .. } = msg {
            self.turn.winner = Some(winner.clone());
        } else if let EventMsg::FinalPresentationDone { content, .. } = msg {
            self.turn.answer = Some(content.clone());
        } else if let EventMsg::TurnFinished {
            outcome,
            winner,
            duration_ms,
        } = msg
        {
            if winner.is_some() {
                self.turn.winner.clone_from(winner);
            }
            self.finished(*outcome, *duration_ms)?;
        } else if let EventMsg::Strategy(strategy) = msg
            && let Some(line) = council_line(event.agent.as_ref(), strategy)
        {
            writeln!(self.out, "{line}")?;
        } else if let EventMsg::Approval(approval) = msg
            && let Some(line) = super::approval_lines::automation_line(approval)
        {
            writeln!(self.out, "{line}")?;
        } else if let EventMsg::Warning { message } = msg {
            writeln!(self.diagnostics, "warning: {}", clean(message))?;
        } else if let EventMsg::PlanUpdated { plan } = msg
            && let Some(line) = super::plan_line(plan)
        {
            writeln!(self.diagnostics, "{line}")?;
        } else if let EventMsg::SessionResumed {
            session_id,
            turns,
            history_from,
            ..
        } = msg
        {
            writeln!(
                self.diagnostics,
                "massgen: {}",
                super::resumed_line(session_id, turns.len(), *history_from)
            )?;
        } else if let EventMsg::BudgetReached {
            budget_usd,
            spent_usd,
        } = msg
        {
            writeln!(
                self.diagnostics,
                "massgen: the cost budget of {} was reached ({} spent); the best answer so far \
                 is presented",
                format_usd(*budget_usd),
                format_usd(*spent_usd)
            )?;
        }
        self.out.flush()
    }
}

/// A council or debate event's line, if it has one.
fn council_line(agent: Option<&AgentId>, event: &StrategyEvent) -> Option<String> {
    match (event, agent) {
        (StrategyEvent::StageStarted { stage }, None) => Some(format!("STAGE: {}", stage.label())),
        (StrategyEvent::RankingSubmitted { order, source, .. }, Some(ranker)) => {
            let order: Vec<String> = order.iter().map(ToString::to_string).collect();
            let source = match source {
                RankingSource::Tool => "tool",
                RankingSource::Text => "text",
            };
            Some(format!(
                "RANKING: {ranker}: {} ({source})",
                order.join(" > ")
            ))
        }
        (StrategyEvent::RankingMissing { reason }, Some(ranker)) => {
            Some(format!("RANKING_MISSING: {ranker}: {}", one_line(reason)))
        }
        (StrategyEvent::CritiqueSubmitted { round, targets, .. }, Some(critic)) => {
            let targets: Vec<String> = targets.iter().map(ToString::to_string).collect();
            Some(format!(
                "CRITIQUE: {critic} -> {} (round {round})",
                targets.join(", ")
            ))
        }
        (
            StrategyEvent::RankingsAggregated {
                standings,
                complete: true,
                ..
            },
            _,
        ) => {
            let points: Vec<String> = standings
                .iter()
                .map(|standing| format!("{} {}", standing.agent, standing.points))
                .collect();
            Some(format!("AGGREGATE: {}", points.join(", ")))
        }
        (StrategyEvent::ChairmanChosen { chairman, basis }, _) => {
            let why = match basis {
                ChairmanBasis::Configured => "configured".to_string(),
                ChairmanBasis::TopRanked => "top_ranked".to_string(),
                ChairmanBasis::FirstMember => "first_member".to_string(),
                ChairmanBasis::Fallback { failed, .. } => format!("fallback after {failed}"),
            };
            Some(format!("CHAIRMAN: {chairman} ({why})"))
        }
        _ => None,
    }
}

/// `text` on one line with nothing a terminal would act on.
fn one_line(text: &str) -> String {
    clean(text)
        .split(['\n', '\t'])
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first [`PREVIEW_CHARS`] characters of `answer` on one line, `...` when cut.
fn preview(answer: &str) -> String {
    let flat = one_line(answer.trim());
    if flat.chars().count() > PREVIEW_CHARS {
        let cut: String = flat.chars().take(PREVIEW_CHARS).collect();
        format!("{cut}...")
    } else {
        flat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_is_one_line_of_at_most_200_characters() {
        assert_eq!(
            preview("Paris.\n\nIt is the capital."),
            "Paris. It is the capital."
        );
        let long = "é".repeat(250);
        let shown = preview(&long);
        assert_eq!(shown.chars().count(), PREVIEW_CHARS + 3);
        assert!(shown.ends_with("..."));
        assert_eq!(one_line("a\u{1b}[2J\tb\r\nc"), "a b c");
    }

    #[test]
    fn council_events_have_their_lines() {
        use crate::protocol::{RankedStanding, Stage};
        let b = AgentId::new("b");
        let critique = StrategyEvent::CritiqueSubmitted {
            round: 2,
            targets: vec![AgentId::new("a"), AgentId::new("c")],
            content: "wrong".into(),
        };
        assert_eq!(
            council_line(Some(&b), &critique).as_deref(),
            Some("CRITIQUE: b -> a, c (round 2)")
        );
        assert_eq!(
            council_line(
                None,
                &StrategyEvent::StageStarted {
                    stage: Stage::Ranking
                }
            )
            .as_deref(),
            Some("STAGE: ranking")
        );
        assert_eq!(
            council_line(
                Some(&b),
                &StrategyEvent::StageStarted {
                    stage: Stage::Ranking
                }
            ),
            None
        );
        let ballot = StrategyEvent::RankingSubmitted {
            order: vec![AgentId::new("c"), AgentId::new("a")],
            shown: Vec::new(),
            source: RankingSource::Text,
        };
        assert_eq!(
            council_line(Some(&b), &ballot).as_deref(),
            Some("RANKING: b: c > a (text)")
        );
        let missing = StrategyEvent::RankingMissing {
            reason: "no\nlist".into(),
        };
        assert_eq!(
            council_line(Some(&b), &missing).as_deref(),
            Some("RANKING_MISSING: b: no list")
        );
        let standing = |agent: &str, points| RankedStanding {
            agent: AgentId::new(agent),
            points,
            mean_rank: None,
            ballots: 0,
        };
        let aggregate = |complete| StrategyEvent::RankingsAggregated {
            standings: vec![standing("c", 3), standing("a", 1)],
            missing: Vec::new(),
            complete,
        };
        assert_eq!(council_line(None, &aggregate(false)), None);
        assert_eq!(
            council_line(None, &aggregate(true)).as_deref(),
            Some("AGGREGATE: c 3, a 1")
        );
        let chairman = StrategyEvent::ChairmanChosen {
            chairman: AgentId::new("a"),
            basis: ChairmanBasis::Fallback {
                failed: b.clone(),
                reason: "401".into(),
            },
        };
        assert_eq!(
            council_line(None, &chairman).as_deref(),
            Some("CHAIRMAN: a (fallback after b)")
        );
    }
}
