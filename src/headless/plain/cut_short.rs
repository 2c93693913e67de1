//! The plain display's lines about setbacks and stops: retries, errors, an agent dropped
//! from the turn, timeouts, the cost budget and warnings.

use std::io::{self, Write};

use super::{PlainPrinter, preview};
use crate::protocol::{AgentId, TimeoutScope};
use crate::sanitize::sanitize_for_terminal as clean;
use crate::session::format_usd;

impl<W: Write> PlainPrinter<W> {
    /// A model call failed in a way that may pass and is tried again.
    pub(super) fn retrying_line(
        &mut self,
        agent: &AgentId,
        attempt: u32,
        max_retries: u32,
        delay_ms: u64,
        reason: &str,
    ) -> io::Result<()> {
        #[allow(clippy::cast_precision_loss)]
        let seconds = delay_ms as f64 / 1000.0;
        let line = self.style.warn(&format!(
            "⟳ {}, retrying in {seconds:.1} s ({attempt}/{max_retries})",
            clean(reason)
        ));
        self.agent_line(agent, &line)
    }

    /// The response was rejected and the model gets another attempt.
    pub(super) fn enforcement_line(
        &mut self,
        agent: &AgentId,
        attempt: u32,
        max_attempts: u32,
        detail: &str,
    ) -> io::Result<()> {
        let line = self.style.warn(&format!(
            "⟳ attempt {attempt}/{max_attempts}: {}",
            preview(detail, 100)
        ));
        self.agent_line(agent, &line)
    }

    pub(super) fn error_line(&mut self, agent: &AgentId, message: &str) -> io::Result<()> {
        let line = self.style.bad(&format!("✗ error: {}", clean(message)));
        self.agent_line(agent, &line)
    }

    pub(super) fn killed_line(&mut self, agent: &AgentId, reason: &str) -> io::Result<()> {
        let line = self
            .style
            .bad(&format!("✗ out of this turn: {}", clean(reason)));
        self.agent_line(agent, &line)
    }

    pub(super) fn timeout_note(&mut self, scope: TimeoutScope, seconds: u64) -> io::Result<()> {
        let what = match scope {
            TimeoutScope::Orchestrator => "coordination",
            TimeoutScope::Presentation => "the final presentation",
        };
        let line = self
            .style
            .warn(&format!("⏱ {what} timed out after {seconds} s"));
        self.note(&line)
    }

    pub(super) fn budget_note(&mut self, budget_usd: f64, spent_usd: f64) -> io::Result<()> {
        let line = self.style.warn(&format!(
            "💰 cost budget of {} reached ({} spent): no new model calls; the best \
             answer so far is presented",
            format_usd(budget_usd),
            format_usd(spent_usd)
        ));
        self.note(&line)
    }

    pub(super) fn answer_now_note(&mut self, stopped: &[AgentId]) -> io::Result<()> {
        let stopped: Vec<String> = stopped.iter().map(ToString::to_string).collect();
        let line = if stopped.is_empty() {
            "⚡ answer now: refinement ended; the leader presents".to_string()
        } else {
            format!(
                "⚡ answer now: refinement ended ({} stopped); the leader presents",
                stopped.join(", ")
            )
        };
        self.note(&self.style.warn(&line))
    }

    pub(super) fn warning_note(&mut self, message: &str) -> io::Result<()> {
        self.note(&self.style.warn(&format!("! {}", clean(message))))
    }
}
