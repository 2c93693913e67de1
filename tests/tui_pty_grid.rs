//! The real binary in a 200×50 pseudo-terminal with six agents: every card at once in a
//! grid while they work and after the final view (`f`), one card under tabs after `g`, the
//! grid again after a second `g`; and the choice kept into the next turn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 50;
const COLS: u16 = 200;

/// The real binary running in a pseudo-terminal, its screen parsed as it draws.
struct Pty {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    _master: Box<dyn portable_pty::MasterPty + Send>,
    keys: Box<dyn Write + Send>,
    parser: Arc<Mutex<vt100::Parser>>,
}

impl Pty {
    /// `massgen args…` with `home` as its working directory and home, and no API key.
    fn start(home: &Path, args: &[&str]) -> Self {
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
        command.cwd(home);
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
        let mut reader = pair.master.try_clone_reader().unwrap();
        let parser_in = Arc::clone(&parser);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(read) = reader.read(&mut buf) {
                if read == 0 {
                    break;
                }
                parser_in.lock().unwrap().process(&buf[..read]);
            }
        });
        let keys = pair.master.take_writer().unwrap();
        Self {
            child,
            _master: pair.master,
            keys,
            parser,
        }
    }

    fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Waits until `ready` holds for the screen, and returns it.
    fn wait_until(&self, ready: impl Fn(&str) -> bool, step: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = self.text();
            if ready(&text) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{step}: the screen never got there; it shows:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn press(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).unwrap();
        self.keys.flush().unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Quits from single keys and waits for a successful exit.
    fn quit(mut self) {
        self.press(b"q");
        let deadline = Instant::now() + Duration::from_secs(15);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "massgen did not quit");
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(status.success(), "{status:?}");
    }
}

/// Every agent's card title is on screen, and no tab bar.
fn grid(text: &str) -> bool {
    (1..=6).all(|n| text.contains(&format!("agent{n} · model-{n}"))) && !text.contains("1:agent1")
}

/// The tab bar, and one card.
fn one_card(text: &str) -> bool {
    text.contains("1:agent1 model-1")
        && text.contains("6:agent6 model-6")
        && (1..=6)
            .filter(|n| text.contains(&format!("agent{n} · model-{n}")))
            .count()
            == 1
}

#[test]
fn six_agents_share_a_200x50_screen_and_g_switches_to_one_card() {
    let home = tempfile::tempdir().unwrap();
    let agents: String = (1..=6)
        .map(|n| {
            format!(
                "  - id: agent{n}\n    backend:\n      type: scripted\n      model: model-{n}\n      \
                 answer: \"Answer {n} to {{question}}\"\n      tokens_per_second: 40\n"
            )
        })
        .collect();
    std::fs::write(home.path().join("six.yaml"), format!("agents:\n{agents}")).unwrap();
    let mut pty = Pty::start(home.path(), &["--config", "six.yaml"]);
    pty.wait_until(|text| text.contains("Type a question below"), "welcome");
    pty.press(b"Six views?\r");
    pty.wait_until(
        |text| text.contains("Six views?") && grid(text),
        "the grid while the agents work",
    );
    pty.wait_until(
        |text| text.contains("wins") && text.contains("Final answer"),
        "the final view",
    );
    pty.press(b"\x1b");
    pty.press(b"f");
    pty.wait_until(grid, "f: back to the grid");
    pty.wait_until(|text| text.contains("g: one card"), "the status bar's hint");
    pty.press(b"g");
    pty.wait_until(one_card, "g: one card under tabs");
    pty.wait_until(|text| text.contains("g: all cards"), "the hint turns");
    // The next turn keeps the choice.
    pty.press(b"i");
    pty.press(b"Again?\r");
    pty.wait_until(|text| text.contains("Again?") && one_card(text), "kept");
    pty.wait_until(|text| text.contains("Final answer"), "the next final view");
    pty.press(b"\x1b");
    pty.press(b"g");
    pty.wait_until(grid, "g from the final view: the grid");
    pty.quit();
}
