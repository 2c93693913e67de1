//! Orchestration overhead per agent round and peak memory of a 3-agent turn, with the
//! scripted backend at zero delay (so every measured microsecond is massgen's own work:
//! prompts, coordination, event fan-out and the event log).
//!
//! Run: `cargo bench --bench orchestration` (results go in BENCHMARKS.md).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use massgen::backend::build_backends;
use massgen::config::{self, Config, Env};
use massgen::orchestrator::ToolSetup;
use massgen::orchestrator::{self, RuntimeOptions};
use massgen::protocol::EventMsg;
use massgen::session::RunLogDir;
use massgen::tools::NoTools;

/// The shipped demo, with every scripted agent made instant.
fn demo_at_zero_delay() -> Config {
    let demo = config::examples::demo().expect("demo config is embedded");
    let loaded = config::from_text(demo.text, "demo", &Env::default()).unwrap();
    let mut config = loaded.into_runnable().unwrap().0;
    for agent in &mut config.agents {
        if let Some(options) = agent.backend.scripted.as_mut() {
            options.tokens_per_second = 0.0;
            options.first_token_ms = 0;
        }
    }
    config
}

fn agents_at_zero_delay(count: usize) -> Config {
    let mut yaml = String::from("agents:\n");
    for index in 1..=count {
        yaml.push_str(&format!(
            "  - id: agent_{index}\n    backend: {{type: scripted, tokens_per_second: 0, \
             reasoning: \"Weigh the options, then answer.\", text: \"Working on it now.\", \
             answer: \"Answer {index}: a short paragraph that states the result and one reason \
             for it.\", vote_for: agent_1}}\n"
        ));
    }
    let loaded = config::from_text(&yaml, "bench", &Env::default()).unwrap();
    loaded.into_runnable().unwrap().0
}

struct Measurement {
    turns: usize,
    rounds: usize,
    events: usize,
    elapsed: Duration,
}

async fn measure(config: Config, turns: usize, logging: Option<std::path::PathBuf>) -> Measurement {
    let backends = build_backends(&config, &massgen::config::Env::default()).unwrap();
    let mut handle = orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::Shared(Arc::new(NoTools)),
        RuntimeOptions {
            logs: logging.map(|dir| RunLogDir::create(&dir.join(".massgen")).unwrap()),
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor: massgen::redact::Redactor::default(),
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: None,
        },
    );
    let mut rounds = 0;
    let mut events = 0;
    let started = Instant::now();
    for _ in 0..turns {
        let turn = handle.run_turn("What is the capital of France?").await;
        events += turn.len();
        rounds += turn
            .iter()
            .filter(|event| matches!(event.msg, EventMsg::RoundStarted { .. }))
            .count();
        assert!(
            turn.iter()
                .any(|event| matches!(event.msg, EventMsg::FinalPresentationDone { .. })),
            "every benchmark turn completes"
        );
    }
    let elapsed = started.elapsed();
    handle.shutdown().await;
    Measurement {
        turns,
        rounds,
        events,
        elapsed,
    }
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let logs = tempfile::tempdir().unwrap();

    // Memory first, before anything else has grown the heap.
    let before = peak_rss_kib();
    runtime.block_on(measure(
        demo_at_zero_delay(),
        1,
        Some(logs.path().to_path_buf()),
    ));
    let after = peak_rss_kib();
    println!("peak RSS (VmHWM) around one 3-agent demo turn, logging on:");
    println!(
        "  {} KiB before the turn, {} KiB after",
        before.map_or("n/a".into(), |kib| kib.to_string()),
        after.map_or("n/a".into(), |kib| kib.to_string())
    );

    println!("\norchestration overhead, scripted backend at zero delay (multi-thread runtime):");
    println!(
        "{:>7} {:>6} {:>12} {:>13} {:>10} {:>12} {:>13}",
        "agents", "turns", "rounds/turn", "events/round", "µs/round", "log µs/turn", "µs/round+log"
    );
    for agents in [1, 3, 8] {
        let turns = 400 / agents;
        let [with_log, without_log] = [true, false].map(|logging| {
            let dir = logging.then(|| logs.path().to_path_buf());
            // Warm up so the allocator and page cache are in steady state.
            runtime.block_on(measure(agents_at_zero_delay(agents), 5, dir.clone()));
            // Spawned, so the consumer runs on a worker like the real front end does.
            runtime
                .block_on(runtime.spawn(measure(agents_at_zero_delay(agents), turns, dir)))
                .unwrap()
        });
        let per_round = |m: &Measurement| m.elapsed.as_secs_f64() * 1e6 / m.rounds as f64;
        let per_turn = |m: &Measurement| m.elapsed.as_secs_f64() * 1e6 / m.turns as f64;
        println!(
            "{:>7} {:>6} {:>12.1} {:>13.1} {:>10.1} {:>12.0} {:>13.1}",
            agents,
            turns,
            without_log.rounds as f64 / without_log.turns as f64,
            without_log.events as f64 / without_log.rounds as f64,
            per_round(&without_log),
            per_turn(&with_log) - per_turn(&without_log),
            per_round(&with_log),
        );
    }
}
