//! The `plain` display: readable, line-oriented progress of a turn, and the final answer
//! streamed as it is written. Used with `--display plain` and when stdout is not a terminal.
//! Agents' streamed text is printed a whole line at a time, prefixed with the agent's name
//! (`stream`); the turn's heading, winner, final answer and closing line are in `turn`.

mod attempts;
mod plan;
mod provider_tool;
mod servers;
mod stream;
mod turn;

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;

use super::Printer;
use super::lines::{AgentLines, Channel};
use super::style::Style;
use crate::protocol::{AgentId, AgentInfo, Event, EventMsg, Spend, TimeoutScope};
use crate::sanitize::sanitize_for_terminal as clean;
use crate::session::format_usd;

pub struct PlainPrinter<W: Write> {
    out: W,
    /// The final answer's heading, printed when its first text arrives.
    pending_heading: Option<String>,
    style: Style,
    agents: Vec<AgentInfo>,
    lines: AgentLines,
    final_streamed: bool,
    /// The last final-answer text did not end its line.
    final_line_open: bool,
    log_dir: Option<PathBuf>,
    /// The turn's tokens and cost so far.
    spend: Spend,
    /// Each agent's last printed task counts (total, done, in progress).
    progress: HashMap<AgentId, (usize, usize, usize)>,
}

impl<W: Write + Send> Printer for PlainPrinter<W> {
    fn print(&mut self, event: &Event) -> io::Result<()> {
        if let EventMsg::Usage {
            usage, cost_usd, ..
        } = &event.msg
        {
            self.spend.add(*usage, *cost_usd);
        }
        self.handle_full(event)?;
        self.out.flush()
    }
}

