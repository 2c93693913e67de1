//! Peak memory of one turn of the real `massgen` binary against the number of agents
//! (issue 28, item 9): N agents (limits raised with `--limit max_agents=N`) each answer
//! once with 200 tokens, then vote for agent1, which presents 200 tokens. Over a real wire
//! (an OpenAI-compatible server on localhost, `support/answering_team.rs`) and with the
//! offline `scripted` backend; in the quiet and plain displays and the TUI in a
//! pseudo-terminal whose output is drained; logs on. Prints the peak RSS of the whole run
//! (`/usr/bin/time`'s maximum RSS, or the last `VmHWM` sampled without it), the RSS per
//! agent, and the growth per agent between the last two sizes.
//!
//! Run: `cargo bench --bench agents_rss` (Linux only, it reads `/proc`). Knobs:
//! `AGENTS_RSS_AGENTS` (default `12,48,64,96`), `AGENTS_RSS_BACKENDS` (`wire,scripted`),
//! `AGENTS_RSS_DISPLAYS` (`quiet,tui`), `AGENTS_RSS_TOKENS` (tokens per answer, 200) and
//! `AGENTS_RSS_BIN` (another build of massgen to measure); `AGENTS_RSS_KEEP=1` keeps each
//! run's directory (its logs) and prints where; `AGENTS_RSS_ARGS` adds arguments
//! (`--no-logs` to measure the turn without its logs). Results go in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

#[path = "support/answering_team.rs"]
mod answering_team;
#[path = "support/massgen_run.rs"]
mod massgen_run;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use answering_team::{Served, Team, scripted_config, serve, wire_config};
use massgen_run::{Running, memory_kib, timed_peak_kib, turn_saved};

const TARGET_MIB: f64 = 100.0;
/// How long one turn may take before it counts as stuck.
const LIMIT: Duration = Duration::from_secs(300);

fn knob(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn list(name: &str, default: &str) -> Vec<String> {
    knob(name, default)
        .split(',')
        .map(|item| item.trim().to_string())
        .filter(|item| !item.is_empty())
        .collect()
}

/// Starts one turn of `agents` agents with `team.yaml` in `dir`.
fn start(binary: &Path, dir: &Path, agents: usize, display: &str, report: &Path) -> Running {
    let mut args: Vec<String> = knob("AGENTS_RSS_ARGS", "")
        .split_whitespace()
        .map(String::from)
        .collect();
    args.extend(
        [
            "--config",
            "team.yaml",
            "--limit",
            &format!("max_agents={agents}"),
            "--display",
            display,
            "Compare three designs for the cache layer.",
        ]
        .map(String::from),
    );
    Running::start(binary, dir, &args, display, report)
}

struct Measured {
    peak_kib: u64,
    seconds: f64,
    /// Exited successfully with its logs written.
    ok: bool,
}

fn measure(binary: &Path, yaml: &str, agents: usize, display: &str) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("team.yaml"), yaml).unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let report = dir.path().join("time.txt");
    let mut running = start(binary, dir.path(), agents, display, &report);
    let started = Instant::now();
    let (mut hwm_kib, mut massgen, mut quitting, mut ok) = (0, None, false, false);
    let logs = !knob("AGENTS_RSS_ARGS", "").contains("--no-logs");
    while started.elapsed() < LIMIT {
        std::thread::sleep(Duration::from_millis(20));
        if let Some(success) = running.exited() {
            ok = success && (!logs || turn_saved(&dir.path().join(".massgen")));
            break;
        }
        if !quitting && turn_saved(&dir.path().join(".massgen")) {
            quitting = true;
            running.quit_tui();
        }
        if massgen.is_none() {
            massgen = running.massgen_pid();
        }
        let Some(pid) = massgen else { continue };
        hwm_kib = memory_kib(pid).map_or(hwm_kib, |(_, hwm)| hwm_kib.max(hwm));
    }
    let seconds = started.elapsed().as_secs_f64();
    if !ok {
        running.kill();
        eprintln!(
            "{agents} agents, {display}: did not finish cleanly; stderr:\n{}",
            std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap_or_default()
        );
    }
    let timed_peak = timed_peak_kib(&report);
    if std::env::var_os("AGENTS_RSS_KEEP").is_some() {
        eprintln!("{agents} agents, {display}: kept {}", dir.keep().display());
    }
    Measured {
        peak_kib: timed_peak.unwrap_or(hwm_kib).max(hwm_kib),
        seconds,
        ok,
    }
}

fn main() {
    let tokens: usize = knob("AGENTS_RSS_TOKENS", "200").parse().unwrap();
    let binary = std::env::var_os("AGENTS_RSS_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_massgen")),
        PathBuf::from,
    );
    let sizes: Vec<usize> = list("AGENTS_RSS_AGENTS", "12,48,64,96")
        .iter()
        .map(|size| size.parse().unwrap())
        .collect();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    println!(
        "agents_rss: {} — one turn, {tokens} tokens per answer, logs on",
        binary.display()
    );
    println!(
        "{:>8}  {:<7} {:>6} {:>10} {:>11} {:>12} {:>7} {:>10} {:>8}",
        "backend",
        "display",
        "agents",
        "peak MiB",
        "KiB/agent",
        "Δ KiB/agent",
        "calls",
        "max req KiB",
        "turn s"
    );
    let mut over = 0;
    for backend in list("AGENTS_RSS_BACKENDS", "wire,scripted") {
        for display in list("AGENTS_RSS_DISPLAYS", "quiet,tui") {
            let mut previous: Option<(usize, u64)> = None;
            for &agents in &sizes {
                let served = Arc::new(Served::default());
                let yaml = if backend == "wire" {
                    let team = Team {
                        tokens,
                        served: Arc::clone(&served),
                    };
                    wire_config(agents, &serve(&runtime, team))
                } else {
                    scripted_config(agents, tokens)
                };
                let measured = measure(&binary, &yaml, agents, &display);
                let peak = measured.peak_kib as f64 / 1024.0;
                if agents == 96 && peak >= TARGET_MIB {
                    over += 1;
                }
                let growth = previous.map_or(String::from("-"), |(size, kib)| {
                    let per_agent =
                        (measured.peak_kib as f64 - kib as f64) / (agents as f64 - size as f64);
                    format!("{per_agent:.0}")
                });
                previous = Some((agents, measured.peak_kib));
                println!(
                    "{:>8}  {:<7} {:>6} {:>10.1} {:>11.0} {:>12} {:>7} {:>10.1} {:>8}",
                    backend,
                    display,
                    agents,
                    peak,
                    measured.peak_kib as f64 / agents as f64,
                    growth,
                    served.calls.load(Ordering::Relaxed),
                    served.largest_request.load(Ordering::Relaxed) as f64 / 1024.0,
                    if measured.ok {
                        format!("{:.1}", measured.seconds)
                    } else {
                        "failed".to_string()
                    },
                );
            }
        }
    }
    println!(
        "peak RSS target at 96 agents < {TARGET_MIB} MiB: {}",
        if over == 0 {
            "met".to_string()
        } else {
            format!("missed in {over} runs")
        }
    );
}
