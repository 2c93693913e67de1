//! The terminal while the TUI runs: raw mode, alternate screen, bracketed paste, mouse
//! buttons and wheel (no motion reports; not with `--no-mouse`), and unambiguous key codes
//! (so Shift+Enter is not Enter on terminals that support it); all of it undone on exit, on
//! error and on panic. Giving the terminal back never fails or panics, even when it is gone.
//!
//! While the TUI owns the terminal, a panic anywhere (an orchestrator task included) must
//! not print over the screen: the hook keeps the message, and it is printed once the
//! terminal is restored.

use std::io::{self, BufWriter, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crossterm::cursor::Show;
use crossterm::event::{
    DisableBracketedPaste, EnableBracketedPaste, KeyboardEnhancementFlags,
    PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use crossterm::execute;
use crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::steady::SteadyBackend;

pub type Tui = Terminal<SteadyBackend<CrosstermBackend<Screen>>>;

/// Room for a typical frame's output; a larger one is written in pieces of this size.
const FRAME_BUFFER: usize = 16 * 1024;

/// X10 button reports (clicks and the wheel) in SGR encoding; no motion reports, which
/// would redraw on every mouse move.
const MOUSE_ON: &str = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF: &str = "\x1b[?1006l\x1b[?1000l";

/// Panic messages caught while the TUI ran, oldest first.
static PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

type PanicHook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Holds the terminal in TUI mode; dropping it restores the terminal and the panic hook.
pub struct TerminalGuard {
    pub terminal: Tui,
    /// The screen's `released`, set when the guard drops.
    released: Arc<AtomicBool>,
    _restore: Restore,
}

impl Drop for TerminalGuard {
    /// Runs before the fields drop: ratatui's `Terminal`, dropped first, shows the cursor
    /// and on failure prints to standard error with `eprintln!`, which panics when that
    /// terminal is gone too (a panic in a drop, then an abort). Released, the screen takes
    /// every write, so nothing restoring a vanished terminal can fail.
    fn drop(&mut self) {
        self.released.store(true, Ordering::Relaxed);
        let _ = self.terminal.show_cursor();
    }
}

/// The TUI's standard output. A frame's escape sequences are gathered and reach the
/// terminal in one write when the frame is flushed (through `Stdout` alone, a 9 KB frame
/// took nine writes of its line buffer, each through the terminal's line discipline).
/// Once `released` (the TUI is ending), a write that fails is dropped instead.
pub struct Screen {
    out: BufWriter<Stdout>,
    released: Arc<AtomicBool>,
}

impl Screen {
    fn new(released: Arc<AtomicBool>) -> Self {
        Self {
            out: BufWriter::with_capacity(FRAME_BUFFER, io::stdout()),
            released,
        }
    }

    fn released(&self) -> bool {
        self.released.load(Ordering::Relaxed)
    }
}

impl Write for Screen {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self.out.write(bytes) {
            Err(_) if self.released() => Ok(bytes.len()),
            written => written,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.out.flush() {
            Err(_) if self.released() => Ok(()),
            flushed => flushed,
        }
    }
}

impl TerminalGuard {
    /// `mouse`: report clicks and the wheel (off keeps the terminal's own text selection).
    pub fn enter(mouse: bool) -> io::Result<Self> {
        let restore = Restore::enter(mouse)?;
        // No `Terminal::clear`: it asks the terminal for the cursor position, a reply some
        // terminals never send. The alternate screen is cleared on entry instead.
        let released = Arc::new(AtomicBool::new(false));
        let screen = Screen::new(Arc::clone(&released));
        let terminal = Terminal::new(SteadyBackend::new(CrosstermBackend::new(screen)))?;
        Ok(Self {
            terminal,
            released,
            _restore: restore,
        })
    }
}

/// Undoes, when dropped, everything `enter` did.
struct Restore {
    previous_hook: Option<PanicHook>,
}

impl Restore {
    fn enter(mouse: bool) -> io::Result<Self> {
        let previous_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            if let Ok(mut panics) = PANICS.lock() {
                panics.push(info.to_string());
            }
            tracing::error!("panic: {info}");
            // Built to abort on panic, nothing unwinds to drop the guard: give the terminal
            // back (mouse reports off first) before the process ends.
            if cfg!(panic = "abort") {
                leave_terminal();
                let _ = writeln!(io::stderr(), "massgen: panicked: {info}");
            }
        }));
        let restore = Self {
            previous_hook: Some(previous_hook),
        };
        enable_raw_mode()?;
        let mut stdout = io::stdout();
        execute!(
            stdout,
            EnterAlternateScreen,
            Clear(ClearType::All),
            EnableBracketedPaste,
            PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES)
        )?;
        if mouse {
            stdout.write_all(MOUSE_ON.as_bytes())?;
        }
        stdout.flush()?;
        Ok(restore)
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        leave_terminal();
        if let Some(hook) = self.previous_hook.take() {
            std::panic::set_hook(hook);
        }
        if let Ok(mut panics) = PANICS.lock() {
            // Not `eprintln!`: after a hang-up standard error may be gone, and it panics.
            let mut stderr = io::stderr();
            for message in panics.drain(..) {
                let _ = writeln!(
                    stderr,
                    "massgen: a task panicked while the display ran: {message}"
                );
            }
        }
    }
}

/// Mouse reports, keyboard flags, bracketed paste, the alternate screen and raw mode off;
/// the cursor shown. Errors are ignored: the terminal may be gone.
fn leave_terminal() {
    let mut stdout = io::stdout();
    let _ = stdout.write_all(MOUSE_OFF.as_bytes());
    let _ = execute!(
        stdout,
        PopKeyboardEnhancementFlags,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        Show
    );
    let _ = disable_raw_mode();
}
