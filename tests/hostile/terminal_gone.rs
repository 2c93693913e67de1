//! Hostile: the full-screen display losing its terminal or signalled from outside (issue
//! 27, items 10 and 18). A pty whose other end closes mid-turn ends the session without a
//! panic or an abort (exit 4, the turn saved); a `kill -INT` (in raw mode Ctrl+C is a key,
//! so SIGINT only comes from outside) cancels the turn like SIGTERM and gives the terminal
//! back: main screen, mouse reports and bracketed paste off, cursor shown.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::num::NonZeroU16;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

use super::signals::{SLOW, events, send};
use super::support::sandbox::Sandbox;

/// The TUI on a slow turn in a 30×100 pty, its standard error on the pty too or in
/// `stderr.txt`.
struct Session {
    sandbox: Sandbox,
    child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    reading: Option<std::thread::JoinHandle<()>>,
    /// Tells the reading thread to drop its copy of the master after its next read.
    stop_reading: Arc<AtomicBool>,
}

impl Session {
    fn start(stderr_to_file: bool) -> Self {
        let sandbox = Sandbox::new();
        sandbox.write("slow.yaml", SLOW);
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: 30,
                cols: 100,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        // Through `sh` only to send standard error to a file; `exec` keeps the pid.
        let redirect = if stderr_to_file { " 2>stderr.txt" } else { "" };
        let mut command = CommandBuilder::new("sh");
        command.args(["-c", &format!("exec \"$0\" \"$@\"{redirect}")]);
        command.arg(env!("CARGO_BIN_EXE_massgen"));
        command.args([
            "--config",
            "slow.yaml",
            "--display",
            "tui",
            "a slow question",
        ]);
        command.cwd(&sandbox.root);
        command.env_clear();
        command.env("HOME", sandbox.root.join("home"));
        command.env("TERM", "xterm-256color");
        command.env("PATH", std::env::var("PATH").unwrap_or_default());
        let child = pair.slave.spawn_command(command).unwrap();
        drop(pair.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(
            NonZeroU16::new(30).unwrap(),
            NonZeroU16::new(100).unwrap(),
            0,
        )));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let mut reader = pair.master.try_clone_reader().unwrap();
        let (parser_in, raw_in) = (Arc::clone(&parser), Arc::clone(&raw));
        let stop_reading = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&stop_reading);
        let reading = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(read) = reader.read(&mut buf) {
                if read == 0 || stop.load(Ordering::Relaxed) {
                    break;
                }
                parser_in.lock().unwrap().process(&buf[..read]);
                raw_in.lock().unwrap().extend_from_slice(&buf[..read]);
            }
        });
        let session = Self {
            sandbox,
            child,
            master: Some(pair.master),
            parser,
            raw,
            reading: Some(reading),
            stop_reading,
        };
        session.wait_mid_turn();
        session
    }

    /// Until the agents stream and the TUI shows them, mouse reports on.
    fn wait_mid_turn(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let on_screen = {
                let parser = self.parser.lock().unwrap();
                let screen = parser.screen();
                screen.alternate_screen()
                    && screen.mouse_protocol_mode() != vt100::MouseProtocolMode::None
            };
            if on_screen && events(&self.sandbox.root).contains("round_started") {
                break;
            }
            assert!(Instant::now() < deadline, "the turn never started");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(500));
    }

    /// Closes the terminal's other end, as a closed emulator or a dropped ssh connection
    /// does: the reading thread lets go of its copy on the next frame, then the master goes.
    fn close_terminal(&mut self) {
        self.stop_reading.store(true, Ordering::Relaxed);
        if let Some(reading) = self.reading.take() {
            let _ = reading.join();
        }
        drop(self.master.take());
    }

    fn pid(&self) -> u32 {
        self.child.process_id().unwrap()
    }

    /// Waits at most 15 s for the exit: its code, or the signal that ended it.
    fn exit(&mut self) -> Result<u32, String> {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(15),
                "massgen did not exit"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        drop(self.master.take());
        if let Some(reading) = self.reading.take() {
            let _ = reading.join();
        }
        match status.signal() {
            Some(signal) => Err(signal.to_string()),
            None => Ok(status.exit_code()),
        }
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.sandbox.root.join("stderr.txt")).unwrap_or_default()
    }
}

/// Standard error on the closed terminal too, as in a real terminal: any report of a
/// failure there fails itself, and `eprintln!` panics.
#[test]
fn a_terminal_closed_mid_turn_ends_the_session_without_an_abort() {
    let mut session = Session::start(false);
    session.close_terminal();
    let exit = session.exit();
    assert_eq!(exit, Ok(4), "exit code, or the signal that ended massgen");
    let logged = events(&session.sandbox.root);
    assert!(logged.contains("\"cancelled\""), "the turn is saved");
}

/// Standard error in a file: nothing failed on the way out, so nothing is reported.
#[test]
fn a_terminal_closed_mid_turn_reports_no_failure_to_restore_it() {
    let mut session = Session::start(true);
    session.close_terminal();
    let exit = session.exit();
    let stderr = session.stderr();
    assert_eq!(exit, Ok(4), "stderr:\n{stderr}");
    assert!(!stderr.contains("panic"), "stderr:\n{stderr}");
    assert!(!stderr.contains("Failed to"), "stderr:\n{stderr}");
    let logged = events(&session.sandbox.root);
    assert!(logged.contains("\"cancelled\""), "the turn is saved");
}

#[test]
fn an_external_sigint_cancels_the_turn_and_gives_the_terminal_back() {
    let mut session = Session::start(true);
    send(session.pid(), "INT");
    let exit = session.exit();
    assert_eq!(exit, Ok(4), "stderr:\n{}", session.stderr());
    {
        let parser = session.parser.lock().unwrap();
        let screen = parser.screen();
        assert!(!screen.alternate_screen(), "the main screen is back");
        assert_eq!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
        assert!(!screen.bracketed_paste(), "bracketed paste is off");
        assert!(!screen.hide_cursor(), "the cursor is shown");
    }
    let raw = String::from_utf8_lossy(&session.raw.lock().unwrap()).into_owned();
    let left = raw
        .rfind("\x1b[?1049l")
        .expect("the alternate screen was left");
    let mouse_off = raw
        .rfind("\x1b[?1000l")
        .expect("mouse reports were turned off");
    assert!(
        mouse_off < left,
        "mouse reports off before leaving the screen"
    );
    assert!(raw.contains("\x1b[<1u"), "the keyboard flags were popped");
    assert!(events(&session.sandbox.root).contains("\"cancelled\""));
}
