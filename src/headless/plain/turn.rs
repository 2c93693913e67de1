//! The turn-level lines: the continued session, heading and roster, the winner, the final answer (streamed, or
//! the stored answer after a failed presentation) and the closing summary.

use std::io::{self, Write};
use std::path::PathBuf;

use super::PlainPrinter;
use crate::protocol::{
    AgentId, AgentInfo, AnonId, AnswerLabel, Mode, Spend, TurnOptions, TurnOutcome, VoteCount,
    WinnerBasis,
};
use crate::sanitize::sanitize_for_terminal as clean;
use crate::session;

impl<W: Write> PlainPrinter<W> {
    /// Which earlier session the run continues.
    pub(super) fn resumed_line(
        &mut self,
        session_id: &str,
        turns: usize,
        history_from: Option<u32>,
    ) -> io::Result<()> {
        let line = self.style.dim(&format!(
            "↻ {}",
            crate::headless::resumed_line(session_id, turns, history_from)
        ));
        self.note(&line)
    }

    pub(super) fn turn_header(
        &mut self,
        turn: u32,
        question: &str,
        agents: &[AgentInfo],
        log_dir: Option<&PathBuf>,
        (mode, options): (Mode, &TurnOptions),
    ) -> io::Result<()> {
        self.agents = agents.to_vec();
        self.log_dir = log_dir.cloned();
        self.spend = Spend::default();
        let roster: Vec<String> = agents
            .iter()
            .enumerate()
            .map(|(index, info)| {
                format!(
                    "{} ({})",
                    self.style.agent(index, info.id.as_str()),
                    clean(&info.model)
                )
            })
            .collect();
        let how = match mode {
            Mode::Normal => String::new(),
            Mode::Planning => format!(" · Planning ({} depth)", options.plan_depth.name()),
            Mode::Execute => format!(
                " · Executing {}",
                options.plan.as_deref().unwrap_or("the latest plan")
            ),
        };
        let single = options
            .single_agent
            .as_ref()
            .map(|agent| format!(" · only {agent}"))
            .unwrap_or_default();
        let refine = if options.refine { "" } else { " · refine off" };
        let heading = self
            .style
            .bold(&format!("━━ Turn {turn}{how}{single}{refine} ━━"));
        writeln!(self.out, "{heading} {}", clean(question))?;
        writeln!(self.out, "   agents: {}", roster.join(" · "))
    }

    pub(super) fn winner_line(
        &mut self,
        winner: &AgentId,
        winner_anon: &AnonId,
        tally: &[VoteCount],
        basis: WinnerBasis,
    ) -> io::Result<()> {
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
            WinnerBasis::Presenter => "presenter; integrates every subtask".into(),
            WinnerBasis::Chairman => "chairman; synthesizes every answer".into(),
        };
        let board = match basis {
            WinnerBasis::Presenter | WinnerBasis::Chairman => String::new(),
            _ => {
                let counts: Vec<String> = tally
                    .iter()
                    .map(|count| format!("{} {}", count.agent, count.votes))
                    .collect();
                format!("   [{}]", counts.join(" · "))
            }
        };
        let line = format!(
            "{} {} ({winner_anon}) — {how}{board}",
            self.style.bold("🏆 Winner:"),
            self.name(winner),
        );
        self.note(&line)
    }

    /// The heading waits for the first text, so the winner's last reasoning comes first.
    pub(super) fn final_started(&mut self, agent: &AgentId, label: &AnswerLabel) -> io::Result<()> {
        self.final_streamed = false;
        self.pending_heading = Some(
            self.style
                .bold(&format!("── Final answer · {agent} ({label}) ──")),
        );
        Ok(())
    }

    pub(super) fn final_delta(&mut self, text: &str) -> io::Result<()> {
        self.print_final_heading()?;
        self.final_streamed = true;
        self.write_final(text)
    }

    /// The final answer is settled. After a failed presentation (`fallback`) the stored
    /// answer follows whatever was streamed, marked as such.
    pub(super) fn final_done(&mut self, content: &str, fallback: bool) -> io::Result<()> {
        self.print_final_heading()?;
        if fallback {
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

    pub(super) fn write_final(&mut self, text: &str) -> io::Result<()> {
        let text = clean(text);
        if !text.is_empty() {
            self.final_line_open = !text.ends_with('\n');
        }
        write!(self.out, "{text}")
    }

    /// Ends a final-answer line left open by streaming, so notes start on their own line.
    pub(super) fn end_final_line(&mut self) -> io::Result<()> {
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

    pub(super) fn finish_line(&mut self, outcome: TurnOutcome, duration_ms: u64) -> io::Result<()> {
        self.flush_all()?;
        #[allow(clippy::cast_precision_loss)]
        let seconds = duration_ms as f64 / 1000.0;
        let state = match outcome {
            TurnOutcome::Completed => self.style.good("✓ done"),
            TurnOutcome::TimedOut => self.style.warn("⏱ timed out"),
            TurnOutcome::Cancelled => self.style.warn("✗ cancelled"),
            TurnOutcome::Failed => self.style.bad("✗ failed: no answer"),
        };
        // `~`: some call's tokens were counted with a tokenizer, not reported.
        let usage = self.spend.usage;
        let approx = if usage.estimated { "~" } else { "" };
        let mut line = format!(
            "{state} in {seconds:.1} s · {approx}{} tokens ({} in, {} out)",
            usage.total(),
            usage.input_tokens,
            usage.output_tokens
        );
        if self.spend.cost_unknown {
            line.push_str(" · cost unknown (a model has no price in the table)");
        } else if self.spend.cost_usd > 0.0 {
            line.push_str(&format!(" · {}", session::format_usd(self.spend.cost_usd)));
        }
        if let Some(dir) = &self.log_dir {
            line.push_str(&format!(" · log: {}", dir.display()));
        }
        writeln!(self.out, "{line}")
    }
}
