//! The summary on a hand-checked example: four contenders over ten items.

use super::*;

/// A result of `contender` on item `item` (1-based) costing `cost` and taking `latency` ms.
pub(crate) fn result(
    contender: &str,
    kind: ContenderKind,
    item: usize,
    correct: bool,
    cost: f64,
    latency: u64,
) -> ItemResult {
    ItemResult {
        contender: contender.into(),
        kind,
        item: item.to_string(),
        answer: Some(if correct { "right" } else { "wrong" }.into()),
        extracted: None,
        correct,
        input_tokens: 100,
        output_tokens: 50,
        cost_usd: cost,
        latency_ms: latency,
        log_dir: None,
        error: None,
    }
}

pub(crate) fn contender(name: &str, kind: ContenderKind) -> Contender {
    Contender {
        name: name.into(),
        kind,
    }
}

/// council: right on all but item 8 (9/10); m1 alone: right on items 1–8 (8/10); m2 alone:
/// right on 1–3, 9, 10 (5/10, item 4 failed); m1 ×5: items 1–5 only, wrong on 3 (4/5).
pub(crate) fn example() -> (Vec<ItemResult>, Vec<Contender>) {
    use ContenderKind::{SelfConsistency, SingleModel, Strategy};
    let mut results = Vec::new();
    // An earlier result for item 8 that a rerun replaced.
    results.push(result("council", Strategy, 8, true, 0.5, 1));
    for item in 1..=10 {
        let latency = 1000 * item as u64;
        results.push(result("council", Strategy, item, item != 8, 0.01, latency));
        results.push(result("m1 alone", SingleModel, item, item <= 8, 0.002, 500));
        let m2_right = [1, 2, 3, 9, 10].contains(&item);
        let mut m2 = result(
            "m2 alone",
            SingleModel,
            item,
            m2_right,
            0.001,
            100 * item as u64,
        );
        if item == 4 {
            m2.answer = None;
            m2.error = Some("timed out".into());
            m2.latency_ms = 60_000;
        }
        results.push(m2);
        if item <= 5 {
            results.push(result(
                "m1 ×5 majority",
                SelfConsistency,
                item,
                item != 3,
                0.01,
                900,
            ));
        }
        results.push(result("not listed", Strategy, 99, true, 9.0, 1));
    }
    let contenders = vec![
        contender("council", Strategy),
        contender("m1 alone", SingleModel),
        contender("m2 alone", SingleModel),
        contender("m1 ×5 majority", SelfConsistency),
        contender("never ran", Strategy),
    ];
    (results, contenders)
}

fn close(actual: f64, expected: f64) -> bool {
    (actual - expected).abs() < 1e-4
}

fn assert_estimate(estimate: Option<Estimate>, value: f64, low: f64, high: f64) {
    let estimate = estimate.unwrap();
    assert!(
        close(estimate.value, value) && close(estimate.low, low) && close(estimate.high, high),
        "{estimate:?} is not {value} [{low}, {high}]"
    );
}

#[test]
fn rows_follow_the_contenders_with_wilson_intervals_and_costs() {
    let (results, contenders) = example();
    let summary = summarize(&results, &contenders);
    let names: Vec<&str> = summary
        .rows
        .iter()
        .map(|row| row.contender.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "council",
            "m1 alone",
            "m2 alone",
            "m1 ×5 majority",
            "never ran"
        ]
    );
    assert_eq!(summary.items, 10);
    assert_eq!(summary.best_single.as_deref(), Some("m1 alone"));

    let council = &summary.rows[0];
    assert_eq!((council.items, council.correct, council.failed), (10, 9, 0));
    // Published Wilson 95 % intervals: 9/10 0.5958–0.9821, 8/10 0.4902–0.9433,
    // 5/10 0.2366–0.7634, 4/5 0.3755–0.9638.
    assert_estimate(council.accuracy, 0.9, 0.5958, 0.9821);
    assert!(
        close(council.cost_per_item.unwrap(), 0.01),
        "the rerun's result replaced the first"
    );
    assert_eq!(council.tokens_per_item, Some(150.0));
    assert_eq!(council.latency_p50_ms, Some(5000.0));
    assert_eq!(council.latency_p95_ms, Some(10_000.0));

    let m1 = &summary.rows[1];
    assert_estimate(m1.accuracy, 0.8, 0.4902, 0.9433);
    assert_eq!(m1.vs_best_single, None);

    let m2 = &summary.rows[2];
    assert_eq!((m2.items, m2.correct, m2.failed), (10, 5, 1));
    assert_estimate(m2.accuracy, 0.5, 0.2366, 0.7634);
    assert_eq!(
        m2.latency_p95_ms,
        Some(1000.0),
        "the failed run's latency is left out"
    );

    let majority = &summary.rows[3];
    assert_estimate(majority.accuracy, 0.8, 0.3755, 0.9638);

    let never = &summary.rows[4];
    assert_eq!(
        (never.items, never.accuracy, never.cost_per_item),
        (0, None, None)
    );
    assert_eq!((never.latency_p50_ms, never.vs_best_single), (None, None));
}

#[test]
fn differences_are_paired_against_the_best_single_model_on_shared_items() {
    let (results, contenders) = example();
    let summary = summarize(&results, &contenders);
    // council − m1 per item: 0 ×7, −1 (item 8), +1 (items 9, 10): mean 0.1, sd 0.5676.
    assert_estimate(summary.rows[0].vs_best_single, 0.1, -0.251824, 0.451824);
    // m2 − m1: 0 ×3, −1 ×5, +1 ×2.
    assert_estimate(summary.rows[2].vs_best_single, -0.3, -0.81026, 0.21026);
    // The majority ran items 1–5 only: 0, 0, −1, 0, 0.
    assert_estimate(summary.rows[3].vs_best_single, -0.2, -0.591993, 0.191993);
}

#[test]
fn without_a_single_model_there_is_no_difference_and_ties_keep_the_first() {
    let (results, contenders) = example();
    let strategies_only: Vec<Contender> = contenders
        .iter()
        .filter(|c| c.kind != ContenderKind::SingleModel)
        .cloned()
        .collect();
    let summary = summarize(&results, &strategies_only);
    assert_eq!(summary.best_single, None);
    assert!(summary.rows.iter().all(|row| row.vs_best_single.is_none()));
    assert_eq!(summary.items, 10);

    let tied = vec![
        result("b", ContenderKind::SingleModel, 1, true, 0.0, 1),
        result("a", ContenderKind::SingleModel, 1, true, 0.0, 1),
    ];
    let order = [
        contender("b", ContenderKind::SingleModel),
        contender("a", ContenderKind::SingleModel),
    ];
    assert_eq!(summarize(&tied, &order).best_single.as_deref(), Some("b"));
    assert_eq!(summarize(&[], &order).best_single, None);
}

#[test]
fn the_summary_serialises_intervals_as_objects() {
    let (results, contenders) = example();
    let json = serde_json::to_value(summarize(&results, &contenders)).unwrap();
    assert_eq!(json["best_single"], "m1 alone");
    assert_eq!(json["rows"][0]["kind"], "strategy");
    assert_eq!(json["rows"][0]["accuracy"]["value"], 0.9);
    assert!(json["rows"][1]["vs_best_single"].is_null());
    assert!(json["rows"][4]["accuracy"].is_null());
}
