//! The plain display's lines about updates and attempts: an agent restarting, peers'
//! answers and the user's text reaching it mid-round, round time limits, the winner's
//! check of its answer, a compressed context and the restart banner.

use std::io::{self, Write};

use super::PlainPrinter;
use crate::protocol::symbols::{COMPRESSED, HELD, RELEASED};
use crate::protocol::{
    AgentId, AnswerLabel, CompressionReason, PostEvaluationOutcome, RoundTimeStage,
    compression_line,
};
use crate::protocol::{FAIRNESS_RELEASED_LINE, fairness_hold_line};
use crate::sanitize::sanitize_for_terminal as clean;

impl<W: Write> PlainPrinter<W> {
    pub(super) fn restarted_line(
        &mut self,
        agent: &AgentId,
        round: u32,
        reason: &str,
    ) -> io::Result<()> {
        let line = self
            .style
            .dim(&format!("↻ round {round}: {}", clean(reason)));
        self.agent_line(agent, &line)
    }

    /// Decomposition mode: every agent's subtask, one line each.
    pub(super) fn subtask_lines(&mut self, subtasks: &[(AgentId, String)]) -> io::Result<()> {
        for (agent, subtask) in subtasks {
            let line = self.style.dim(&format!("▸ subtask: {}", clean(subtask)));
            self.agent_line(agent, &line)?;
        }
        Ok(())
    }

    /// Decomposition mode: the agent is done with its subtask.
    pub(super) fn stopped_line(
        &mut self,
        agent: &AgentId,
        summary: &str,
        status: &str,
    ) -> io::Result<()> {
        let line = self.style.dim(&format!(
            "■ stopped ({}): {}",
            clean(status),
            clean(summary)
        ));
        self.agent_line(agent, &line)
    }

    /// The fairness lead cap holds the agent back (`Some(lead, cap)`), or let it go.
    pub(super) fn hold_line(
        &mut self,
        agent: &AgentId,
        hold: Option<(u32, u32)>,
    ) -> io::Result<()> {
        let line = match hold {
            Some((lead, cap)) => self
                .style
                .warn(&format!("{HELD} {}", fairness_hold_line(lead, cap))),
            None => self
                .style
                .dim(&format!("{RELEASED} {FAIRNESS_RELEASED_LINE}")),
        };
        self.agent_line(agent, &line)
    }

    pub(super) fn update_line(
        &mut self,
        agent: &AgentId,
        labels: &[AnswerLabel],
    ) -> io::Result<()> {
        let labels: Vec<String> = labels.iter().map(ToString::to_string).collect();
        let line = self.style.dim(&format!(
            "📨 update received: {} (keeps working)",
            labels.join(", ")
        ));
        self.agent_line(agent, &line)
    }

    /// The user's text, queued during the turn, waits for each agent's next tool result.
    /// Typed or steered input waiting for its agents (`targets` empty: every agent).
    pub(super) fn input_queued_note(&mut self, text: &str, targets: &[AgentId]) -> io::Result<()> {
        let whom = if targets.is_empty() {
            "the agents".to_string()
        } else {
            let names: Vec<&str> = targets.iter().map(AgentId::as_str).collect();
            clean(&names.join(", ")).into_owned()
        };
        self.note(
            &self
                .style
                .dim(&format!("» queued for {whom}: {}", clean(text))),
        )
    }

    pub(super) fn input_received_line(&mut self, agent: &AgentId) -> io::Result<()> {
        self.agent_line(agent, &self.style.dim("» received your input"))
    }

    pub(super) fn round_time_line(
        &mut self,
        agent: &AgentId,
        stage: RoundTimeStage,
    ) -> io::Result<()> {
        let line = self.style.warn(match stage {
            RoundTimeStage::WrapUp => "⏱ round time limit: told to wrap up",
            RoundTimeStage::Blocked => {
                "⏱ round time limit passed: only `vote` and `new_answer` are allowed"
            }
        });
        self.agent_line(agent, &line)
    }

    pub(super) fn compressed_line(
        &mut self,
        agent: &AgentId,
        reason: CompressionReason,
        before: u64,
        after: u64,
        window: u64,
        summarized: bool,
    ) -> io::Result<()> {
        let line = self.style.warn(&format!(
            "{COMPRESSED} {}",
            compression_line(reason, before, after, window, summarized)
        ));
        self.agent_line(agent, &line)
    }

    pub(super) fn checking_line(&mut self, agent: &AgentId) -> io::Result<()> {
        self.end_final_line()?;
        let line = self.style.dim("🔍 checks its final answer");
        self.agent_line(agent, &line)
    }

    pub(super) fn checked_line(
        &mut self,
        agent: &AgentId,
        outcome: &PostEvaluationOutcome,
    ) -> io::Result<()> {
        let line = match outcome {
            PostEvaluationOutcome::Submitted => self.style.good("✓ submitted the final answer"),
            PostEvaluationOutcome::RestartRequested { reason, .. } => self
                .style
                .warn(&format!("↻ asks for another attempt: {}", clean(reason))),
            PostEvaluationOutcome::Failed { message } => self.style.warn(&format!(
                "! the check failed ({}); the answer stands",
                clean(message)
            )),
        };
        self.agent_line(agent, &line)
    }

    /// MassGen's restart banner: the winner sent the answer back; coordination starts over.
    pub(super) fn restart_banner(
        &mut self,
        attempt: u32,
        max_attempts: u32,
        reason: &str,
        instructions: &str,
    ) -> io::Result<()> {
        self.end_final_line()?;
        self.final_streamed = false;
        self.pending_heading = None;
        let banner = self.style.bold(&format!(
            "══ ORCHESTRATION RESTART (attempt {attempt}/{max_attempts}) ══"
        ));
        self.note(&banner)?;
        writeln!(self.out, "REASON: {}", clean(reason))?;
        writeln!(self.out, "INSTRUCTIONS: {}", clean(instructions))
    }
}
