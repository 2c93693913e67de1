//! The `quiet` display: only the final answer on standard output; warnings and turns that
//! end without an answer on a separate diagnostics stream (standard error).

use std::io::{self, Write};

use super::Printer;
use crate::protocol::{Event, EventMsg, TurnOutcome};

pub struct QuietPrinter<W: Write, D: Write> {
    out: W,
    diagnostics: D,
    final_streamed: bool,
}

impl<W: Write, D: Write> QuietPrinter<W, D> {
    pub fn new(out: W, diagnostics: D) -> Self {
        Self {
            out,
            diagnostics,
            final_streamed: false,
        }
    }

    pub fn into_inner(self) -> (W, D) {
        (self.out, self.diagnostics)
    }
}

impl<W: Write + Send, D: Write + Send> Printer for QuietPrinter<W, D> {
    fn print(&mut self, event: &Event) -> io::Result<()> {
        match &event.msg {
            EventMsg::Warning { message } => writeln!(self.diagnostics, "warning: {message}")?,
            EventMsg::TurnFinished { outcome, .. } => {
                let what = match outcome {
                    TurnOutcome::Completed => None,
                    TurnOutcome::TimedOut => Some("timed out"),
                    TurnOutcome::Cancelled => Some("was cancelled"),
                    TurnOutcome::Failed => Some("failed: no agent produced an answer"),
                };
                if let Some(what) = what {
                    writeln!(self.diagnostics, "massgen: the turn {what}")?;
                }
            }
            EventMsg::FinalPresentationDelta { text } => {
                self.final_streamed = true;
                write!(self.out, "{text}")?;
            }
            EventMsg::FinalPresentationDone { content, .. } => {
                if !self.final_streamed {
                    write!(self.out, "{content}")?;
                }
                if !content.ends_with('\n') {
                    writeln!(self.out)?;
                }
                self.final_streamed = false;
            }
            EventMsg::RunStarted { .. }
            | EventMsg::RunFinished
            | EventMsg::TurnStarted { .. }
            | EventMsg::AgentStatus { .. }
            | EventMsg::RoundStarted { .. }
            | EventMsg::TextDelta { .. }
            | EventMsg::ReasoningDelta { .. }
            | EventMsg::ToolCallBegin { .. }
            | EventMsg::ToolCallEnd { .. }
            | EventMsg::AnswerSubmitted { .. }
            | EventMsg::VoteCast { .. }
            | EventMsg::VoteIgnored { .. }
            | EventMsg::AgentRestarted { .. }
            | EventMsg::EnforcementRetry { .. }
            | EventMsg::AgentError { .. }
            | EventMsg::AgentKilled { .. }
            | EventMsg::Usage { .. }
            | EventMsg::WinnerSelected { .. }
            | EventMsg::FinalPresentationStarted { .. }
            | EventMsg::Timeout { .. }
            | EventMsg::Cancelled
            | EventMsg::HumanInputQueued { .. }
            | EventMsg::HumanInputDelivered { .. } => {}
        }
        self.out.flush()
    }
}
