//! The real binary in a pseudo-terminal, for input: the composer edits a flag, a ZWJ
//! emoji, CJK and a combining accent as whole clusters and shows exactly the typed text;
//! the mouse (SGR reports) focuses a card, scrolls the timeline and opens a timeline row;
//! mouse reporting is switched off on exit, and never switched on with `--no-mouse`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 40;
const COLS: u16 = 140;
const MOUSE_ON: &str = "\x1b[?1000h";

struct Pty {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Box<dyn portable_pty::MasterPty + Send>,
    keys: Box<dyn Write + Send>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    reading: std::thread::JoinHandle<()>,
}

impl Pty {
    fn start(home: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Self {
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
        for (name, value) in env {
            command.env(name, value);
        }
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
            parser,
            raw,
            reading,
        }
    }

    fn press(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).unwrap();
        self.keys.flush().unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }

    /// A left click at 0-based `col`, `row` (SGR report: press then release).
    fn click(&mut self, col: u16, row: u16) {
        let (x, y) = (col + 1, row + 1);
        self.press(format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m").as_bytes());
    }

    /// One wheel notch up at 0-based `col`, `row`.
    fn wheel_up(&mut self, col: u16, row: u16) {
        self.press(format!("\x1b[<64;{};{}M", col + 1, row + 1).as_bytes());
    }

    fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

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

    /// The first screen row containing `needle`: its index and text.
    fn row_with(&self, needle: &str) -> (u16, String) {
        let parser = self.parser.lock().unwrap();
        parser
            .screen()
            .rows(0, COLS)
            .enumerate()
            .find(|(_, row)| row.contains(needle))
            .map(|(index, row)| (u16::try_from(index).unwrap(), row))
            .unwrap_or_else(|| panic!("no row shows {needle:?}:\n{}", parser.screen().contents()))
    }

    /// The composer's text row (inside its frame), as the terminal shows it.
    fn composer_row(&self, needle: &str) -> String {
        let (_, row) = self.row_with(needle);
        row.trim_end()
            .trim_start_matches('│')
            .trim_end_matches('│')
            .trim_end()
            .to_string()
    }

    /// Columns of `row` drawn in reverse video (the composer's cursor).
    fn reversed(&self, row: u16) -> Vec<u16> {
        let parser = self.parser.lock().unwrap();
        (1..COLS - 1)
            .filter(|&col| {
                parser
                    .screen()
                    .cell(row, col)
                    .is_some_and(vt100::Cell::inverse)
            })
            .collect()
    }

    /// Waits for the program to exit successfully; returns everything it wrote.
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
        let raw = self.raw.lock().unwrap();
        String::from_utf8_lossy(&raw).into_owned()
    }
}

const FLAG: &str = "🇫🇷";
const FAMILY: &str = "👨\u{200d}👩\u{200d}👧";

#[test]
fn the_composer_edits_whole_clusters_and_shows_exactly_the_text() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[], &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    let typed = format!("{FLAG} ok {FAMILY} 漢字 e\u{301}!");
    pty.press(typed.as_bytes());
    pty.wait_for(&["ok"], "typed");
    assert_eq!(pty.composer_row(" ok "), typed, "no ghost cells");
    let (row, _) = pty.row_with(" ok ");
    // Cursor after `!`: flag 2 + " ok " 4 + family 6 + " 漢字 é!" 8 = column 20 inside
    // the frame (21 on screen).
    assert_eq!(pty.reversed(row), [21]);
    // Seven clusters left: `!`, é, space, 字, 漢, space, then the family.
    for _ in 0..7 {
        pty.press(b"\x1b[D");
    }
    assert_eq!(
        pty.composer_row(" ok "),
        typed,
        "moving leaves the text as it is"
    );
    assert_eq!(
        pty.reversed(row),
        [7, 9, 11],
        "the cursor covers the family's parts"
    );
    pty.press(b"\x1b[3~"); // Delete: the whole family
    let without_family = format!("{FLAG} ok  漢字 e\u{301}!");
    assert_eq!(pty.composer_row(" ok "), without_family);
    for _ in 0..4 {
        pty.press(b"\x1b[D");
    }
    pty.press(b"\x7f"); // Backspace: the whole flag
    assert_eq!(pty.composer_row(" ok "), " ok  漢字 e\u{301}!");
    assert_eq!(pty.reversed(row), [1]);
    pty.press(b"\x1b[F"); // End
    pty.press(b"\x7f\x7f"); // `!`, then é (e and its accent together)
    assert_eq!(pty.composer_row(" ok "), " ok  漢字");
    pty.press(b"\x03"); // Ctrl+C clears the composer,
    pty.press(b"\x03"); // asks to quit,
    pty.press(b"\x03"); // and quits
    pty.finish();
}

#[test]
fn clicks_and_the_wheel_reach_cards_and_the_timeline_and_mouse_mode_ends_on_exit() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[], &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"What is the capital of France?\r");
    pty.wait_for(&["Idle", "wins", "Final answer"], "turn done");
    // The final answer fills the body; `f` brings the cards back.
    pty.press(b"\x1b");
    pty.press(b"f");
    pty.wait_for(&["final answer presented"], "the cards and the timeline");

    // Three cards side by side at 140 columns; the third is critic's. A click on it
    // focuses it and leaves the composer, so `o` opens its output.
    let (title, _) = pty.row_with("critic ·");
    pty.click(120, title + 3);
    pty.press(b"o");
    pty.wait_for(&["Output of critic"], "the clicked card is focused");
    pty.press(b"\x1b");

    // The wheel over the timeline scrolls it.
    let (timeline, _) = pty.row_with("Timeline ·");
    pty.wheel_up(10, timeline + 2);
    pty.wait_for(&["new ↓ (End)"], "the timeline scrolled");
    pty.press(b"\x1b[F"); // End: follow again
    pty.wait_for(&["turn done"], "following again");

    // A timeline row: one click selects it, a second opens it; the presentation's row
    // opens the final view.
    let (presenting, _) = pty.row_with("presenting agent");
    pty.click(20, presenting);
    pty.click(20, presenting);
    pty.wait_for(&["Final answer ·"], "the presented answer opened");
    pty.press(b"\x1b");
    pty.press(b"q");
    let output = pty.finish();
    let on = output.rfind(MOUSE_ON).expect("mouse reporting was on");
    assert!(
        output[on..].contains("\x1b[?1000l") && output[on..].contains("\x1b[?1006l"),
        "mouse reporting is switched off on exit"
    );
}

#[test]
fn no_mouse_leaves_the_mouse_to_the_terminal() {
    for (args, env) in [
        (&["--no-mouse"][..], &[][..]),
        (&[][..], &[("MASSGEN_NO_MOUSE", "1")][..]),
    ] {
        let home = tempfile::tempdir().unwrap();
        let mut pty = Pty::start(home.path(), args, env);
        pty.wait_for(&["Type a question below"], "welcome");
        pty.press(b"\x03");
        pty.press(b"\x03");
        let output = pty.finish();
        assert!(
            !output.contains(MOUSE_ON),
            "{args:?} {env:?}: mouse reporting stays off"
        );
    }
}
