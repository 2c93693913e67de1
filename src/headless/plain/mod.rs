//! The `plain` display: readable, line-oriented progress of a turn, and the final answer
//! streamed as it is written. Used with `--display plain` and when stdout is not a terminal.
//! Agents' streamed text is printed a whole line at a time, prefixed with the agent's name
//! (`stream`); the turn's heading, winner, final answer and closing line are in `turn`.

mod answers;
mod attempts;
mod council;
mod cut_short;
mod plan;
mod provider_tool;
mod servers;
mod stream;
mod tool_calls;
mod turn;

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;

use super::Printer;
use super::lines::{AgentLines, Channel};
use super::style::Style;
use crate::protocol::symbols::{APPROACH, CHECKLIST};
use crate::protocol::{
    AgentId, AgentInfo, Event, EventMsg, Spend, run_events, usage_events, workspace_events,
};
use crate::sanitize::sanitize_for_terminal as clean;

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

    /// Prints what `event` shows. Events about an agent print only when they name it.
    fn handle_full(&mut self, event: &Event) -> io::Result<()> {
        match (&event.msg, event.agent.as_ref()) {
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
                self.restarted_line(agent, *round, reason)
            }
            (
                EventMsg::ToolCallBegin {
                    tool, arguments, ..
                },
                Some(agent),
            ) => self.tool_started_line(agent, tool, arguments),
            (
                EventMsg::ToolCallEnd {
                    tool,
                    ok,
                    output,
                    duration_ms,
                    ..
                },
                Some(agent),
            ) => self.tool_finished_line(agent, tool, *ok, output, *duration_ms),
            (EventMsg::ProviderTool(call), Some(agent)) => self.provider_tool(agent, call),
            (EventMsg::AnswerSubmitted { label, content, .. }, Some(agent)) => {
                self.answer_line(agent, label, content)
            }
            (
                EventMsg::VoteCast {
                    target,
                    target_label,
                    reason,
                    ..
                },
                Some(agent),
            ) => self.vote_line(agent, target, target_label, reason),
            (EventMsg::ChecklistSubmitted { result }, Some(agent)) => {
                let line = self
                    .style
                    .dim(&format!("{CHECKLIST} checklist: {}", result.summary()));
                self.agent_line(agent, &line)
            }
            (EventMsg::ApproachDrafted { approach }, Some(agent)) => {
                let line = self
                    .style
                    .dim(&format!("{APPROACH} approach: {}", approach.summary()));
                self.agent_line(agent, &line)
            }
            (EventMsg::VoteIgnored { target, why, .. }, Some(agent)) => {
                self.vote_ignored_line(agent, target, why)
            }
            (
                EventMsg::Retrying {
                    attempt,
                    max_retries,
                    delay_ms,
                    reason,
                },
                Some(agent),
            ) => self.retrying_line(agent, *attempt, *max_retries, *delay_ms, reason),
            (
                EventMsg::EnforcementRetry {
                    attempt,
                    max_attempts,
                    detail,
                    ..
                },
                Some(agent),
            ) => self.enforcement_line(agent, *attempt, *max_attempts, detail),
            (EventMsg::AgentError { message }, Some(agent)) => self.error_line(agent, message),
            (EventMsg::McpServerStatus { server, state }, Some(agent)) => {
                self.server_line(agent, server, state)
            }
            (EventMsg::AttachmentsSent { attachments }, Some(agent)) => {
                self.attachments_line(agent, attachments)
            }
            (EventMsg::ToolRefused { tool, path, reason }, Some(agent)) => {
                self.refused_line(agent, tool, path, reason)
            }
            (EventMsg::AgentKilled { reason }, Some(agent)) => self.killed_line(agent, reason),
            (EventMsg::HumanInputDelivered { .. }, Some(agent)) => self.input_received_line(agent),
            (EventMsg::UpdateInjected { labels }, Some(agent)) => self.update_line(agent, labels),
            (EventMsg::SubtasksAssigned { subtasks, .. }, _) => self.subtask_lines(subtasks),
            (EventMsg::AgentStopped { summary, status }, Some(agent)) => {
                self.stopped_line(agent, summary, status)
            }
            (EventMsg::FairnessHold { lead, cap }, Some(agent)) => {
                self.hold_line(agent, Some((*lead, *cap)))
            }
            (EventMsg::FairnessReleased, Some(agent)) => self.hold_line(agent, None),
            (EventMsg::FinalOverridden { label, agent, .. }, _) => self.override_note(label, agent),
            (
                EventMsg::ContextCompressed {
                    reason,
                    tokens_before,
                    tokens_after,
                    window,
                    summarized,
                    ..
                },
                Some(agent),
            ) => self.compressed_line(
                agent,
                *reason,
                *tokens_before,
                *tokens_after,
                *window,
                *summarized,
            ),
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
            (EventMsg::FinalPresentationStarted { label, .. }, Some(agent)) => {
                self.final_started(agent, label)
            }
            (EventMsg::FinalPresentationDelta { text }, _) => self.final_delta(text),
            (
                EventMsg::FinalPresentationDone {
                    content, fallback, ..
                },
                _,
            ) => self.final_done(content, *fallback),
            (EventMsg::Timeout { scope, seconds }, _) => self.timeout_note(*scope, *seconds),
            (
                EventMsg::BudgetReached {
                    budget_usd,
                    spent_usd,
                },
                _,
            ) => self.budget_note(*budget_usd, *spent_usd),
            (EventMsg::Cancelled, _) => self.note(&self.style.warn("✗ cancelled")),
            (EventMsg::AnswerNow { stopped }, _) => self.answer_now_note(stopped),
            (
                EventMsg::SessionResumed {
                    session_id,
                    turns,
                    history_from,
                    ..
                },
                _,
            ) => self.resumed_line(session_id, turns.len(), *history_from),
            (EventMsg::Warning { message }, _) => self.warning_note(message),
            (EventMsg::CriteriaSet { source, criteria }, _) => {
                let ids: Vec<String> = criteria
                    .iter()
                    .map(|criterion| format!("{} {}", criterion.id, criterion.text))
                    .collect();
                let line = format!(
                    "☑ checklist criteria ({}): {}",
                    source.name(),
                    ids.join("; ")
                );
                self.note(&self.style.dim(&clean(&line)))
            }
            (
                EventMsg::PlanningModeDecided {
                    irreversible,
                    blocked_tools,
                },
                _,
            ) => self.planning_mode_line(*irreversible, blocked_tools),
            (EventMsg::ToolBlocked { tool, .. }, Some(agent)) => self.blocked_line(agent, tool),
            (EventMsg::PersonaAssigned { text, summary, .. }, Some(agent)) => {
                self.persona_line(agent, summary.as_deref(), text)
            }
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
            (EventMsg::HumanInputQueued { text, targets }, _) => {
                self.input_queued_note(text, targets)
            }
            (
                EventMsg::TurnFinished {
                    outcome,
                    duration_ms,
                    ..
                },
                _,
            ) => self.finish_line(*outcome, *duration_ms),
            (EventMsg::Strategy(strategy), agent) => self.strategy_line(agent, strategy),
            (EventMsg::Approval(approval), Some(agent)) => {
                match super::approval_lines::plain_line(approval) {
                    Some(line) => self.agent_line(agent, &line),
                    None => Ok(()),
                }
            }
            (_, None) => Ok(()),
            (
                run_events!()
                | usage_events!()
                | workspace_events!()
                | EventMsg::AgentStatus { .. }
                | EventMsg::ContextUsage { .. }
                | EventMsg::RoundStarted { .. }
                | EventMsg::BroadcastClosed {
                    timed_out: false, ..
                },
                Some(_),
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
