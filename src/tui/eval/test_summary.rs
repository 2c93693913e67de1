//! A hand-made eval summary for the eval screen's tests: a council strategy, two single
//! models (one the best) and a self-consistency baseline.

use crate::eval::record::ContenderKind;
use crate::eval::summary::{Row, Summary};
use crate::stats::Estimate;

fn estimate(value: f64, low: f64, high: f64) -> Option<Estimate> {
    Some(Estimate { value, low, high })
}

fn row(contender: &str, kind: ContenderKind, correct: usize, cost: f64) -> Row {
    Row {
        contender: contender.into(),
        kind,
        items: 40,
        correct,
        failed: 0,
        accuracy: None,
        cost_per_item: Some(cost),
        tokens_per_item: Some(cost * 400_000.0),
        latency_p50_ms: Some(cost * 300_000.0),
        latency_p95_ms: Some(cost * 700_000.0),
        vs_best_single: None,
    }
}

pub(crate) fn four_contenders() -> Summary {
    let mut council = row(
        "three-agents.yaml · council",
        ContenderKind::Strategy,
        34,
        0.012,
    );
    council.accuracy = estimate(0.85, 0.711, 0.929);
    council.vs_best_single = estimate(0.075, -0.021, 0.171);
    let mut best = row("gpt-4o-mini alone", ContenderKind::SingleModel, 31, 0.002);
    best.accuracy = estimate(0.775, 0.625, 0.877);
    let mut other = row("claude-haiku alone", ContenderKind::SingleModel, 26, 0.003);
    other.accuracy = estimate(0.65, 0.495, 0.778);
    other.failed = 2;
    other.vs_best_single = estimate(-0.125, -0.262, 0.012);
    let mut sampled = row(
        "gpt-4o-mini ×5 majority",
        ContenderKind::SelfConsistency,
        32,
        0.01,
    );
    sampled.accuracy = estimate(0.8, 0.652, 0.895);
    sampled.vs_best_single = estimate(0.025, -0.05, 0.1);
    Summary {
        rows: vec![council, best, other, sampled],
        best_single: Some("gpt-4o-mini alone".into()),
        items: 40,
    }
}
