//! Hostile: SIGTERM and SIGHUP mid-turn (a service manager stopping massgen, a closed
//! terminal). Each is Ctrl+C: the turn is cancelled and saved as such, and massgen exits 4
//! instead of dying with the partial turn lost.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::sandbox::Sandbox;

/// Two scripted agents slow enough that a turn is still running seconds after it starts.
pub const SLOW: &str = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 4, text: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty", answers: ["slow answer"]}
  - id: b
    backend: {type: scripted, tokens_per_second: 4, text: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty", answers: ["slow answer"]}
"#;

pub fn send(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Every `events.jsonl` of the run, concatenated.
pub fn events(root: &Path) -> String {
    let mut text = String::new();
    let mut stack = vec![root.join(".massgen")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|name| name == "events.jsonl") {
                text += &std::fs::read_to_string(&path).unwrap_or_default();
            }
        }
    }
    text
}

fn signalled_mid_turn(signal: &str, display: &str) {
    let sandbox = Sandbox::new();
    sandbox.write("slow.yaml", SLOW);
    let mut child = Command::new(env!("CARGO_BIN_EXE_massgen"))
        .args([
            "--config",
            "slow.yaml",
            "--display",
            display,
            "a slow question",
        ])
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Mid-turn: the agents have started streaming.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !events(&sandbox.root).contains("round_started") {
        assert!(Instant::now() < deadline, "the turn never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    send(child.id(), signal);
    let started = Instant::now();
    let output = loop {
        if child.try_wait().unwrap().is_some() {
            break child.wait_with_output().unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "massgen did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(4), "{signal}: {stderr}");
    let logged = events(&sandbox.root);
    assert!(
        logged.contains("\"cancelled\""),
        "{signal}: the cancelled turn is logged: {logged}"
    );
    assert!(logged.contains("turn_finished"), "{signal}: {logged}");
}

#[test]
fn sigterm_mid_turn_cancels_saves_the_turn_and_exits_4() {
    signalled_mid_turn("TERM", "plain");
}

#[test]
fn sighup_mid_turn_cancels_saves_the_turn_and_exits_4() {
    signalled_mid_turn("HUP", "plain");
}

#[test]
fn sigterm_in_the_quiet_display_does_the_same() {
    signalled_mid_turn("TERM", "quiet");
}

/// The full-screen display in a pseudo-terminal: SIGTERM mid-turn cancels and saves the
/// turn, exits 4, and gives the terminal back (main screen, no mouse reports, no bracketed
/// paste, cursor shown).
#[test]
fn sigterm_in_the_tui_cancels_the_turn_restores_the_terminal_and_exits_4() {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::io::Read;
    use std::sync::{Arc, Mutex};

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
    let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_massgen"));
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
    let mut child = pair.slave.spawn_command(command).unwrap();
    drop(pair.slave);
    let parser = Arc::new(Mutex::new(vt100::Parser::new(
        std::num::NonZeroU16::new(30).unwrap(),
        std::num::NonZeroU16::new(100).unwrap(),
        0,
    )));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let parser_in = Arc::clone(&parser);
    let reading = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(read) = reader.read(&mut buf) {
            if read == 0 {
                break;
            }
            parser_in.lock().unwrap().process(&buf[..read]);
        }
    });
    let _keys = pair.master.take_writer().unwrap();

    let deadline = Instant::now() + Duration::from_secs(20);
    while !events(&sandbox.root).contains("round_started") {
        assert!(Instant::now() < deadline, "the turn never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    {
        let screen = parser.lock().unwrap();
        let screen = screen.screen();
        assert!(
            screen.alternate_screen(),
            "the TUI is on the alternate screen"
        );
        assert_ne!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    }
    send(child.process_id().unwrap(), "TERM");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "massgen did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(pair.master);
    let _ = reading.join();
    assert_eq!(status.exit_code(), 4, "{status:?}");
    let screen = parser.lock().unwrap();
    let screen = screen.screen();
    assert!(!screen.alternate_screen(), "the main screen is back");
    assert_eq!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    assert!(!screen.bracketed_paste(), "bracketed paste is off");
    assert!(!screen.hide_cursor(), "the cursor is shown");
    let logged = events(&sandbox.root);
    assert!(
        logged.contains("\"cancelled\""),
        "the cancelled turn is logged"
    );
}
