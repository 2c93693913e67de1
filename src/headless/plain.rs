//! The `plain` display: readable, line-oriented progress of a turn, and the final answer
//! streamed as it is written. Used with `--display plain` and when stdout is not a terminal.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;

use super::style::Style;
use crate::protocol::{
    AgentId, AgentInfo, Event, EventMsg, TimeoutScope, TurnOutcome, Usage, WinnerBasis,
};

/// How much the printer shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verbosity {
    /// Every agent's work, answers, votes, the winner and the final answer.
    Full,
    /// The final answer only.
    Quiet,
}

/// Longest run of streamed text held back waiting for a line break.
const WRAP_AT: usize = 100;

pub struct PlainPrinter<W: Write> {
    out: W,
    /// Where quiet mode reports warnings and turns that end without an answer.
    diagnostics: Box<dyn Write + Send>,
    /// The final answer's heading, printed when its first text arrives.
    pending_heading: Option<String>,
    style: Style,
    verbosity: Verbosity,
    agents: Vec<AgentInfo>,
    text: HashMap<AgentId, String>,
    reasoning: HashMap<AgentId, String>,
    final_streamed: bool,
    log_dir: Option<PathBuf>,
    usage: Usage,
    closed: bool,
}

impl<W: Write> PlainPrinter<W> {
    pub fn new(out: W, style: Style, verbosity: Verbosity) -> Self {
        Self {
            out,
            diagnostics: Box::new(io::stderr()),
            pending_heading: None,
            style,
            verbosity,
            agents: Vec::new(),
            text: HashMap::new(),
            reasoning: HashMap::new(),
            final_streamed: false,
            log_dir: None,
            usage: Usage::default(),
            closed: false,
        }
    }

    /// Sends quiet mode's diagnostics somewhere other than standard error.
    pub fn with_diagnostics(mut self, diagnostics: Box<dyn Write + Send>) -> Self {
        self.diagnostics = diagnostics;
        self
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    /// Prints what `event` means. A reader that went away (`| head`) silences the printer
    /// for good instead of failing the run.
    pub fn handle(&mut self, event: &Event) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        if let EventMsg::Usage { usage } = &event.msg {
            self.usage += *usage;
        }
        let result = match self.verbosity {
            Verbosity::Quiet => self.handle_quiet(&event.msg),
            Verbosity::Full => self.handle_full(event),
        }
        .and_then(|()| self.out.flush());
        match result {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }

    fn handle_quiet(&mut self, msg: &EventMsg) -> io::Result<()> {
        match msg {
            EventMsg::Warning { message } => writeln!(self.diagnostics, "warning: {message}"),
            EventMsg::TurnFinished { outcome, .. } if *outcome != TurnOutcome::Completed => {
                let what = match outcome {
                    TurnOutcome::TimedOut => "timed out",
                    TurnOutcome::Cancelled => "was cancelled",
                    TurnOutcome::Failed | TurnOutcome::Completed => "failed",
                };
                writeln!(self.diagnostics, "massgen: the turn {what}")
            }
            EventMsg::FinalPresentationDelta { text } => {
                self.final_streamed = true;
                write!(self.out, "{text}")
            }
            EventMsg::FinalPresentationDone { content, .. } => {
                if !self.final_streamed {
                    write!(self.out, "{content}")?;
                }
                if !content.ends_with('\n') {
                    writeln!(self.out)?;
                }
                self.final_streamed = false;
                Ok(())
            }
            _ => Ok(()),
        }
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
            (EventMsg::TextDelta { text }, Some(agent)) => self.stream(agent, text, false),
            (EventMsg::ReasoningDelta { text }, Some(agent)) => self.stream(agent, text, true),
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
                write!(self.out, "{text}")
            }
            (
                EventMsg::FinalPresentationDone {
                    content, fallback, ..
                },
                _,
            ) => {
                self.print_final_heading()?;
                if !self.final_streamed {
                    write!(self.out, "{content}")?;
                }
                if !content.ends_with('\n') {
                    writeln!(self.out)?;
                }
                self.final_streamed = false;
                if *fallback {
                    writeln!(
                        self.out,
                        "{}",
                        self.style.dim("(the winner's stored answer)")
                    )?;
                }
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

    /// Buffers streamed text per agent and prints whole lines, so agents do not interleave
    /// mid-line.
    fn stream(&mut self, agent: &AgentId, text: &str, reasoning: bool) -> io::Result<()> {
        if !reasoning {
            self.flush_reasoning(agent)?;
        }
        let buffer = if reasoning {
            &mut self.reasoning
        } else {
            &mut self.text
        };
        let pending = buffer.entry(agent.clone()).or_default();
        pending.push_str(text);
        let mut lines = Vec::new();
        while let Some(cut) = line_cut(pending) {
            let line: String = pending.drain(..cut).collect();
            lines.push(line.trim_end().to_string());
            let skip = pending.len() - pending.trim_start_matches([' ', '\n']).len();
            pending.drain(..skip);
        }
        for line in lines {
            self.print_stream_line(agent, &line, reasoning)?;
        }
        Ok(())
    }

    fn print_stream_line(
        &mut self,
        agent: &AgentId,
        line: &str,
        reasoning: bool,
    ) -> io::Result<()> {
        if line.trim().is_empty() {
            return Ok(());
        }
        let tag = self.tag(agent);
        if reasoning {
            let body = self.style.dim(&format!("💭 {line}"));
            writeln!(self.out, "{tag} {body}")
        } else {
            writeln!(self.out, "{tag} {line}")
        }
    }

    fn flush_reasoning(&mut self, agent: &AgentId) -> io::Result<()> {
        match self.reasoning.remove(agent) {
            Some(rest) => self.print_stream_line(agent, rest.trim_end(), true),
            None => Ok(()),
        }
    }

    fn flush_agent(&mut self, agent: &AgentId) -> io::Result<()> {
        for reasoning in [true, false] {
            let buffer = if reasoning {
                &mut self.reasoning
            } else {
                &mut self.text
            };
            if let Some(rest) = buffer.remove(agent) {
                self.print_stream_line(agent, rest.trim_end(), reasoning)?;
            }
        }
        Ok(())
    }

    fn flush_all(&mut self) -> io::Result<()> {
        let mut agents: Vec<AgentId> = self
            .text
            .keys()
            .chain(self.reasoning.keys())
            .cloned()
            .collect();
        agents.sort();
        agents.dedup();
        for agent in agents {
            self.flush_agent(&agent)?;
        }
        Ok(())
    }
}

/// Where to cut a complete line off the front of `pending`: after a newline, or at a space
/// once the text is longer than [`WRAP_AT`].
fn line_cut(pending: &str) -> Option<usize> {
    if let Some(newline) = pending.find('\n') {
        return Some(newline + 1);
    }
    if pending.chars().count() <= WRAP_AT {
        return None;
    }
    let limit = pending
        .char_indices()
        .nth(WRAP_AT)
        .map_or(pending.len(), |(index, _)| index);
    pending[..limit]
        .rfind(' ')
        .filter(|&space| space > 0)
        .map(|space| space + 1)
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
