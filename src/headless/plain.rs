//! The `plain` display: readable, line-oriented progress of a turn, and the final answer
//! streamed as it is written. Used with `--display plain` and when stdout is not a terminal.
//! Agents' streamed text is printed a whole line at a time, prefixed with the agent's name.

use std::io::{self, Write};
use std::path::PathBuf;

use super::Printer;
use super::lines::{AgentLines, Channel};
use super::style::Style;
use crate::protocol::{
    AgentId, AgentInfo, Event, EventMsg, TimeoutScope, TurnOutcome, Usage, WinnerBasis,
};

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
    usage: Usage,
}

impl<W: Write + Send> Printer for PlainPrinter<W> {
    fn print(&mut self, event: &Event) -> io::Result<()> {
        if let EventMsg::Usage { usage } = &event.msg {
            self.usage += *usage;
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
            usage: Usage::default(),
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
                    ..
                },
                _,
            ) => {
                self.agents.clone_from(agents);
                self.log_dir.clone_from(log_dir);
                self.usage = Usage::default();
                let roster: Vec<String> = agents
                    .iter()
                    .enumerate()
                    .map(|(index, info)| {
                        format!(
                            "{} ({})",
                            self.style.agent(index, info.id.as_str()),
                            info.model
                        )
                    })
                    .collect();
                let heading = self.style.bold(&format!("━━ Turn {} ━━", event.turn));
                writeln!(self.out, "{heading} {question}")?;
                writeln!(self.out, "   agents: {}", roster.join(" · "))
            }
            (EventMsg::TextDelta { text }, Some(agent)) => self.stream(agent, text, Channel::Text),
            (EventMsg::ReasoningDelta { text }, Some(agent)) => {
                self.stream(agent, text, Channel::Reasoning)
            }
            (EventMsg::AgentRestarted { round, reason }, Some(agent)) => {
                let line = self.style.dim(&format!("↻ round {round}: {reason}"));
                self.agent_line(agent, &line)
            }
            (
                EventMsg::ToolCallBegin {
                    tool, arguments, ..
                },
                Some(agent),
            ) => {
                let line = format!("⚙ {tool} {}", preview(arguments, 80));
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
                    self.style.good(&format!("✓ {tool} ({duration_ms} ms)"))
                } else {
                    self.style
                        .bad(&format!("✗ {tool}: {}", preview(output, 100)))
                };
                self.agent_line(agent, &line)
            }
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
                    "☑ votes for {} ({target_label}): {reason}",
                    self.name(target)
                );
                self.agent_line(agent, &line)
            }
            (EventMsg::VoteIgnored { target, why, .. }, Some(agent)) => {
                let line = self
                    .style
                    .dim(&format!("⊘ vote for {target} ignored: {why}"));
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
                let line = self.style.bad(&format!("✗ error: {message}"));
                self.agent_line(agent, &line)
            }
            (EventMsg::AgentKilled { reason }, Some(agent)) => {
                let line = self.style.bad(&format!("✗ out of this turn: {reason}"));
                self.agent_line(agent, &line)
            }
            (EventMsg::HumanInputDelivered { .. }, Some(agent)) => {
                self.agent_line(agent, &self.style.dim("» received your input"))
            }
            (
                EventMsg::WinnerSelected {
                    winner,
                    winner_anon,
                    tally,
                    basis,
                    ..
                },
                _,
            ) => {
                let votes = tally
                    .iter()
                    .find(|count| &count.agent == winner)
                    .map_or(0, |c| c.votes);
                let total: u32 = tally.iter().map(|count| count.votes).sum();
                let how = match basis {
                    WinnerBasis::Votes => format!("{votes} of {total} votes"),
                    WinnerBasis::TieBrokenByConfigOrder => {
                        format!("{votes} of {total} votes, tie broken by config order")
                    }
                    WinnerBasis::FirstAnswer => "no votes; first answer".into(),
                };
                let board: Vec<String> = tally
                    .iter()
                    .map(|count| format!("{} {}", count.agent, count.votes))
                    .collect();
                let line = format!(
                    "{} {} ({winner_anon}) — {how}   [{}]",
                    self.style.bold("🏆 Winner:"),
                    self.name(winner),
                    board.join(" · ")
                );
                self.note(&line)
            }
            (EventMsg::FinalPresentationStarted { label }, Some(agent)) => {
                self.final_streamed = false;
                self.pending_heading = Some(
                    self.style
                        .bold(&format!("── Final answer · {agent} ({label}) ──")),
                );
                Ok(())
            }
            (EventMsg::FinalPresentationDelta { text }, _) => {
                self.print_final_heading()?;
                self.final_streamed = true;
                self.write_final(text)
            }
            (
                EventMsg::FinalPresentationDone {
                    content, fallback, ..
                },
                _,
            ) => {
                self.print_final_heading()?;
                if *fallback {
                    self.end_final_line()?;
                    let note = self.style.dim("(the winner's stored answer)");
                    writeln!(self.out, "{note}")?;
                    self.write_final(content)?;
                } else if !self.final_streamed {
                    self.write_final(content)?;
                }
                self.end_final_line()?;
                self.final_streamed = false;
                writeln!(self.out, "{}", self.style.bold("──"))
            }
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
            (EventMsg::Cancelled, _) => self.note(&self.style.warn("✗ cancelled")),
            (EventMsg::Warning { message }, _) => {
                self.note(&self.style.warn(&format!("! {message}")))
            }
            (EventMsg::HumanInputQueued { text }, _) => {
                self.note(&self.style.dim(&format!("» queued for the agents: {text}")))
            }
            (
                EventMsg::TurnFinished {
                    outcome,
                    duration_ms,
                    ..
                },
                _,
            ) => {
                self.flush_all()?;
                self.finish_line(*outcome, *duration_ms)
            }
            (
                EventMsg::RunStarted { .. }
                | EventMsg::RunFinished
                | EventMsg::AgentStatus { .. }
                | EventMsg::RoundStarted { .. }
                | EventMsg::Usage { .. }
                | EventMsg::TextDelta { .. }
                | EventMsg::ReasoningDelta { .. }
                | EventMsg::AgentRestarted { .. }
                | EventMsg::ToolCallBegin { .. }
                | EventMsg::ToolCallEnd { .. }
                | EventMsg::AnswerSubmitted { .. }
                | EventMsg::VoteCast { .. }
                | EventMsg::VoteIgnored { .. }
                | EventMsg::EnforcementRetry { .. }
                | EventMsg::AgentError { .. }
                | EventMsg::AgentKilled { .. }
                | EventMsg::HumanInputDelivered { .. }
                | EventMsg::FinalPresentationStarted { .. },
                _,
            ) => Ok(()),
        }
    }

    fn write_final(&mut self, text: &str) -> io::Result<()> {
        if !text.is_empty() {
            self.final_line_open = !text.ends_with('\n');
        }
        write!(self.out, "{text}")
    }

    /// Ends a final-answer line left open by streaming, so notes start on their own line.
    fn end_final_line(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.final_line_open) {
            writeln!(self.out)?;
        }
        Ok(())
    }

    /// The final answer's heading, after whatever the agents still had buffered.
    fn print_final_heading(&mut self) -> io::Result<()> {
        match self.pending_heading.take() {
            Some(heading) => self.note(&heading),
            None => Ok(()),
        }
    }

    fn finish_line(&mut self, outcome: TurnOutcome, duration_ms: u64) -> io::Result<()> {
        #[allow(clippy::cast_precision_loss)]
        let seconds = duration_ms as f64 / 1000.0;
        let state = match outcome {
            TurnOutcome::Completed => self.style.good("✓ done"),
            TurnOutcome::TimedOut => self.style.warn("⏱ timed out"),
            TurnOutcome::Cancelled => self.style.warn("✗ cancelled"),
            TurnOutcome::Failed => self.style.bad("✗ failed: no answer"),
        };
        let mut line = format!(
            "{state} in {seconds:.1} s · {} tokens ({} in, {} out)",
            self.usage.total(),
            self.usage.input_tokens,
            self.usage.output_tokens
        );
        if let Some(dir) = &self.log_dir {
            line.push_str(&format!(" · log: {}", dir.display()));
        }
        writeln!(self.out, "{line}")
    }

    /// Prints the lines `text` completes for `agent`; its reasoning goes first.
    fn stream(&mut self, agent: &AgentId, text: &str, channel: Channel) -> io::Result<()> {
        if channel == Channel::Text {
            self.flush_reasoning(agent)?;
        }
        for line in self.lines.push(agent, channel, text) {
            self.print_stream_line(agent, &line, channel)?;
        }
        Ok(())
    }

    fn print_stream_line(
        &mut self,
        agent: &AgentId,
        line: &str,
        channel: Channel,
    ) -> io::Result<()> {
        if line.trim().is_empty() {
            return Ok(());
        }
        let tag = self.tag(agent);
        match channel {
            Channel::Reasoning => {
                let body = self.style.dim(&format!("💭 {line}"));
                writeln!(self.out, "{tag} {body}")
            }
            Channel::Text => writeln!(self.out, "{tag} {line}"),
        }
    }

    fn flush_reasoning(&mut self, agent: &AgentId) -> io::Result<()> {
        match self.lines.take(agent, Channel::Reasoning) {
            Some(rest) => self.print_stream_line(agent, &rest, Channel::Reasoning),
            None => Ok(()),
        }
    }

    fn flush_agent(&mut self, agent: &AgentId) -> io::Result<()> {
        for channel in [Channel::Reasoning, Channel::Text] {
            if let Some(rest) = self.lines.take(agent, channel) {
                self.print_stream_line(agent, &rest, channel)?;
            }
        }
        Ok(())
    }

    fn flush_all(&mut self) -> io::Result<()> {
        for agent in self.lines.agents() {
            self.flush_agent(&agent)?;
        }
        Ok(())
    }
}

/// The first line of `text`, cut to `max` characters.
fn preview(text: &str, max: usize) -> String {
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
