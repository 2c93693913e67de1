//! `massgen serve` under load: requests per second and p50/p99 latency of whole chat
//! completions at 1, 4 and 16 concurrent clients, each request a full 3-agent turn of the
//! scripted backend at zero delay with logs on; and the server's memory at idle and under
//! load (Linux `/proc`).
//!
//! Run: `cargo bench --bench serve_load` (10 s per level; `SERVE_LOAD_SECS=N` to change).
//! Results go in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str = "\
agents:
  - id: alpha
    backend: {type: scripted, tokens_per_second: 0, answers: [\"Four.\"], final_answer: \"The answer is 4.\"}
  - id: beta
    backend: {type: scripted, tokens_per_second: 0, answers: [\"4\"], vote_for: alpha}
  - id: gamma
    backend: {type: scripted, tokens_per_second: 0, answers: [\"2+2=4\"], vote_for: alpha}
";

/// `(VmRSS, VmHWM)` in MiB.
fn memory(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn main() {
    let seconds: u64 = std::env::var("SERVE_LOAD_SECS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(10);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("team.yaml"), CONFIG).unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_massgen"))
        .args([
            "--config",
            "team.yaml",
            "serve",
            "--port",
            "0",
            "--max-concurrent",
            "16",
        ])
        .current_dir(dir.path())
        .env("HOME", dir.path().join("home"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_string();
    let pid = child.id();
    std::thread::sleep(Duration::from_millis(500));
    let (idle, _) = memory(pid);
    println!("serve_load: 3 scripted agents per turn, logs on, {seconds} s per level");
    println!("  idle RSS: {idle:.1} MiB");
    println!(" clients  requests   req/s   p50 ms   p99 ms   errors   RSS MiB (peak so far)");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    for clients in [1usize, 4, 16] {
        let url = format!("{base}/v1/chat/completions");
        let (latencies, errors, elapsed) = runtime.block_on(async move {
            let client = massgen::backend::http_client().unwrap();
            let deadline = Instant::now() + Duration::from_secs(seconds);
            let started = Instant::now();
            let tasks: Vec<_> = (0..clients)
                .map(|_| {
                    let client = client.clone();
                    let url = url.clone();
                    tokio::spawn(async move {
                        let mut latencies = Vec::new();
                        let mut errors = 0;
                        let body = serde_json::json!({"model": "massgen",
                            "messages": [{"role": "user", "content": "What is 2+2?"}]});
                        while Instant::now() < deadline {
                            let sent = Instant::now();
                            match client.post(&url).json(&body).send().await {
                                Ok(response) if response.status().is_success() => {
                                    let _ = response.bytes().await;
                                    latencies.push(sent.elapsed());
                                }
                                Ok(_) | Err(_) => errors += 1,
                            }
                        }
                        (latencies, errors)
                    })
                })
                .collect();
            let mut all = Vec::new();
            let mut errors = 0;
            for task in tasks {
                let (latencies, failed) = task.await.unwrap();
                all.extend(latencies);
                errors += failed;
            }
            (all, errors, started.elapsed())
        });
        let mut sorted = latencies;
        sorted.sort();
        let (rss, peak) = memory(pid);
        println!(
            " {clients:>7}  {:>8}  {:>6.1}  {:>7.1}  {:>7.1}  {errors:>7}   {rss:.1} ({peak:.1})",
            sorted.len(),
            sorted.len() as f64 / elapsed.as_secs_f64(),
            percentile(&sorted, 0.5).as_secs_f64() * 1000.0,
            percentile(&sorted, 0.99).as_secs_f64() * 1000.0,
        );
    }
    let _ = child.kill();
    let _ = child.wait();
}
