//! The terminal while the TUI runs: raw mode, alternate screen, bracketed paste and mouse
//! on entry; all of it undone on exit, on error and on panic.

use std::io::{self, Stdout};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Holds the terminal in TUI mode; dropping it restores the terminal.
pub struct TerminalGuard {
    pub terminal: Tui,
}

impl TerminalGuard {
    /// Enters TUI mode. ratatui's panic hook restores the terminal before the panic message
    /// is printed.
    pub fn enter() -> io::Result<Self> {
        let terminal = ratatui::try_init()?;
        if let Err(error) = execute!(io::stdout(), EnableBracketedPaste, EnableMouseCapture) {
            ratatui::restore();
            return Err(error);
        }
        Ok(Self { terminal })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = execute!(io::stdout(), DisableMouseCapture, DisableBracketedPaste);
        ratatui::restore();
    }
}
