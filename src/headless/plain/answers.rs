//! The plain display's lines about answers and votes, and the user's choice of the final
//! answer.

use std::io::{self, Write};

use super::{PlainPrinter, preview};
use crate::protocol::{AgentId, AnswerLabel};
use crate::sanitize::sanitize_for_terminal as clean;

impl<W: Write> PlainPrinter<W> {
    pub(super) fn answer_line(
        &mut self,
        agent: &AgentId,
        label: &AnswerLabel,
        content: &str,
    ) -> io::Result<()> {
        let line = format!(
            "{} {}",
            self.style.good(&format!("✔ answer {label}:")),
            preview(content, 90)
        );
        self.agent_line(agent, &line)
    }

    pub(super) fn vote_line(
        &mut self,
        agent: &AgentId,
        target: &AgentId,
        target_label: &AnswerLabel,
        reason: &str,
    ) -> io::Result<()> {
        let line = format!(
            "☑ votes for {} ({target_label}): {}",
            self.name(target),
            clean(reason)
        );
        self.agent_line(agent, &line)
    }

    pub(super) fn vote_ignored_line(
        &mut self,
        agent: &AgentId,
        target: &AgentId,
        why: &str,
    ) -> io::Result<()> {
        let line = self.style.dim(&format!(
            "⊘ vote for {} ignored: {}",
            clean(target.as_str()),
            clean(why)
        ));
        self.agent_line(agent, &line)
    }

    /// The user chose answer `label`, by `chosen`, as the final answer.
    pub(super) fn override_note(
        &mut self,
        label: &AnswerLabel,
        chosen: &AgentId,
    ) -> io::Result<()> {
        let line = format!("👤 override: final answer is {label} ({chosen})");
        self.note(&self.style.bold(&line))
    }
}
