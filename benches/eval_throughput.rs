//! `massgen eval`'s harness: items per second against a zero-latency in-test provider at
//! concurrency 16, and what the harness adds to the provider's own time (a provider that
//! waits a fixed delay before each reply, one item at a time: wall time per item against
//! the summed provider time). Each item is one fresh single-agent turn with logs on, as
//! `massgen eval` runs it (answer, vote, final presentation: three calls).
//!
//! Run: `cargo bench --bench eval_throughput` (`EVAL_BENCH_ITEMS=N`, default 400, and
//! `EVAL_BENCH_DELAY_MS=N`, default 100, to change; `EVAL_BENCH_LOGS=0` turns the turns'
//! logs off). Results go in BENCHMARKS.md.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_precision_loss,
    dead_code
)]

#[path = "../tests/support/mock_llm.rs"]
mod mock_llm;

#[path = "../tests/eval/provider.rs"]
mod provider;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use massgen::config::{Env, from_text};
use massgen::eval::dataset;
use massgen::eval::record::ContenderKind;
use massgen::eval::runner::{
    self, EvalGrader, Lineup, Manifest, NamedConfig, RunPlan, TurnSetting,
};

use provider::QuizProvider;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// Runs `count` items of one model alone; returns the wall time and the provider's calls.
async fn measure(count: usize, concurrency: usize, delay: Duration) -> (Duration, usize) {
    let questions = provider::questions(count);
    let items = dataset::load_text(&provider::dataset(&questions), "bench").unwrap();
    let accuracy = HashMap::from([("bench-model".to_string(), 0.8)]);
    let quiz = QuizProvider::start(questions, accuracy, 1, delay).await;
    let loaded = from_text(
        &quiz.config(&["bench-model"]),
        "bench.yaml",
        &Env::default(),
    )
    .unwrap();
    let named = NamedConfig {
        name: "bench.yaml".into(),
        config: Arc::new(loaded.into_runnable().unwrap().0),
    };
    let mut entries = runner::entries(
        &[named],
        &Lineup {
            strategies: Vec::new(),
            baselines: true,
            samples: 0,
        },
    )
    .unwrap();
    entries.retain(|entry| entry.contender.kind == ContenderKind::SingleModel);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let plan = RunPlan {
        manifest: Manifest::describe("bench", &items, &entries, None),
        items,
        entries,
        out: out.clone(),
        fresh: true,
        concurrency,
        max_cost: None,
        setting: TurnSetting {
            env: Env::default(),
            project_dir: dir.path().to_path_buf(),
            logs: (env_number("EVAL_BENCH_LOGS", 1) == 1).then(|| out.join("logs")),
        },
    };
    let grader = Arc::new(EvalGrader::new(None, None, out));
    let started = Instant::now();
    let outcome = runner::run(plan, grader, None).await.unwrap();
    let wall = started.elapsed();
    assert_eq!(outcome.results.len(), count);
    assert!(outcome.results.iter().all(|result| result.error.is_none()));
    (wall, quiz.total_calls())
}

fn main() {
    let items = env_number("EVAL_BENCH_ITEMS", 400) as usize;
    let delay = Duration::from_millis(env_number("EVAL_BENCH_DELAY_MS", 100));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (wall, calls) = measure(items, 16, Duration::ZERO).await;
        println!(
            "throughput: {items} items at concurrency 16, zero-latency provider: {:.2} s, \
             {:.1} items/s ({calls} provider calls)",
            wall.as_secs_f64(),
            items as f64 / wall.as_secs_f64()
        );
        let overhead_items = (items / 10).max(10);
        let (wall, calls) = measure(overhead_items, 1, delay).await;
        let provider_time = delay * u32::try_from(calls).unwrap();
        let added = wall.saturating_sub(provider_time);
        println!(
            "overhead: {overhead_items} items one at a time, provider delay {} ms per call: \
             {:.1} ms per item wall, {:.1} ms per item at the provider, harness adds {:.1} ms \
             ({:.2} %)",
            delay.as_millis(),
            wall.as_secs_f64() * 1000.0 / overhead_items as f64,
            provider_time.as_secs_f64() * 1000.0 / overhead_items as f64,
            added.as_secs_f64() * 1000.0 / overhead_items as f64,
            added.as_secs_f64() / provider_time.as_secs_f64() * 100.0
        );
    });
}
