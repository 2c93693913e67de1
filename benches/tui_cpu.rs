//! The full screen's CPU cost (issue 19): the real binary in a 200×50 pseudo-terminal
//! against an in-bench OpenAI-compatible server that streams 6 agents × 200 tokens/s, the
//! TUI process's CPU share (utime + stime from `/proc/PID/stat` over wall time, % of one
//! core) while all six stream and while idle after the turn; and the same turn headless
//! (`--display quiet`), so the screen's cost shows as a ratio. Also the bytes the TUI
//! wrote to the terminal and the frames it drew per second. Linux only (`/proc`).
//!
//! Run: `cargo bench --bench tui_cpu` (`TUI_CPU_SECS=N` streams N s per agent, default 12;
//! `TUI_CPU_SIZE=80x24` another terminal size;
//! `TUI_CPU_IDLE_SECS=N` idles N s, default 10; `TUI_CPU_RUNS=N` alternates N runs of each,
//! default 2; `MASSGEN_BIN=path` measures another build).
//! Results go in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::io::Read;
use std::num::NonZeroU16;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

#[path = "support/streaming_llm.rs"]
mod streaming_llm;

use streaming_llm::{AGENTS, Progress, Server, TOKENS_PER_SECOND, config, serve};

/// The terminal's size: 200×50 unless `TUI_CPU_SIZE=COLSxROWS` says otherwise.
fn size() -> (u16, u16) {
    std::env::var("TUI_CPU_SIZE")
        .ok()
        .and_then(|size| {
            let (cols, rows) = size.split_once('x')?;
            Some((cols.parse().ok()?, rows.parse().ok()?))
        })
        .filter(|&(cols, rows)| cols > 0 && rows > 0)
        .unwrap_or((200, 50))
}
/// CPU time used by `pid` so far (user + system), from `/proc/PID/stat`.
fn cpu(pid: u32, ticks_per_second: f64) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (in parentheses): utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<u64> = rest
        .split_whitespace()
        .map(|field| field.parse().unwrap_or(0))
        .collect();
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    Duration::from_secs_f64(ticks as f64 / ticks_per_second)
}

fn ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(100.0)
}

fn wait_until(what: &str, limit: Duration, done: impl Fn() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A CPU share over a window: % of one core.
struct Window {
    at: Instant,
    cpu: Duration,
}

impl Window {
    fn open(pid: u32, hz: f64) -> Self {
        Self {
            at: Instant::now(),
            cpu: cpu(pid, hz),
        }
    }

    fn percent(&self, pid: u32, hz: f64) -> (f64, Duration) {
        let wall = self.at.elapsed();
        let used = cpu(pid, hz).saturating_sub(self.cpu);
        (100.0 * used.as_secs_f64() / wall.as_secs_f64(), wall)
    }
}

/// The CPU share of `pid` while all agents stream: from half a second after the last
/// stream began until the first one ends.
fn streaming_share(pid: u32, hz: f64, progress: &Progress, seconds: u64) -> (f64, Duration) {
    let limit = Duration::from_secs(seconds + 30);
    wait_until("every agent to stream", limit, || {
        progress.started.load(Ordering::SeqCst) >= AGENTS
    });
    std::thread::sleep(Duration::from_millis(500));
    let window = Window::open(pid, hz);
    wait_until("a stream to end", limit, || {
        progress.ended.load(Ordering::SeqCst) > 0
    });
    window.percent(pid, hz)
}

struct Run {
    streaming: f64,
    window: Duration,
    idle: Option<f64>,
    bytes_per_second: Option<f64>,
    frames_per_second: Option<f64>,
}

fn headless(binary: &Path, dir: &Path, hz: f64, progress: &Progress, seconds: u64) -> Run {
    let mut child = Command::new(binary)
        .args([
            "--config",
            "team.yaml",
            "--display",
            "quiet",
            "Design the cache layer",
        ])
        .current_dir(dir)
        .env("HOME", dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (streaming, window) = streaming_share(child.id(), hz, progress, seconds);
    let status = child.wait().unwrap();
    assert!(status.success(), "the headless turn failed: {status}");
    Run {
        streaming,
        window,
        idle: None,
        bytes_per_second: None,
        frames_per_second: None,
    }
}

fn tui(binary: &Path, dir: &Path, hz: f64, progress: &Progress, seconds: u64, idle: u64) -> Run {
    let (cols, rows) = size();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut command = CommandBuilder::new(binary);
    command.args(["--config", "team.yaml", "Design the cache layer"]);
    command.cwd(dir);
    command.env_clear();
    command.env("HOME", dir);
    command.env("XDG_CONFIG_HOME", dir.join(".config"));
    command.env("TERM", "xterm-256color");
    command.env("PATH", std::env::var("PATH").unwrap_or_default());
    let mut child = pair.slave.spawn_command(command).unwrap();
    drop(pair.slave);
    let pid = child.process_id().unwrap();
    let parser = Arc::new(Mutex::new(vt100::Parser::new(
        NonZeroU16::new(rows).unwrap(),
        NonZeroU16::new(cols).unwrap(),
        0,
    )));
    let written = Arc::new(AtomicUsize::new(0));
    // Every frame shows or hides the cursor once: `ESC [ ? 25 h` or `l`.
    let frames = Arc::new(AtomicUsize::new(0));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let (parser_in, written_in, frames_in) = (
        Arc::clone(&parser),
        Arc::clone(&written),
        Arc::clone(&frames),
    );
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        let mut carry = Vec::new();
        while let Ok(read) = reader.read(&mut buf) {
            if read == 0 {
                break;
            }
            written_in.fetch_add(read, Ordering::SeqCst);
            // The last bytes of the previous read, so a sequence split between reads counts.
            carry.extend_from_slice(&buf[..read]);
            let cursor = carry
                .windows(5)
                .filter(|bytes| bytes == b"\x1b[?25")
                .count();
            frames_in.fetch_add(cursor, Ordering::SeqCst);
            carry.drain(..carry.len().saturating_sub(4));
            parser_in.lock().unwrap().process(&buf[..read]);
        }
    });
    let bytes_before = written.load(Ordering::SeqCst);
    let frames_before = frames.load(Ordering::SeqCst);
    let (streaming, window) = streaming_share(pid, hz, progress, seconds);
    let bytes = written.load(Ordering::SeqCst) - bytes_before;
    let drawn = frames.load(Ordering::SeqCst) - frames_before;
    let screen = || parser.lock().unwrap().screen().contents();
    wait_until(
        "the final answer on screen",
        Duration::from_secs(60),
        || screen().contains("DONE-MARK"),
    );
    std::thread::sleep(Duration::from_secs(1));
    let window_idle = Window::open(pid, hz);
    std::thread::sleep(Duration::from_secs(idle));
    let (idle_share, _) = window_idle.percent(pid, hz);
    child.kill().unwrap();
    let _ = child.wait();
    Run {
        streaming,
        window,
        idle: Some(idle_share),
        // Bytes and frames over the whole streaming phase, spread over the measured window.
        bytes_per_second: Some(bytes as f64 / (window.as_secs_f64() + 0.5)),
        frames_per_second: Some(drawn as f64 / (window.as_secs_f64() + 0.5)),
    }
}

