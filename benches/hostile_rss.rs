//! Peak memory of the real `massgen` binary against a hostile provider (issue 27, item 5):
//! an OpenAI-compatible server on localhost streams valid chat-completion chunks of a few
//! characters each, as fast as the socket takes them, forever. One and four agents, in
//! each display (quiet, plain, and the TUI in a pseudo-terminal whose output is drained),
//! with logs on and `orchestrator_timeout_seconds` ending the turn. Peak RSS is taken
//! while the agents stream (sampled `VmRSS`) and over the whole run, the end-of-turn log
//! pass included (`/usr/bin/time`'s maximum RSS, or the last `VmHWM` sampled without it).
//!
//! Run: `cargo bench --bench hostile_rss` (Linux only, it reads `/proc`). Knobs:
//! `HOSTILE_RSS_SECS` (the timeout, default 20), `HOSTILE_RSS_AGENTS` (default `1,4`),
//! `HOSTILE_RSS_DISPLAYS` (default `quiet,plain,tui`), `HOSTILE_RSS_DELTA_CHARS` (characters
//! per chunk, default 8) and `HOSTILE_RSS_BIN` (another build of massgen to measure).
//! Results go in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::convert::Infallible;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::StreamExt;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const MIB: f64 = 1024.0 * 1024.0;
const TARGET_MIB: f64 = 200.0;
/// GNU time: the child's maximum RSS, measured by the kernel, the end included.
const TIME: &str = "/usr/bin/time";
/// How long after the timeout the run may take to write its logs and exit.
const GRACE: Duration = Duration::from_secs(240);

fn knob(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// 256 chunks of `chars` characters of text each: one write of the endless body.
fn block(chars: usize) -> Bytes {
    let chunk = serde_json::json!({
        "id": "chatcmpl-endless",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"content": "w".repeat(chars)}}],
    });
    Bytes::from(format!("data: {chunk}\n\n").repeat(256))
}

#[derive(Default)]
struct Served {
    calls: AtomicU64,
    bytes: AtomicU64,
    chars: AtomicU64,
}

async fn endless(
    axum::extract::State(served): axum::extract::State<Arc<Served>>,
) -> axum::response::Response {
    served.calls.fetch_add(1, Ordering::Relaxed);
    let block = block(served.chars.load(Ordering::Relaxed) as usize);
    let body = futures::stream::repeat_with(move || block.clone()).map(move |block| {
        served
            .bytes
            .fetch_add(block.len() as u64, Ordering::Relaxed);
        Ok::<_, Infallible>(block)
    });
    axum::response::Response::builder()
        .header("content-type", "text/event-stream")
        .body(axum::body::Body::from_stream(body))
        .unwrap()
}

/// `(VmRSS, VmHWM)` of `pid` in KiB.
fn memory_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// The one child of `pid` (massgen under `/usr/bin/time`).
fn child_of(pid: u32) -> Option<u32> {
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    children.split_whitespace().next()?.parse().ok()
}

/// The turn's logs are written: `execution_metadata.yaml` comes after the derived files.
fn turn_saved(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        entry.file_name() == "execution_metadata.yaml"
            || entry.file_type().is_ok_and(|kind| kind.is_dir()) && turn_saved(&entry.path())
    })
}

fn disk_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => disk_bytes(&entry.path()),
            Ok(kind) if kind.is_file() => entry.metadata().map_or(0, |meta| meta.len()),
            Ok(_) | Err(_) => 0,
        })
        .sum()
}

/// A running massgen: a plain child, or one in a pseudo-terminal whose output is drained.
enum Running {
    Piped(std::process::Child),
    Pty(
        Box<dyn portable_pty::Child + Send + Sync>,
        Box<dyn std::io::Write + Send>,
    ),
}

impl Running {
    fn pid(&self) -> u32 {
        match self {
            Self::Piped(child) => child.id(),
            Self::Pty(child, _) => child.process_id().unwrap(),
        }
    }

    fn exited(&mut self) -> bool {
        match self {
            Self::Piped(child) => child.try_wait().unwrap().is_some(),
            Self::Pty(child, _) => child.try_wait().unwrap().is_some(),
        }
    }

    fn kill(&mut self) {
        match self {
            Self::Piped(child) => drop(child.kill()),
            Self::Pty(child, _) => drop(child.kill()),
        }
    }

    /// The TUI stays open after its turn: Esc then `q` quits it.
    fn quit_tui(&mut self) {
        if let Self::Pty(_, keys) = self {
            for key in [&b"\x1b"[..], b"q"] {
                let _ = keys.write_all(key);
                let _ = keys.flush();
                std::thread::sleep(Duration::from_millis(300));
            }
        }
    }
}

struct Case {
    agents: usize,
    display: String,
}

struct Measured {
    streaming_kib: u64,
    peak_kib: u64,
    logs_bytes: u64,
    exit_after: Duration,
    finished: bool,
}

fn config(agents: usize, address: std::net::SocketAddr, seconds: u64) -> String {
    let agents: String = (1..=agents)
        .map(|number| {
            format!(
                "  - id: agent{number}\n    backend: {{type: chatcompletion, model: endless, \
                 api_key: sk-bench-key-0123456789, base_url: \"http://{address}/v1\", \
                 max_retries: 20}}\n"
            )
        })
        .collect();
    format!("agents:\n{agents}timeout_settings:\n  orchestrator_timeout_seconds: {seconds}\n")
}

