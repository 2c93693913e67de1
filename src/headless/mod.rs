//! Front ends without a full screen: the line-oriented `plain` printer, the `quiet` one
//! that prints only the final answer, and `--automation`'s parseable lines.

mod automation;
mod lines;
mod plain;
mod quiet;
mod style;

use std::io;

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
