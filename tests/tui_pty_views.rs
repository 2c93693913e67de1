//! The real binary in a pseudo-terminal: Ctrl+P attaches the current directory (shown in
//! the status bar) and Ctrl+O overrides the final answer once voting is done — refused
//! before, and after the turn recorded in its event log and the session.

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

/// The real binary running in a pseudo-terminal, its screen parsed as it draws.
struct Pty {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Box<dyn portable_pty::MasterPty + Send>,
    keys: Box<dyn Write + Send>,
    screen: Screen,
    reading: std::thread::JoinHandle<()>,
}

impl Pty {
    /// `massgen args…` with `home` as its home and `cwd` as its working directory.
    fn start(home: &std::path::Path, cwd: &std::path::Path, args: &[&str]) -> Self {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_massgen"));
        command.args(args);
        command.cwd(cwd);
        command.env_clear();
        command.env("HOME", home);
        command.env("XDG_CONFIG_HOME", home.join(".config"));
        command.env("TERM", "xterm-256color");
        command.env("PATH", std::env::var("PATH").unwrap_or_default());
        let child = pair.slave.spawn_command(command).unwrap();
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
        let keys = pair.master.take_writer().unwrap();
        Self {
            child,
            master: pair.master,
            keys,
            screen: Screen { parser, raw },
            reading,
        }
    }

    fn press(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).unwrap();
        self.keys.flush().unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Waits for the program to exit successfully and returns everything it wrote, checking
    /// that the terminal was given back.
    fn finish(mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "massgen did not quit");
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(status.success(), "{status:?}");
        drop(self.master);
        let _ = self.reading.join();
        let raw = self.screen.raw.lock().unwrap();
        let output = String::from_utf8_lossy(&raw).into_owned();
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
        output
    }
}

/// Ctrl+O is refused before voting is done; Ctrl+P attaches the current directory to the
/// question; after the turn Ctrl+O picks another answer, which the event log and the
/// session record as the final answer.
#[test]
fn ctrl_p_attaches_the_directory_and_ctrl_o_overrides_the_final_answer() {
    let home = tempfile::tempdir().unwrap();
    let project = home.path().join("proj");
    std::fs::create_dir_all(&project).unwrap();
    let mut pty = Pty::start(home.path(), &project, &[]);
    pty.screen.wait_for(&["Type a question below"], "welcome");
    pty.press(b"\x0f"); // Ctrl+O
    pty.screen
        .wait_for(&["override is available once voting is done"], "too early");
    pty.press(b"\x10"); // Ctrl+P
    pty.screen
        .wait_for(&["~/proj [read]"], "the directory is attached");
    pty.press(b"What is the capital of France?\r");
    pty.screen.wait_for(&["Turn 1"], "turn started");
    pty.screen
        .wait_for(&["wins", "Final answer ·", "Idle"], "turn finished");
    pty.press(b"\x0f");
    let browser = pty.screen.wait_for(
        &["Override: choose the final answer", "Enter: final answer"],
        "override browser",
    );
    assert!(browser.contains("🏆"), "the winner is marked:\n{browser}");
    pty.press(b"\x1b[D"); // ←: another answer
    pty.press(b"\r");
    let overridden = pty
        .screen
        .wait_for(&["becomes the final answer"], "override sent");
    let label = overridden
        .lines()
        .find_map(|line| {
            line.split(" becomes the final answer")
                .next()
                .filter(|_| line.contains(" becomes the final answer"))
        })
        .and_then(|before| before.rsplit(' ').next())
        .map(str::to_string)
        .unwrap();
    pty.screen.wait_for(
        &[&format!("({label})")],
        "the final view shows the chosen answer",
    );
    pty.press(b"\x1b");
    pty.press(b"f"); // back to the cards and the timeline
    pty.screen.wait_for(
        &[&format!("override: final answer is {label}")],
        "the timeline shows the override",
    );
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
    let runs: Vec<_> = std::fs::read_dir(project.join(".massgen/massgen_logs"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    let events = std::fs::read_to_string(runs[0].join("turn_1/attempt_1/events.jsonl")).unwrap();
    let last = events.lines().last().unwrap();
    assert!(
        last.contains("final_overridden") && last.contains(&label),
        "{last}"
    );
    let sessions: Vec<_> = std::fs::read_dir(project.join(".massgen/sessions"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    let answer = std::fs::read_to_string(sessions[0].join("turn_1/answer.txt")).unwrap();
    let content = serde_json::from_str::<serde_json::Value>(last).unwrap()["msg"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(answer, content);
}
