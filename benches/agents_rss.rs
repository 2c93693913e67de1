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

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use answering_team::{Served, Team, scripted_config, serve, wire_config};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const TARGET_MIB: f64 = 100.0;
/// GNU time: the child's maximum RSS, measured by the kernel, the end included.
const TIME: &str = "/usr/bin/time";
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

/// `VmHWM` of `pid` in KiB.
fn high_water_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
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

/// A running massgen: a plain child, or one in a pseudo-terminal whose output is drained.
enum Running {
    Piped(std::process::Child),
    Pty(
        Box<dyn portable_pty::Child + Send + Sync>,
        Box<dyn Write + Send>,
    ),
}

impl Running {
    fn pid(&self) -> u32 {
        match self {
            Self::Piped(child) => child.id(),
            Self::Pty(child, _) => child.process_id().unwrap(),
        }
    }

    /// Whether it exited, and successfully.
    fn exited(&mut self) -> Option<bool> {
        match self {
            Self::Piped(child) => child.try_wait().unwrap().map(|status| status.success()),
            Self::Pty(child, _) => child.try_wait().unwrap().map(|status| status.success()),
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

fn start(binary: &Path, dir: &Path, agents: usize, display: &str, report: &Path) -> Running {
    let (program, mut args): (PathBuf, Vec<String>) = if Path::new(TIME).exists() {
        let report = report.display().to_string();
        let args = ["-o", &report, "-f", "%M", &binary.display().to_string()].map(String::from);
        (TIME.into(), args.to_vec())
    } else {
        (binary.into(), Vec::new())
    };
    args.extend(
        knob("AGENTS_RSS_ARGS", "")
            .split_whitespace()
            .map(String::from),
    );
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
    let wrapper = running.pid();
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
        hwm_kib = high_water_kib(pid).map_or(hwm_kib, |hwm| hwm_kib.max(hwm));
    }
    let seconds = started.elapsed().as_secs_f64();
    if !ok {
        running.kill();
        eprintln!(
            "{agents} agents, {display}: did not finish cleanly; stderr:\n{}",
            std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap_or_default()
        );
    }
    let timed_peak = std::fs::read_to_string(&report)
        .ok()
        .and_then(|text| text.lines().last()?.trim().parse::<u64>().ok());
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
