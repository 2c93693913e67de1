//! The summary of an eval: per contender its accuracy with the Wilson 95 % interval, cost,
//! tokens and latency per item, and its paired difference against the best single model.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Serialize, Serializer};

use crate::eval::record::{Contender, ContenderKind, ItemResult};
use crate::stats::{Estimate, paired_difference, percentile, wilson};

/// One contender's line of the summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub contender: String,
    pub kind: ContenderKind,
    /// Items it has a result for (a failed run counts, as wrong).
    pub items: usize,
    pub correct: usize,
    /// Items whose run failed (no answer).
    pub failed: usize,
    #[serde(serialize_with = "optional_estimate")]
    pub accuracy: Option<Estimate>,
    /// Mean cost in USD over its items.
    pub cost_per_item: Option<f64>,
    /// Mean input plus output tokens over its items.
    pub tokens_per_item: Option<f64>,
    /// Latency percentiles (nearest rank) over the items it answered.
    pub latency_p50_ms: Option<f64>,
    pub latency_p95_ms: Option<f64>,
    /// Mean of (its correctness − the best single model's), 1 or 0 per item, over the items
    /// both have a result for, with a 95 % interval. `None` for the best single model itself,
    /// without a single model, or with fewer than two shared items.
    #[serde(serialize_with = "optional_estimate")]
    pub vs_best_single: Option<Estimate>,
}

/// Every contender's row, in the order the contenders were given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub rows: Vec<Row>,
    /// The single-model contender with the best accuracy (the earlier one on a tie).
    pub best_single: Option<String>,
    /// Distinct items with at least one result.
    pub items: usize,
}

/// Summarises `results` for `contenders`. A contender's later result for an item replaces an
/// earlier one; results of contenders not listed are left out.
pub fn summarize(results: &[ItemResult], contenders: &[Contender]) -> Summary {
    let mut by_contender: BTreeMap<&str, BTreeMap<&str, &ItemResult>> = BTreeMap::new();
    for result in results {
        if contenders.iter().any(|c| c.name == result.contender) {
            by_contender
                .entry(&result.contender)
                .or_default()
                .insert(&result.item, result);
        }
    }
    let empty = BTreeMap::new();
    let per_item = |name: &str| by_contender.get(name).unwrap_or(&empty);
    let mut rows: Vec<Row> = contenders
        .iter()
        .map(|contender| row(contender, per_item(&contender.name)))
        .collect();
    let best_single = rows
        .iter()
        .filter(|row| row.kind == ContenderKind::SingleModel)
        .filter_map(|row| Some((row.accuracy?.value, row.contender.clone())))
        .fold(None, |best: Option<(f64, String)>, candidate| match best {
            Some(best) if best.0 >= candidate.0 => Some(best),
            _ => Some(candidate),
        })
        .map(|(_, name)| name);
    if let Some(best) = &best_single {
        let best_items = per_item(best);
        for row in rows.iter_mut().filter(|row| &row.contender != best) {
            row.vs_best_single = paired_against(per_item(&row.contender), best_items);
        }
    }
    let items: BTreeSet<&str> = by_contender
        .values()
        .flat_map(|map| map.keys().copied())
        .collect();
    Summary {
        rows,
        best_single,
        items: items.len(),
    }
}

fn row(contender: &Contender, results: &BTreeMap<&str, &ItemResult>) -> Row {
    let items = results.len();
    let correct = results.values().filter(|result| result.correct).count();
    let mean = |value: fn(&ItemResult) -> f64| {
        (items > 0)
            .then(|| results.values().map(|result| value(result)).sum::<f64>() / items as f64)
    };
    let latencies: Vec<f64> = results
        .values()
        .filter(|result| result.answer.is_some())
        .map(|result| result.latency_ms as f64)
        .collect();
    Row {
        contender: contender.name.clone(),
        kind: contender.kind,
        items,
        correct,
        failed: results
            .values()
            .filter(|result| result.answer.is_none())
            .count(),
        accuracy: wilson(correct as u64, items as u64),
        cost_per_item: mean(|result| result.cost_usd),
        tokens_per_item: mean(|result| (result.input_tokens + result.output_tokens) as f64),
        latency_p50_ms: percentile(&latencies, 50.0),
        latency_p95_ms: percentile(&latencies, 95.0),
        vs_best_single: None,
    }
}

fn paired_against(
    results: &BTreeMap<&str, &ItemResult>,
    best: &BTreeMap<&str, &ItemResult>,
) -> Option<Estimate> {
    let score = |result: &ItemResult| if result.correct { 1.0 } else { 0.0 };
    let (mine, theirs): (Vec<f64>, Vec<f64>) = results
        .iter()
        .filter_map(|(item, result)| Some((score(result), score(best.get(item)?))))
        .unzip();
    paired_difference(&mine, &theirs)
}

/// An interval as `{"value", "low", "high"}`, or `null`.
fn optional_estimate<S: Serializer>(
    estimate: &Option<Estimate>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Interval {
        value: f64,
        low: f64,
        high: f64,
    }
    estimate
        .map(|estimate| Interval {
            value: estimate.value,
            low: estimate.low,
            high: estimate.high,
        })
        .serialize(serializer)
}

#[cfg(test)]
#[path = "summary_tests.rs"]
pub(crate) mod tests;
