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

#[path = "support/massgen_run.rs"]
mod massgen_run;

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::StreamExt;
use massgen_run::{Running, memory_kib, timed_peak_kib, turn_saved};

const MIB: f64 = 1024.0 * 1024.0;
const TARGET_MIB: f64 = 200.0;
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
    let args = [
        "--config",
        "endless.yaml",
        "--display",
        display,
        "Count forever.",
    ]
    .map(String::from);
    Running::start(binary, dir, &args, display, report)
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
    let started = Instant::now();
    let timeout = Duration::from_secs(seconds);
    let (mut streaming_kib, mut hwm_kib) = (0, 0);
    let mut massgen = None;
    let mut finished = false;
    let mut quitting = false;
    while started.elapsed() < timeout + GRACE {
        std::thread::sleep(Duration::from_millis(20));
        if running.exited().is_some() {
            finished = true;
            break;
        }
        if !quitting && started.elapsed() > timeout && turn_saved(&dir.path().join(".massgen")) {
            quitting = true;
            running.quit_tui();
        }
        if massgen.is_none() {
            massgen = running.massgen_pid();
        }
        let Some(pid) = massgen else { continue };
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
    let timed_peak = timed_peak_kib(&report);
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
