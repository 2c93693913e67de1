//! Front ends without a full screen: the line-oriented `plain` printer, the `quiet` one
//! that prints only the final answer, and `--automation`'s parseable lines.

mod approval_lines;
mod automation;
mod lines;
mod plain;
mod quiet;
mod style;

use std::io;

pub use approval_lines::file_approval_dirs;
pub use automation::AutomationPrinter;
pub use plain::PlainPrinter;
pub use quiet::QuietPrinter;
pub use style::Style;

use crate::protocol::Event;

/// What plain, quiet and automation say when a run continues an earlier session.
fn resumed_line(session_id: &str, turns: usize, history_from: Option<u32>) -> String {
    let earlier = crate::text::plural(turns, "earlier turn");
    match history_from {
        Some(from) => format!(
            "continuing {session_id} ({earlier}; the history starts at turn {from}, after a /clear)"
        ),
        None => format!("continuing {session_id} ({earlier} in the history)"),
    }
}

/// What quiet and automation say on standard error when a saved plan is ready, failed or
/// was carried out (whole or partly); nothing while it is being made or executed.
fn plan_line(plan: &crate::protocol::PlanInfo) -> Option<String> {
    use crate::protocol::PlanStatus;
    use crate::sanitize::sanitize_for_terminal as clean;
    let id = &plan.id;
    let done = |outcome: &crate::protocol::PlanOutcome| format!(": {}", outcome.done_words());
    Some(match plan.status {
        PlanStatus::Ready => format!(
            "massgen: plan {id} is ready ({}): {}",
            crate::text::plural(plan.tasks.len(), "task"),
            plan.dir.display()
        ),
        PlanStatus::Failed => format!(
            "massgen: plan {id} failed: {}",
            clean(plan.detail.as_deref().unwrap_or("no reason given"))
        ),
        PlanStatus::Completed => format!(
            "massgen: plan {id} is completed{}",
            plan.outcome.as_ref().map(done).unwrap_or_default()
        ),
        PlanStatus::Partial => format!(
            "massgen: plan {id} is partial{}; run it again with --execute-plan {id}",
            plan.outcome
                .as_ref()
                .map_or_else(String::new, |outcome| format!(
                    "{}, open: {}",
                    done(outcome),
                    clean(&outcome.open_words(5))
                ))
        ),
        PlanStatus::Planning | PlanStatus::Executing => return None,
    })
}

/// Turns events into text.
pub trait Printer: Send {
    fn print(&mut self, event: &Event) -> io::Result<()>;
}

/// A printer whose reader may go away (`massgen … | head`): the first broken pipe silences
/// it for good instead of failing the run, which goes on and is logged.
pub struct Display {
    printer: Box<dyn Printer>,
    closed: bool,
}

impl Display {
    pub fn new(printer: Box<dyn Printer>) -> Self {
        Self {
            printer,
            closed: false,
        }
    }

    pub fn handle(&mut self, event: &Event) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.printer.print(event) {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests;
