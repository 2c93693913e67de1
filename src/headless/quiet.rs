//! The `quiet` display: only the final answer on standard output, printed whole once it is
//! final (so a presentation that fails midway never leaves half an answer for a script);
//! warnings and turns that end without an answer go to a diagnostics stream (stderr).

use std::io::{self, Write};

use super::Printer;
use crate::protocol::{Event, EventMsg, TurnOutcome};
use crate::sanitize::sanitize_for_terminal as clean;
use crate::session::format_usd;

pub struct QuietPrinter<W: Write, D: Write> {
    out: W,
    diagnostics: D,
}

impl<W: Write, D: Write> QuietPrinter<W, D> {
    pub fn new(out: W, diagnostics: D) -> Self {
        Self { out, diagnostics }
    }

    pub fn into_inner(self) -> (W, D) {
        (self.out, self.diagnostics)
    }
}

impl<W: Write + Send, D: Write + Send> Printer for QuietPrinter<W, D> {
    fn print(&mut self, event: &Event) -> io::Result<()> {
        match &event.msg {
            EventMsg::Warning { message } => {
                writeln!(self.diagnostics, "warning: {}", clean(message))?
            }
            EventMsg::SessionResumed {
                session_id,
                turns,
                history_from,
                ..
            } => writeln!(
                self.diagnostics,
                "massgen: {}",
                super::resumed_line(session_id, turns.len(), *history_from)
            )?,
            EventMsg::BudgetReached {
                budget_usd,
                spent_usd,
            } => writeln!(
                self.diagnostics,
                "massgen: the cost budget of {} was reached ({} spent); the best answer so far \
                 is presented",
                format_usd(*budget_usd),
                format_usd(*spent_usd)
            )?,
            EventMsg::OrchestrationRestarted {
                attempt,
                max_attempts,
                reason,
                ..
            } => writeln!(
                self.diagnostics,
                "massgen: the winner sent its answer back for another attempt ({attempt}/\
                 {max_attempts}): {}",
                clean(reason)
            )?,
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
            EventMsg::FinalPresentationDone { content, .. } => {
                let content = clean(content);
                write!(self.out, "{content}")?;
                if !content.ends_with('\n') {
                    writeln!(self.out)?;
                }
            }
            EventMsg::PlanUpdated { plan } => {
                if let Some(line) = super::plan_line(plan) {
                    writeln!(self.diagnostics, "{line}")?;
                }
            }
            EventMsg::RunStarted { .. }
            | EventMsg::RunFinished
            | EventMsg::AgentsReplaced { .. }
            | EventMsg::PlanningModeDecided { .. }
            | EventMsg::PersonaAssigned { .. }
            | EventMsg::ToolBlocked { .. }
            | EventMsg::TaskPlanChanged { .. }
            | EventMsg::BroadcastAsked { .. }
            | EventMsg::BroadcastAnswered { .. }
            | EventMsg::BroadcastClosed { .. }
            | EventMsg::PlansListed { .. }
            | EventMsg::HistoryCleared
            | EventMsg::TurnStarted { .. }
            | EventMsg::AgentStatus { .. }
            | EventMsg::RoundStarted { .. }
            | EventMsg::TextDelta { .. }
            | EventMsg::ReasoningDelta { .. }
            | EventMsg::ToolCallBegin { .. }
            | EventMsg::ToolCallEnd { .. }
            | EventMsg::ProviderTool(_)
            | EventMsg::Strategy(_)
            | EventMsg::AnswerSubmitted { .. }
            | EventMsg::VoteCast { .. }
            | EventMsg::VoteIgnored { .. }
            | EventMsg::AgentRestarted { .. }
            | EventMsg::UpdateInjected { .. }
            | EventMsg::FairnessHold { .. }
            | EventMsg::FairnessReleased
            | EventMsg::FinalOverridden { .. }
            | EventMsg::RoundTimeLimitReached { .. }
            | EventMsg::ContextUsage { .. }
            | EventMsg::ContextCompressed { .. }
            | EventMsg::SubtasksAssigned { .. }
            | EventMsg::AgentStopped { .. }
            | EventMsg::PostEvaluationStarted { .. }
            | EventMsg::PostEvaluationFinished { .. }
            | EventMsg::EnforcementRetry { .. }
            | EventMsg::Retrying { .. }
            | EventMsg::AgentError { .. }
            | EventMsg::AgentKilled { .. }
            | EventMsg::Usage { .. }
            | EventMsg::RoundUsage { .. }
            | EventMsg::WinnerSelected { .. }
            | EventMsg::FinalPresentationStarted { .. }
            | EventMsg::FinalPresentationDelta { .. }
            | EventMsg::Timeout { .. }
            | EventMsg::Cancelled
            | EventMsg::AnswerNow { .. }
            | EventMsg::HumanInputQueued { .. }
            | EventMsg::Approval(_)
            | EventMsg::HumanInputDelivered { .. }
            | EventMsg::McpServerStatus { .. }
            | EventMsg::ToolRefused { .. }
            | EventMsg::WorkspaceSnapshot { .. }
            | EventMsg::WorkspaceAssigned { .. }
            | EventMsg::SkillsListed { .. }
            | EventMsg::ChecklistSubmitted { .. }
            | EventMsg::ApproachDrafted { .. }
            | EventMsg::CriteriaSet { .. }
            | EventMsg::AttachmentsSent { .. }
            | EventMsg::ReplayStarted { .. }
            | EventMsg::ReplayFinished { .. } => {}
        }
        self.out.flush()
    }
}
