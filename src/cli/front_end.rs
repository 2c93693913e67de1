//! Which front end a run uses: `--display` wins; else the config's `ui.display_type` (or
//! `ui.type`, or a top-level `display.type`); else the full-screen TUI when both standard
//! input and output are terminals, plain lines otherwise (pipes, redirects, CI).

use super::args::DisplayArg;
use crate::config::DisplayKind;
use crate::headless::{AutomationPrinter, Display, PlainPrinter, QuietPrinter, Style};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontEnd {
    Tui,
    Plain,
    Quiet,
    /// `--automation`: parseable lines for scripts.
    Automation,
}

pub fn choose(flag: Option<DisplayArg>, config: Option<DisplayKind>, terminal: bool) -> FrontEnd {
    match (flag, config) {
        (Some(DisplayArg::Tui), _) => FrontEnd::Tui,
        (Some(DisplayArg::Plain), _) | (None, Some(DisplayKind::Plain)) => FrontEnd::Plain,
        (Some(DisplayArg::Quiet), _) | (None, Some(DisplayKind::Quiet)) => FrontEnd::Quiet,
        (None, Some(DisplayKind::Tui) | None) if terminal => FrontEnd::Tui,
        (None, Some(DisplayKind::Tui) | None) => FrontEnd::Plain,
    }
}

/// Ctrl+C, SIGTERM and SIGHUP: each asks the running turn to stop (the partial turn is
/// saved); the front ends treat the three alike. Listening starts when this is made, and a
/// signal that arrives while nobody waits is kept for the next `recv`.
pub struct Interrupts {
    #[cfg(unix)]
    signals: Vec<(&'static str, tokio::signal::unix::Signal)>,
}

impl Interrupts {
    pub fn new() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let kinds = [
                ("Ctrl+C", SignalKind::interrupt()),
                ("SIGTERM", SignalKind::terminate()),
                ("SIGHUP", SignalKind::hangup()),
            ];
            let signals = kinds
                .into_iter()
                .filter_map(|(name, kind)| signal(kind).ok().map(|signal| (name, signal)))
                .collect();
            Self { signals }
        }
        #[cfg(not(unix))]
        Self {}
    }

    /// Waits for the next interrupt and names it ("Ctrl+C", "SIGTERM", "SIGHUP").
    pub async fn recv(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            if self.signals.is_empty() {
                std::future::pending::<()>().await;
            }
            let waits = self.signals.iter_mut().map(|(name, signal)| {
                Box::pin(async move {
                    signal.recv().await;
                    *name
                })
            });
            futures::future::select_all(waits).await.0
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl+C"
        }
    }
}

/// Until when a turn cancelled now may take to be saved before massgen quits anyway.
pub fn cancel_deadline() -> tokio::time::Instant {
    tokio::time::Instant::now() + std::time::Duration::from_secs(5)
}

/// A line on standard error that never fails: after SIGHUP the terminal may be gone, and
/// `eprintln!` would panic.
pub fn note(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// The line printer of `front_end` on standard output (diagnostics on standard error).
pub fn printer(front_end: FrontEnd) -> Display {
    Display::new(match front_end {
        FrontEnd::Quiet => Box::new(QuietPrinter::new(std::io::stdout(), std::io::stderr())),
        FrontEnd::Automation => {
            Box::new(AutomationPrinter::new(std::io::stdout(), std::io::stderr()))
        }
        FrontEnd::Plain | FrontEnd::Tui => {
            Box::new(PlainPrinter::new(std::io::stdout(), Style::detect()))
        }
    })
}

/// Standard input and output are both terminals.
pub fn on_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_then_the_config_then_the_terminal() {
        assert_eq!(
            choose(Some(DisplayArg::Plain), Some(DisplayKind::Tui), true),
            FrontEnd::Plain
        );
        assert_eq!(
            choose(Some(DisplayArg::Tui), Some(DisplayKind::Quiet), false),
            FrontEnd::Tui
        );
        assert_eq!(
            choose(None, Some(DisplayKind::Quiet), true),
            FrontEnd::Quiet
        );
        assert_eq!(
            choose(None, Some(DisplayKind::Plain), true),
            FrontEnd::Plain
        );
        assert_eq!(choose(None, None, true), FrontEnd::Tui);
        assert_eq!(choose(None, Some(DisplayKind::Tui), true), FrontEnd::Tui);
        assert_eq!(choose(None, None, false), FrontEnd::Plain);
        assert_eq!(choose(None, Some(DisplayKind::Tui), false), FrontEnd::Plain);
    }
}
