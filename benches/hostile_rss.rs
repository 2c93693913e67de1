//! Peak memory of the real `massgen` binary against a hostile provider: an
//! OpenAI-compatible server on localhost streams valid chat-completion chunks forever (an
//! answer that never ends) to three agents, with logs on and the default `limits:`, and
//! `max_retries: 20` (the most a config may ask) so every agent keeps calling back, after a
//! backoff of 1, 2, 4, … s, for the whole run. The process's resident memory is sampled
//! every 100 ms.
//!
//! Run: `cargo bench --bench hostile_rss` (60 s; `HOSTILE_RSS_SECS=N` to change; Linux
//! only, it reads `/proc`). Results go in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::convert::Infallible;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::StreamExt;

const MIB: f64 = 1024.0 * 1024.0;

/// 64 chunks of 1,000 characters of text each: one write of the endless body.
fn block() -> Bytes {
    let chunk = serde_json::json!({
        "id": "chatcmpl-endless",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"content": "word ".repeat(200)}}],
    });
    Bytes::from(format!("data: {chunk}\n\n").repeat(64))
}

#[derive(Default)]
struct Served {
    calls: AtomicU64,
    bytes: AtomicU64,
}

async fn endless(
    axum::extract::State(served): axum::extract::State<Arc<Served>>,
) -> axum::response::Response {
    served.calls.fetch_add(1, Ordering::Relaxed);
    let block = block();
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

fn disk_bytes(dir: &std::path::Path) -> u64 {
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

fn main() {
    let seconds: u64 = std::env::var("HOSTILE_RSS_SECS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(60);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let served = Arc::new(Served::default());
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let address = listener.local_addr().unwrap();
    let app = axum::Router::new()
        .fallback(endless)
        .with_state(Arc::clone(&served));
    runtime.spawn(async move { axum::serve(listener, app).await.unwrap() });

    let dir = tempfile::tempdir().unwrap();
    let agents: String = ["a", "b", "c"]
        .iter()
        .map(|id| {
            format!(
                "  - id: {id}\n    backend: {{type: chatcompletion, model: endless, api_key: \
                 sk-bench-key-0123456789, base_url: \"http://{address}/v1\", max_retries: 20}}\n"
            )
        })
        .collect();
    std::fs::write(
        dir.path().join("endless.yaml"),
        format!("agents:\n{agents}"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_massgen"))
        .args([
            "--config",
            "endless.yaml",
            "--display",
            "plain",
            "Count forever.",
        ])
        .current_dir(dir.path())
        .env("HOME", dir.path().join("home"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.path().join("stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id();
    let started = Instant::now();
    let mut peak_rss = 0;
    let mut marks = Vec::new();
    let mut next_mark = Duration::from_secs(10);
    while started.elapsed() < Duration::from_secs(seconds) {
        std::thread::sleep(Duration::from_millis(100));
        if child.try_wait().unwrap().is_some() {
            let stderr = std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap();
            println!(
                "massgen exited early, after {:?}:\n{stderr}",
                started.elapsed()
            );
            break;
        }
        if let Some((rss, _)) = memory_kib(pid) {
            peak_rss = peak_rss.max(rss);
            if started.elapsed() >= next_mark {
                marks.push((next_mark.as_secs(), rss));
                next_mark += Duration::from_secs(10);
            }
        }
    }
    let hwm = memory_kib(pid).map_or(peak_rss, |(_, hwm)| hwm);
    Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    let code = child.wait().unwrap().code();
    let calls = served.calls.load(Ordering::Relaxed);
    let streamed = served.bytes.load(Ordering::Relaxed) as f64 / MIB;
    println!("hostile_rss: {seconds} s, endless chat-completions stream to 3 agents, logs on");
    println!("  provider calls: {calls}, streamed: {streamed:.0} MiB");
    let marks: Vec<String> = marks
        .iter()
        .map(|(at, kib)| format!("{at} s: {:.1}", *kib as f64 / 1024.0))
        .collect();
    println!("  RSS (MiB) at {}", marks.join(", "));
    println!(
        "  peak RSS (VmHWM): {:.1} MiB (target < 200 MiB)",
        hwm as f64 / 1024.0
    );
    println!(
        "  logs on disk: {:.1} MiB; exit after SIGTERM: {code:?}",
        disk_bytes(&dir.path().join(".massgen")) as f64 / MIB
    );
}
