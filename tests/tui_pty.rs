//! The real binary in a pseudo-terminal: the full-screen display starts on the offline demo,
//! runs a typed question to its final answer, takes keys, runs a second question, and gives
//! the terminal back.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 40;
const COLS: u16 = 140;

struct Screen {
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
}

impl Screen {
    fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Waits until the screen shows every one of `needles`.
    fn wait_for(&self, needles: &[&str], step: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = self.text();
            if needles.iter().all(|needle| text.contains(needle)) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{step}: the screen never showed {needles:?}; it shows:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn the_demo_runs_a_turn_takes_keys_and_restores_the_terminal() {
    let home = tempfile::tempdir().unwrap();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_massgen"));
    // No --display: on a terminal the full-screen display is the default. `--debug` sends
    // tracing to `massgen_debug.log` in the run's log directory, never to the screen.
    command.args(["--debug"]);
    command.cwd(home.path());
    command.env_clear();
    command.env("HOME", home.path());
    command.env("XDG_CONFIG_HOME", home.path().join(".config"));
    command.env("TERM", "xterm-256color");
    command.env("PATH", std::env::var("PATH").unwrap_or_default());
    let mut child = pair.slave.spawn_command(command).unwrap();
    drop(pair.slave);

    let parser = Arc::new(Mutex::new(vt100::Parser::new(
        NonZeroU16::new(ROWS).unwrap(),
        NonZeroU16::new(COLS).unwrap(),
        0,
    )));
    let raw = Arc::new(Mutex::new(Vec::new()));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let (parser_in, raw_in) = (Arc::clone(&parser), Arc::clone(&raw));
    let reading = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(read) = reader.read(&mut buf) {
            if read == 0 {
                break;
            }
            parser_in.lock().unwrap().process(&buf[..read]);
            raw_in.lock().unwrap().extend_from_slice(&buf[..read]);
        }
    });
    let mut keys = pair.master.take_writer().unwrap();
    let mut press = |bytes: &[u8]| {
        keys.write_all(bytes).unwrap();
        keys.flush().unwrap();
        std::thread::sleep(Duration::from_millis(150));
    };
    let screen = Screen { parser, raw };

    screen.wait_for(
        &["Type a question below", "scout", "scholar", "critic"],
        "welcome",
    );
    press(b"What is the capital of France?\r");
    screen.wait_for(
        &["Turn 1", "What is the capital of France?"],
        "turn started",
    );
    let done = screen.wait_for(
        &["wins", "winner", "final answer presented"],
        "final answer",
    );
    assert!(done.contains("🏆"), "the winner is marked:\n{done}");

    press(b"\x1b[Z"); // Shift+Tab
    screen.wait_for(&["◉ Planning"], "mode changed");
    press(b"\x1b"); // Esc: leave the composer
    press(b"v");
    screen.wait_for(&["Votes", "leader", "Esc close"], "votes modal");
    press(b"\x1b");
    press(b"c");
    screen.wait_for(&["Tokens and costs", "this turn"], "costs modal");
    press(b"\x1b");
    let closed = screen.wait_for(&["Shift+Tab"], "modal closed");
    assert!(!closed.contains("Tokens and costs"), "{closed}");

    // A second question runs a second turn.
    press(b"i");
    press(b"And the capital of Germany?\r");
    screen.wait_for(
        &["Turn 2", "And the capital of Germany?"],
        "second turn started",
    );
    screen.wait_for(&["Idle", "wins"], "second turn finished");
    press(b"\x1b");
    press(b"q");

    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "massgen did not quit");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    drop(pair.master);
    let _ = reading.join();
    let raw = screen.raw.lock().unwrap();
    let output = String::from_utf8_lossy(&raw);
    let entered = output
        .rfind("\x1b[?1049h")
        .expect("the alternate screen was entered");
    let left = output
        .rfind("\x1b[?1049l")
        .expect("the alternate screen was left");
    assert!(
        left > entered,
        "the terminal is restored after the last frame"
    );
    assert!(
        output[left..].contains("\x1b[?25h"),
        "the cursor is shown again"
    );
    assert!(!output.contains("DEBUG"), "no log line reached the screen");
    let runs: Vec<_> = std::fs::read_dir(home.path().join(".massgen/massgen_logs"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    let log = std::fs::read_to_string(runs[0].join("massgen_debug.log")).unwrap();
    assert!(log.contains("turn started"), "{log}");
}
