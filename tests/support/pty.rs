//! The real binary in a pseudo-terminal, for the TUI tests: start it at a size, press keys
//! and mouse reports, read the parsed screen, and check that it gives the terminal back.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// Agents that stream about one word a second: a turn lasts long past any key a test
/// presses, so it cannot end by itself between the screen showing it and the keys arriving.
#[allow(dead_code)]
pub const SLOW_AGENTS: &str = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 1}
  - id: b
    backend: {type: scripted, tokens_per_second: 1}
"#;

/// How to start the binary: the terminal's size, its working directory (the home when
/// unset) and extra environment variables. The environment is otherwise cleared.
#[derive(Clone, Debug)]
pub struct Launch {
    pub rows: u16,
    pub cols: u16,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
}

impl Default for Launch {
    fn default() -> Self {
        Self {
            rows: 40,
            cols: 140,
            cwd: None,
            env: Vec::new(),
        }
    }
}

impl Launch {
    pub fn sized(rows: u16, cols: u16) -> Self {
        Self {
            rows,
            cols,
            ..Self::default()
        }
    }

    pub fn in_dir(mut self, cwd: &Path) -> Self {
        self.cwd = Some(cwd.to_path_buf());
        self
    }

    pub fn with_env(mut self, name: &str, value: &str) -> Self {
        self.env.push((name.to_string(), value.to_string()));
        self
    }
}

/// The real binary running in a pseudo-terminal, its screen parsed as it draws.
pub struct Pty {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Box<dyn portable_pty::MasterPty + Send>,
    keys: Box<dyn Write + Send>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    reading: std::thread::JoinHandle<()>,
    cols: u16,
}

impl Pty {
    /// `massgen args…` at 140×40 with `home` as its working directory and home.
    pub fn start(home: &Path, args: &[&str]) -> Self {
        Self::launch(home, args, Launch::default())
    }

    pub fn launch(home: &Path, args: &[&str], launch: Launch) -> Self {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: launch.rows,
                cols: launch.cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_massgen"));
        command.args(args);
        command.cwd(launch.cwd.as_deref().unwrap_or(home));
        command.env_clear();
        command.env("HOME", home);
        command.env("XDG_CONFIG_HOME", home.join(".config"));
        command.env("TERM", "xterm-256color");
        command.env("PATH", std::env::var("PATH").unwrap_or_default());
        for (name, value) in &launch.env {
            command.env(name, value);
        }
        let child = pair.slave.spawn_command(command).unwrap();
        drop(pair.slave);

        let parser = Arc::new(Mutex::new(vt100::Parser::new(
            NonZeroU16::new(launch.rows).unwrap(),
            NonZeroU16::new(launch.cols).unwrap(),
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
            parser,
            raw,
            reading,
            cols: launch.cols,
        }
    }

    /// Writes `bytes` as typed keys and gives the app 150 ms to take them.
    pub fn press(&mut self, bytes: &[u8]) {
        self.send(bytes);
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Writes `bytes` as typed keys without waiting.
    pub fn send(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).unwrap();
        self.keys.flush().unwrap();
    }

    /// A left click at 0-based `col`, `row` (SGR report: press then release).
    pub fn click(&mut self, col: u16, row: u16) {
        let (x, y) = (col + 1, row + 1);
        self.press(format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m").as_bytes());
    }

    /// One wheel notch up at 0-based `col`, `row`.
    pub fn wheel_up(&mut self, col: u16, row: u16) {
        self.press(format!("\x1b[<64;{};{}M", col + 1, row + 1).as_bytes());
    }

    pub fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Everything the program wrote so far, escape sequences included.
    pub fn output(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned()
    }

    /// Waits up to 30 s until the screen shows every one of `needles`; returns the screen.
    pub fn wait_for(&self, needles: &[&str], step: &str) -> String {
        self.wait_until(
            |text| needles.iter().all(|needle| text.contains(needle)),
            &format!("{step}: {needles:?}"),
        )
    }

    /// Waits up to 30 s until the screen's text passes `test`; returns the screen.
    pub fn wait_until(&self, test: impl Fn(&str) -> bool, step: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = self.text();
            if test(&text) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{step}: the screen never got there; it shows:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The first screen row containing `needle`: its index and text.
    pub fn row_with(&self, needle: &str) -> (u16, String) {
        let parser = self.parser.lock().unwrap();
        parser
            .screen()
            .rows(0, self.cols)
            .enumerate()
            .find(|(_, row)| row.contains(needle))
            .map(|(index, row)| (u16::try_from(index).unwrap(), row))
            .unwrap_or_else(|| panic!("no row shows {needle:?}:\n{}", parser.screen().contents()))
    }

    /// Columns of `row` drawn in reverse video (the composer's cursor).
    pub fn reversed(&self, row: u16) -> Vec<u16> {
        let parser = self.parser.lock().unwrap();
        (1..self.cols - 1)
            .filter(|&col| {
                parser
                    .screen()
                    .cell(row, col)
                    .is_some_and(vt100::Cell::inverse)
            })
            .collect()
    }

    /// Esc then `q` (quit from key mode), then `finish`.
    pub fn quit(mut self) -> String {
        self.press(b"\x1b");
        self.press(b"q");
        self.finish()
    }

    /// Waits for a successful exit and returns everything the program wrote, checking that
    /// the terminal was given back.
    pub fn finish(self) -> String {
        self.finish_with(0)
    }

    /// Like `finish`, for a program that exits with `code`.
    pub fn finish_with(mut self, code: u32) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "massgen did not quit");
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(status.exit_code(), code, "{status:?}");
        drop(self.master);
        let _ = self.reading.join();
        let output = String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned();
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