impl<W: Write> PlainPrinter<W> {
    pub fn new(out: W, style: Style) -> Self {
        Self {
            out,
            pending_heading: None,
            style,
            agents: Vec::new(),
            lines: AgentLines::default(),
            final_streamed: false,
            final_line_open: false,
            log_dir: None,
            spend: Spend::default(),
            progress: HashMap::new(),
        }
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    fn name(&self, agent: &AgentId) -> String {
        let index = self
            .agents
            .iter()
            .position(|info| &info.id == agent)
            .unwrap_or(0);
        self.style.agent(index, agent.as_str())
    }

    fn tag(&self, agent: &AgentId) -> String {
        format!("[{}]", self.name(agent))
    }

    /// Writes `line` for `agent` after flushing what it had streamed.
    fn agent_line(&mut self, agent: &AgentId, line: &str) -> io::Result<()> {
        self.flush_agent(agent)?;
        let tag = self.tag(agent);
        writeln!(self.out, "{tag} {line}")
    }

    fn note(&mut self, line: &str) -> io::Result<()> {
        self.end_final_line()?;
        self.flush_all()?;
        writeln!(self.out, "{line}")
    }

    fn handle_full(&mut self, event: &Event) -> io::Result<()> {
        let agent = event.agent.as_ref();
        match (&event.msg, agent) {
            (
                EventMsg::TurnStarted {
                    question,
                    agents,
                    log_dir,
                    mode,
                    options,
                },
                _,
            ) => self.turn_header(
                event.turn,
                question,
                agents,
                log_dir.as_ref(),
                (*mode, options),
            ),
            (EventMsg::TextDelta { text }, Some(agent)) => self.stream(agent, text, Channel::Text),
            (EventMsg::ReasoningDelta { text }, Some(agent)) => {
                self.stream(agent, text, Channel::Reasoning)
            }
            (EventMsg::AgentRestarted { round, reason }, Some(agent)) => {
                let line = self
                    .style
                    .dim(&format!("↻ round {round}: {}", clean(reason)));
                self.agent_line(agent, &line)
            }
            (
                EventMsg::ToolCallBegin {
                    tool, arguments, ..
                },
                Some(agent),
            ) => {
                let line = format!("⚙ {} {}", clean(tool), preview(arguments, 80));
                self.agent_line(agent, &line)
            }
            (
                EventMsg::ToolCallEnd {
                    tool,
                    ok,
                    output,
                    duration_ms,
                    ..
                },
                Some(agent),
            ) => {
                let line = if *ok {
                    self.style
                        .good(&format!("✓ {} ({duration_ms} ms)", clean(tool)))
                } else {
                    self.style
                        .bad(&format!("✗ {}: {}", clean(tool), preview(output, 100)))
                };
                self.agent_line(agent, &line)
            }
            (EventMsg::ProviderTool(call), Some(agent)) => self.provider_tool(agent, call),
            (EventMsg::AnswerSubmitted { label, content, .. }, Some(agent)) => {
                let line = format!(
                    "{} {}",
                    self.style.good(&format!("✔ answer {label}:")),
                    preview(content, 90)
                );
                self.agent_line(agent, &line)
            }
            (
                EventMsg::VoteCast {
                    target,
                    target_label,
                    reason,
                    ..
                },
                Some(agent),
            ) => {
                let line = format!(
                    "☑ votes for {} ({target_label}): {}",
                    self.name(target),
                    clean(reason)
                );
                self.agent_line(agent, &line)
            }
            (EventMsg::VoteIgnored { target, why, .. }, Some(agent)) => {
                let line = self.style.dim(&format!(
                    "⊘ vote for {} ignored: {}",
                    clean(target.as_str()),
                    clean(why)
                ));
                self.agent_line(agent, &line)
            }
            (
                EventMsg::Retrying {
                    attempt,
                    max_retries,
                    delay_ms,
                    reason,
                },
                Some(agent),
            ) => {
                #[allow(clippy::cast_precision_loss)]
                let seconds = *delay_ms as f64 / 1000.0;
                let line = self.style.warn(&format!(
                    "⟳ {}, retrying in {seconds:.1} s ({attempt}/{max_retries})",
                    clean(reason)
                ));
                self.agent_line(agent, &line)
            }
            (
                EventMsg::EnforcementRetry {
                    attempt,
                    max_attempts,
                    detail,
                    ..
                },
                Some(agent),
            ) => {
                let line = self.style.warn(&format!(
                    "⟳ attempt {attempt}/{max_attempts}: {}",
                    preview(detail, 100)
                ));
                self.agent_line(agent, &line)
            }
            (EventMsg::AgentError { message }, Some(agent)) => {
                let line = self.style.bad(&format!("✗ error: {}", clean(message)));
                self.agent_line(agent, &line)
            }
            (EventMsg::McpServerStatus { server, state }, Some(agent)) => {
                self.server_line(agent, server, state)
            }
            (EventMsg::ToolRefused { tool, path, reason }, Some(agent)) => {
                self.refused_line(agent, tool, path, reason)
            }
            (EventMsg::AgentKilled { reason }, Some(agent)) => {
                let line = self
                    .style
                    .bad(&format!("✗ out of this turn: {}", clean(reason)));
                self.agent_line(agent, &line)
            }
            (EventMsg::HumanInputDelivered { .. }, Some(agent)) => {
                self.agent_line(agent, &self.style.dim("» received your input"))
            }
            (EventMsg::UpdateInjected { labels }, Some(agent)) => self.update_line(agent, labels),
            (EventMsg::FinalOverridden { label, agent, .. }, _) => {
                let line = format!("👤 override: final answer is {label} ({agent})");
                self.note(&self.style.bold(&line))
            }
            (EventMsg::RoundTimeLimitReached { stage, .. }, Some(agent)) => {
                self.round_time_line(agent, *stage)
            }
            (EventMsg::PostEvaluationStarted { .. }, Some(agent)) => self.checking_line(agent),
            (EventMsg::PostEvaluationFinished { outcome }, Some(agent)) => {
                self.checked_line(agent, outcome)
            }
            (
                EventMsg::OrchestrationRestarted {
                    attempt,
                    max_attempts,
                    reason,
                    instructions,
                    ..
                },
                _,
            ) => self.restart_banner(*attempt, *max_attempts, reason, instructions),
            (
                EventMsg::WinnerSelected {
                    winner,
                    winner_anon,
                    tally,
                    basis,
                    ..
                },
                _,
            ) => self.winner_line(winner, winner_anon, tally, *basis),
            (EventMsg::FinalPresentationStarted { label }, Some(agent)) => {
                self.final_started(agent, label);
                Ok(())
            }
            (EventMsg::FinalPresentationDelta { text }, _) => self.final_delta(text),
            (
                EventMsg::FinalPresentationDone {
                    content, fallback, ..
                },
                _,
            ) => self.final_done(content, *fallback),
            (EventMsg::Timeout { scope, seconds }, _) => {
                let what = match scope {
                    TimeoutScope::Orchestrator => "coordination",
                    TimeoutScope::Presentation => "the final presentation",
                };
                let line = self
                    .style
                    .warn(&format!("⏱ {what} timed out after {seconds} s"));
                self.note(&line)
            }
            (
                EventMsg::BudgetReached {
                    budget_usd,
                    spent_usd,
                },
                _,
            ) => {
                let line = self.style.warn(&format!(
                    "💰 cost budget of {} reached ({} spent): no new model calls; the best \
                     answer so far is presented",
                    format_usd(*budget_usd),
                    format_usd(*spent_usd)
                ));
                self.note(&line)
            }
            (EventMsg::Cancelled, _) => self.note(&self.style.warn("✗ cancelled")),
            (
                EventMsg::SessionResumed {
                    session_id,
                    turns,
                    history_from,
                    ..
                },
                _,
            ) => self.resumed_line(session_id, turns.len(), *history_from),
            (EventMsg::Warning { message }, _) => {
                self.note(&self.style.warn(&format!("! {}", clean(message))))
            }
            (
                EventMsg::PlanningModeDecided {
                    irreversible,
                    blocked_tools,
                },
                _,
            ) => self.planning_mode_line(*irreversible, blocked_tools),
            (EventMsg::ToolBlocked { tool, .. }, Some(agent)) => self.blocked_line(agent, tool),
            (EventMsg::TaskPlanChanged { tasks }, Some(agent)) => self.tasks_line(agent, tasks),
            (
                EventMsg::BroadcastAsked {
                    target, questions, ..
                },
                Some(agent),
            ) => self.asked_line(agent, *target, questions),
            (EventMsg::BroadcastAnswered { from, answer, .. }, Some(agent)) => {
                self.answered_line(agent, from.as_ref(), answer)
            }
            (
                EventMsg::BroadcastClosed {
                    timed_out: true,
                    responses,
                    ..
                },
                Some(agent),
            ) => self.timed_out_line(agent, *responses),
            (EventMsg::PlanUpdated { plan }, _) => self.plan_status(plan),
            (EventMsg::HumanInputQueued { text }, _) => self.note(
                &self
                    .style
                    .dim(&format!("» queued for the agents: {}", clean(text))),
            ),
            (
                EventMsg::TurnFinished {
                    outcome,
                    duration_ms,
                    ..
                },
                _,
            ) => self.finish_line(*outcome, *duration_ms),
            (
                EventMsg::RunStarted { .. }
                | EventMsg::RunFinished
                | EventMsg::AgentsReplaced { .. }
                | EventMsg::HistoryCleared
                | EventMsg::AgentStatus { .. }
                | EventMsg::RoundStarted { .. }
                | EventMsg::Usage { .. }
                | EventMsg::TextDelta { .. }
                | EventMsg::ReasoningDelta { .. }
                | EventMsg::AgentRestarted { .. }
                | EventMsg::UpdateInjected { .. }
                | EventMsg::RoundTimeLimitReached { .. }
                | EventMsg::PostEvaluationStarted { .. }
                | EventMsg::PostEvaluationFinished { .. }
                | EventMsg::ToolCallBegin { .. }
                | EventMsg::ToolCallEnd { .. }
                | EventMsg::ProviderTool(_)
                | EventMsg::AnswerSubmitted { .. }
                | EventMsg::VoteCast { .. }
                | EventMsg::VoteIgnored { .. }
                | EventMsg::EnforcementRetry { .. }
                | EventMsg::Retrying { .. }
                | EventMsg::RoundUsage { .. }
                | EventMsg::AgentError { .. }
                | EventMsg::AgentKilled { .. }
                | EventMsg::HumanInputDelivered { .. }
                | EventMsg::FinalPresentationStarted { .. }
                | EventMsg::WorkspaceSnapshot { .. }
                | EventMsg::WorkspaceAssigned { .. }
                | EventMsg::McpServerStatus { .. }
                | EventMsg::ToolRefused { .. }
                | EventMsg::ReplayStarted { .. }
                | EventMsg::ReplayFinished { .. }
                | EventMsg::ToolBlocked { .. }
                | EventMsg::TaskPlanChanged { .. }
                | EventMsg::BroadcastAsked { .. }
                | EventMsg::BroadcastAnswered { .. }
                | EventMsg::BroadcastClosed { .. }
                | EventMsg::PlansListed { .. },
                _,
            ) => Ok(()),
        }
    }
}

/// The first line of `text`, cut to `max` characters.
pub(super) fn preview(text: &str, max: usize) -> String {
    let text = clean(text);
    let first = text.trim().lines().next().unwrap_or_default();
    let more = text.trim().lines().count() > 1;
    if first.chars().count() > max {
        let cut: String = first.chars().take(max).collect();
        format!("{cut}…")
    } else if more {
        format!("{first} …")
    } else {
        first.to_string()
    }
}
