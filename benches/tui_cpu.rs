//! The full screen's CPU cost (issue 19): the real binary in a 200×50 pseudo-terminal
//! against an in-bench OpenAI-compatible server that streams 6 agents × 200 tokens/s, the
//! TUI process's CPU share (utime + stime from `/proc/PID/stat` over wall time, % of one
//! core) while all six stream and while idle after the turn; and the same turn headless
//! (`--display quiet`), so the screen's cost shows as a ratio. Also the bytes the TUI
//! wrote to the terminal per second. Linux only (`/proc`).
//!
//! Run: `cargo bench --bench tui_cpu` (`TUI_CPU_SECS=N` streams N s per agent, default 12;
//! `TUI_CPU_IDLE_SECS=N` idles N s, default 10; `TUI_CPU_RUNS=N` alternates N runs of each,
//! default 2; `MASSGEN_BIN=path` measures another build).
//! Results go in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::Read;
use std::num::NonZeroU16;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::response::Response;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use serde_json::{Value, json};

const AGENTS: usize = 6;
const TOKENS_PER_SECOND: u64 = 200;
const ROWS: u16 = 50;
const COLS: u16 = 200;
const WORDS: &[&str] = &[
    " the",
    " cache",
    " keeps",
    " hot",
    " keys",
    " in",
    " memory",
    " and",
    " evicts",
    " by",
    " age;",
    " a",
    " write-through",
    " layer",
    " trades",
    " latency",
    " for",
    " safety,",
    " while",
    " **sharding**",
    " spreads",
    " load",
    " across",
    " `nodes`",
    " evenly.",
];

/// Where the streams are: how many long streams began and ended.
#[derive(Default)]
struct Progress {
    started: AtomicUsize,
    ended: AtomicUsize,
}

#[derive(Clone)]
struct Server {
    tokens: u64,
    calls: Arc<Mutex<HashMap<String, usize>>>,
    progress: Arc<Progress>,
}

fn chunk(delta: &Value) -> Bytes {
    let event = json!({"choices": [{"index": 0, "delta": delta}]});
    Bytes::from(format!("data: {event}\n\n"))
}

fn tool_call(name: &str, arguments: &Value) -> Vec<Bytes> {
    vec![
        chunk(
            &json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": name, "arguments": arguments.to_string()}}]}),
        ),
        Bytes::from(format!(
            "data: {}\n\ndata: [DONE]\n\n",
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                   "usage": {"prompt_tokens": 1000, "completion_tokens": 100}})
        )),
    ]
}

fn sse(body: Body) -> Response {
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(body)
        .unwrap()
}

/// An agent's first call streams `tokens` words at `TOKENS_PER_SECOND` (a paragraph
/// break every 60) and answers; later calls vote for agent1, or present (no vote tool).
async fn reply(State(server): State<Server>, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let model = request["model"].as_str().unwrap_or_default().to_string();
    let call = {
        let mut calls = server.calls.lock().unwrap();
        let count = calls.entry(model.clone()).or_default();
        *count += 1;
        *count
    };
    let has_tool = |name: &str| {
        request["tools"].as_array().is_some_and(|tools| {
            tools
                .iter()
                .any(|tool| tool["function"]["name"].as_str() == Some(name))
        })
    };
    if call == 1 {
        let progress = Arc::clone(&server.progress);
        progress.started.fetch_add(1, Ordering::SeqCst);
        let tokens = server.tokens;
        let ticks = tokio::time::interval(Duration::from_micros(1_000_000 / TOKENS_PER_SECOND));
        let stream = futures::stream::unfold((0u64, ticks), move |(sent, mut ticks)| {
            let progress = Arc::clone(&progress);
            async move {
                if sent == tokens {
                    progress.ended.fetch_add(1, Ordering::SeqCst);
                    return None;
                }
                ticks.tick().await;
                let word = WORDS[usize::try_from(sent).unwrap() % WORDS.len()];
                let text = if sent % 60 == 59 {
                    format!("{word}\n\n")
                } else {
                    word.to_string()
                };
                let chunk = chunk(&json!({ "content": text }));
                Some((Ok::<_, Infallible>(chunk), (sent + 1, ticks)))
            }
        });
        let answer = tool_call(
            "new_answer",
            &json!({"content": format!("Answer from {model}.")}),
        );
        let tail = futures::stream::iter(answer.into_iter().map(Ok::<_, Infallible>));
        return sse(Body::from_stream(futures::StreamExt::chain(stream, tail)));
    }
    let parts = if has_tool("vote") {
        tool_call(
            "vote",
            &json!({"agent_id": "agent1", "reason": "most complete"}),
        )
    } else {
        vec![
            chunk(&json!({"content": "The final answer: shard the cache. DONE-MARK"})),
            Bytes::from("data: [DONE]\n\n"),
        ]
    };
    sse(Body::from_stream(futures::stream::iter(
        parts.into_iter().map(Ok::<_, Infallible>),
    )))
}

/// Serves on 127.0.0.1 on the runtime; its base URL.
fn serve(runtime: &tokio::runtime::Runtime, server: Server) -> String {
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = axum::Router::new().fallback(reply).with_state(server);
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        format!("http://{address}")
    })
}

fn config(base_url: &str) -> String {
    let mut yaml = String::from("agents:\n");
    for agent in 1..=AGENTS {
        yaml.push_str(&format!(
            "  - id: a{agent}\n    backend: {{type: chatcompletion, model: m{agent}, api_key: \
             sk-test-0123456789, base_url: \"{base_url}/v1\", max_retries: 0}}\n"
        ));
    }
    yaml
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
    }
}

fn tui(binary: &Path, dir: &Path, hz: f64, progress: &Progress, seconds: u64, idle: u64) -> Run {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
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
        NonZeroU16::new(ROWS).unwrap(),
        NonZeroU16::new(COLS).unwrap(),
        0,
    )));
    let written = Arc::new(AtomicUsize::new(0));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let (parser_in, written_in) = (Arc::clone(&parser), Arc::clone(&written));
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(read) = reader.read(&mut buf) {
            if read == 0 {
                break;
            }
            written_in.fetch_add(read, Ordering::SeqCst);
            parser_in.lock().unwrap().process(&buf[..read]);
        }
    });
    let bytes_before = written.load(Ordering::SeqCst);
    let (streaming, window) = streaming_share(pid, hz, progress, seconds);
    let bytes = written.load(Ordering::SeqCst) - bytes_before;
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
        // Bytes over the whole streaming phase, spread over the measured window.
        bytes_per_second: Some(bytes as f64 / (window.as_secs_f64() + 0.5)),
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
         {COLS}×{ROWS} terminal, {}",
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
    println!(" display   streaming % core (window)   idle % core   terminal KiB/s");
    for (display, run) in &runs {
        let idle = run
            .idle
            .map_or_else(|| "-".to_string(), |share| format!("{share:.2}"));
        let bytes = run
            .bytes_per_second
            .map_or_else(|| "-".to_string(), |rate| format!("{:.1}", rate / 1024.0));
        println!(
            " {display:<8}  {:>8.1} ({:>5.1} s)           {idle:>8}      {bytes:>8}",
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