fn main() {
    let env_secs = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|value| value.parse().ok())
            .unwrap_or(default)
    };
    let seconds = env_secs("TUI_CPU_SECS", 12);
    let idle = env_secs("TUI_CPU_IDLE_SECS", 10);
    let binary = std::env::var_os("MASSGEN_BIN").map_or_else(
        || env!("CARGO_BIN_EXE_massgen").into(),
        std::path::PathBuf::from,
    );
    let hz = ticks_per_second();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    println!(
        "tui_cpu: {AGENTS} agents × {TOKENS_PER_SECOND} tokens/s for {seconds} s, \
         {}×{} terminal, {}",
        size().0,
        size().1,
        binary.display()
    );
    let rounds = env_secs("TUI_CPU_RUNS", 2);
    let mut runs = Vec::new();
    for _ in 0..rounds {
        for display in ["quiet", "tui"] {
            let server = Server {
                tokens: TOKENS_PER_SECOND * seconds,
                calls: Arc::default(),
                progress: Arc::default(),
            };
            let progress = Arc::clone(&server.progress);
            let base = serve(&runtime, server);
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("team.yaml"), config(&base)).unwrap();
            let run = match display {
                "quiet" => headless(&binary, dir.path(), hz, &progress, seconds),
                _ => tui(&binary, dir.path(), hz, &progress, seconds, idle),
            };
            runs.push((display, run));
        }
    }
    println!(" display   streaming % core (window)   idle % core   terminal KiB/s   frames/s");
    for (display, run) in &runs {
        let idle = run
            .idle
            .map_or_else(|| "-".to_string(), |share| format!("{share:.2}"));
        let bytes = run
            .bytes_per_second
            .map_or_else(|| "-".to_string(), |rate| format!("{:.1}", rate / 1024.0));
        let frames = run
            .frames_per_second
            .map_or_else(|| "-".to_string(), |rate| format!("{rate:.1}"));
        println!(
            " {display:<8}  {:>8.1} ({:>5.1} s)           {idle:>8}      {bytes:>8}   {frames:>8}",
            run.streaming,
            run.window.as_secs_f64()
        );
    }
    let mean = |wanted: &str| {
        let shares: Vec<f64> = runs
            .iter()
            .filter(|(display, _)| *display == wanted)
            .map(|(_, run)| run.streaming)
            .collect();
        shares.iter().sum::<f64>() / shares.len() as f64
    };
    let ratio = mean("tui") / mean("quiet");
    println!(
        " TUI / headless while streaming (means of {rounds} runs): {ratio:.2}× (target ≤ 1.3×); \
         idle target ≤ 1 %"
    );
}