fn start(binary: &Path, dir: &Path, display: &str, report: &Path) -> Running {
    let time = Path::new(TIME);
    let (program, mut args): (PathBuf, Vec<String>) = if time.exists() {
        let report = report.display().to_string();
        let args = ["-o", &report, "-f", "%M", &binary.display().to_string()].map(String::from);
        (time.into(), args.to_vec())
    } else {
        (binary.into(), Vec::new())
    };
    args.extend(
        [
            "--config",
            "endless.yaml",
            "--display",
            display,
            "Count forever.",
        ]
        .map(String::from),
    );
    let home = dir.join("home");
    if display == "tui" {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: 40,
                cols: 140,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut command = CommandBuilder::new(program);
        command.args(&args);
        command.cwd(dir);
        command.env_clear();
        command.env("HOME", &home);
        command.env("PATH", std::env::var("PATH").unwrap_or_default());
        command.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(command).unwrap();
        drop(pair.slave);
        let keys = pair.master.take_writer().unwrap();
        let mut reader = pair.master.try_clone_reader().unwrap();
        std::thread::spawn(move || {
            let _master = pair.master;
            let mut sink = vec![0; 64 * 1024];
            while matches!(reader.read(&mut sink), Ok(read) if read > 0) {}
        });
        return Running::Pty(child, keys);
    }
    let child = Command::new(program)
        .args(&args)
        .current_dir(dir)
        .env("HOME", &home)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    Running::Piped(child)
}

fn measure(binary: &Path, case: &Case, address: std::net::SocketAddr, seconds: u64) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("endless.yaml"),
        config(case.agents, address, seconds),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let report = dir.path().join("time.txt");
    let mut running = start(binary, dir.path(), &case.display, &report);
    let wrapper = running.pid();
    let started = Instant::now();
    let timeout = Duration::from_secs(seconds);
    let (mut streaming_kib, mut hwm_kib) = (0, 0);
    let mut massgen = None;
    let mut finished = false;
    let mut quitting = false;
    while started.elapsed() < timeout + GRACE {
        std::thread::sleep(Duration::from_millis(20));
        if running.exited() {
            finished = true;
            break;
        }
        if !quitting && started.elapsed() > timeout && turn_saved(&dir.path().join(".massgen")) {
            quitting = true;
            running.quit_tui();
        }
        let pid = *massgen.get_or_insert_with(|| {
            if Path::new(TIME).exists() {
                child_of(wrapper).unwrap_or(0)
            } else {
                wrapper
            }
        });
        if pid == 0 {
            massgen = None;
            continue;
        }
        if let Some((rss, hwm)) = memory_kib(pid) {
            hwm_kib = hwm_kib.max(hwm);
            if started.elapsed() < timeout {
                streaming_kib = streaming_kib.max(rss);
            }
        }
    }
    let exit_after = started.elapsed();
    if !finished {
        running.kill();
    }
    let timed_peak = std::fs::read_to_string(&report)
        .ok()
        .and_then(|text| text.lines().last()?.trim().parse::<u64>().ok());
    Measured {
        streaming_kib,
        peak_kib: timed_peak.unwrap_or(hwm_kib).max(hwm_kib),
        logs_bytes: disk_bytes(&dir.path().join(".massgen")),
        exit_after,
        finished,
    }
}

fn main() {
    let seconds: u64 = knob("HOSTILE_RSS_SECS", "20").parse().unwrap();
    let chars: u64 = knob("HOSTILE_RSS_DELTA_CHARS", "8").parse().unwrap();
    let binary = std::env::var_os("HOSTILE_RSS_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_massgen")),
        PathBuf::from,
    );
    let cases: Vec<Case> = knob("HOSTILE_RSS_AGENTS", "1,4")
        .split(',')
        .flat_map(|agents| {
            let agents: usize = agents.trim().parse().unwrap();
            knob("HOSTILE_RSS_DISPLAYS", "quiet,plain,tui")
                .split(',')
                .map(move |display| Case {
                    agents,
                    display: display.trim().to_string(),
                })
                .collect::<Vec<_>>()
        })
        .collect();

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let served = Arc::new(Served::default());
    served.chars.store(chars, Ordering::Relaxed);
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let address = listener.local_addr().unwrap();
    let app = axum::Router::new()
        .fallback(endless)
        .with_state(Arc::clone(&served));
    runtime.spawn(async move { axum::serve(listener, app).await.unwrap() });

    println!(
        "hostile_rss: {} — endless stream of {chars}-character chunks, logs on, \
         orchestrator_timeout_seconds: {seconds}",
        binary.display()
    );
    println!(
        "{:>6}  {:<7} {:>14} {:>11} {:>10} {:>10} {:>8}",
        "agents", "display", "streaming MiB", "peak MiB", "logs MiB", "sent MiB", "exit s"
    );
    let mut over = 0;
    for case in &cases {
        let sent_before = served.bytes.load(Ordering::Relaxed);
        let measured = measure(&binary, case, address, seconds);
        let sent = served.bytes.load(Ordering::Relaxed) - sent_before;
        let peak = measured.peak_kib as f64 / 1024.0;
        if peak >= TARGET_MIB {
            over += 1;
        }
        println!(
            "{:>6}  {:<7} {:>14.1} {:>11.1} {:>10.1} {:>10.0} {:>8}",
            case.agents,
            case.display,
            measured.streaming_kib as f64 / 1024.0,
            peak,
            measured.logs_bytes as f64 / MIB,
            sent as f64 / MIB,
            if measured.finished {
                format!("{:.1}", measured.exit_after.as_secs_f64())
            } else {
                "killed".to_string()
            },
        );
    }
    println!(
        "provider calls: {}; peak RSS target < {TARGET_MIB} MiB: {}",
        served.calls.load(Ordering::Relaxed),
        if over == 0 {
            "met".to_string()
        } else {
            format!("missed in {over} of {}", cases.len())
        }
    );
}
