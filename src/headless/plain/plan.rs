//! Plan lines of the plain display: planning mode's decision, blocked calls, task
//! progress, questions and their replies, and saved plans changing status.

use std::io::{self, Write};

use super::{PlainPrinter, preview};
use crate::protocol::{
    AgentId, BroadcastTarget, PlanInfo, PlanStatus, Question, TaskProgress, TaskView, current_task,
};
use crate::sanitize::sanitize_for_terminal as clean;

impl<W: Write> PlainPrinter<W> {
    pub(super) fn planning_mode_line(
        &mut self,
        irreversible: bool,
        blocked_tools: &[String],
    ) -> io::Result<()> {
        let line = match (irreversible, blocked_tools.is_empty()) {
            (false, _) => "🛡 planning mode: nothing irreversible, every tool may run".into(),
            (true, true) => {
                "🛡 planning mode: irreversible, every MCP tool is blocked until the final answer"
                    .to_string()
            }
            (true, false) => format!(
                "🛡 planning mode: irreversible, blocked until the final answer: {}",
                clean(&blocked_tools.join(", "))
            ),
        };
        self.note(&self.style.warn(&line))
    }

    /// `🎭 speed first: Value speed above all…`: the persona the agent works under.
    pub(super) fn persona_line(
        &mut self,
        agent: &AgentId,
        summary: Option<&str>,
        text: &str,
    ) -> io::Result<()> {
        let line = match summary {
            Some(summary) => format!("🎭 {}: {}", clean(summary), preview(text, 100)),
            None => format!("🎭 {}", preview(text, 100)),
        };
        self.agent_line(agent, &self.style.dim(&line))
    }

    pub(super) fn blocked_line(&mut self, agent: &AgentId, tool: &str) -> io::Result<()> {
        let line = self
            .style
            .warn(&format!("🚫 {} blocked (planning mode)", clean(tool)));
        self.agent_line(agent, &line)
    }

    /// `▸ 3/7 tasks · T004 …`, when the agent's counts changed.
    pub(super) fn tasks_line(&mut self, agent: &AgentId, tasks: &[TaskView]) -> io::Result<()> {
        let progress = TaskProgress::of(tasks);
        let key = (progress.total, progress.done, progress.in_progress);
        if self.progress.get(agent) == Some(&key) {
            return Ok(());
        }
        self.progress.insert(agent.clone(), key);
        let line = match current_task(tasks) {
            _ if progress.total == 0 => "▸ task plan cleared".to_string(),
            Some(task) => format!(
                "▸ {}/{} tasks · {} {}",
                progress.done,
                progress.total,
                clean(&task.id),
                preview(&task.description, 70)
            ),
            None => format!("▸ {}/{} tasks", progress.done, progress.total),
        };
        let line = self.style.dim(&line);
        self.agent_line(agent, &line)
    }

    pub(super) fn asked_line(
        &mut self,
        agent: &AgentId,
        target: BroadcastTarget,
        questions: &[Question],
    ) -> io::Result<()> {
        let whom = match target {
            BroadcastTarget::Human => "you",
            BroadcastTarget::Agents | BroadcastTarget::Off => "the other agents",
        };
        let first = questions
            .first()
            .map(|question| preview(&question.text, 90))
            .unwrap_or_default();
        let more = match questions.len() {
            0 | 1 => String::new(),
            count => format!(" (+{} more)", count - 1),
        };
        self.agent_line(agent, &format!("📣 asks {whom}: {first}{more}"))
    }

    pub(super) fn answered_line(
        &mut self,
        agent: &AgentId,
        from: Option<&AgentId>,
        answer: &str,
    ) -> io::Result<()> {
        let from = from.map_or_else(|| "you".to_string(), |peer| self.name(peer));
        let line = self
            .style
            .dim(&format!("💬 {from} replied: {}", preview(answer, 90)));
        self.agent_line(agent, &line)
    }

    pub(super) fn timed_out_line(&mut self, agent: &AgentId, responses: u32) -> io::Result<()> {
        let line = self.style.warn(&format!(
            "⌛ question timed out with {responses} repl{}",
            if responses == 1 { "y" } else { "ies" }
        ));
        self.agent_line(agent, &line)
    }

    pub(super) fn plan_status(&mut self, plan: &PlanInfo) -> io::Result<()> {
        let line = match plan.status {
            PlanStatus::Planning => self.style.dim(&format!(
                "📋 planning {} in {}",
                plan.id,
                plan.dir.display()
            )),
            PlanStatus::Ready => self.style.good(&format!(
                "📋 plan {} is ready: {} in {}\n{}   run it with: massgen --execute-plan {}",
                plan.id,
                crate::text::plural(plan.tasks.len(), "task"),
                plan.dir.display(),
                task_list(&plan.tasks),
                plan.id
            )),
            PlanStatus::Executing => self.style.dim(&format!(
                "▶ executing plan {} ({})",
                plan.id,
                crate::text::plural(plan.tasks.len(), "task")
            )),
            PlanStatus::Completed => self.style.good(&format!(
                "✓ plan {} completed{}{}",
                plan.id,
                plan.outcome
                    .as_ref()
                    .map(|outcome| format!(": {}", outcome.done_words()))
                    .unwrap_or_default(),
                plan.divergence
                    .map(|score| format!(
                        " · followed the plan at {:.0}% (plan_diff.json)",
                        (1.0 - score) * 100.0
                    ))
                    .unwrap_or_default()
            )),
            PlanStatus::Partial => {
                let (done, open) = plan.outcome.as_ref().map_or_else(
                    || ("some tasks left open".to_string(), String::new()),
                    |outcome| {
                        (
                            outcome.done_words(),
                            format!(" · open: {}", clean(&outcome.open_words(OPEN_SHOWN))),
                        )
                    },
                );
                self.style.warn(&format!(
                    "◐ plan {} partial: {done}{open}\n   run it again with: massgen \
                     --execute-plan {}",
                    plan.id, plan.id
                ))
            }
            PlanStatus::Failed => self.style.bad(&format!(
                "✗ plan {} failed: {}",
                plan.id,
                clean(plan.detail.as_deref().unwrap_or("no reason recorded"))
            )),
        };
        self.note(&line)
    }
}

/// Open tasks a partial plan's line names.
const OPEN_SHOWN: usize = 5;
/// Tasks a plan's ready line lists; the rest are counted.
const TASKS_SHOWN: usize = 20;

/// `   T002 Build it (after T001)`, one line per task, each ending in a newline.
fn task_list(tasks: &[TaskView]) -> String {
    let mut lines: String = tasks
        .iter()
        .take(TASKS_SHOWN)
        .map(|task| {
            let after = if task.depends_on.is_empty() {
                String::new()
            } else {
                format!(" (after {})", preview(&task.depends_on.join(", "), 40))
            };
            format!(
                "   {} {}{after}\n",
                clean(&task.id),
                preview(&task.description, 70)
            )
        })
        .collect();
    if tasks.len() > TASKS_SHOWN {
        lines.push_str(&format!("   … and {} more\n", tasks.len() - TASKS_SHOWN));
    }
    lines
}
