//! The eval summary written out: a Markdown table, JSON, and a self-contained SVG chart of
//! accuracy (with its 95 % interval) against cost per item.

use std::fmt::Write;

use serde_json::Value;

use crate::eval::record::ContenderKind;
use crate::eval::summary::{Row, Summary};
use crate::stats::Estimate;

/// The summary as a Markdown table, one row per contender in order.
pub fn markdown(summary: &Summary) -> String {
    let mut text = format!(
        "{} items · best single model: {}\n\n",
        summary.items,
        summary.best_single.as_deref().unwrap_or("none")
    );
    text.push_str(
        "| Contender | Kind | Items | Accuracy [95 % CI] | Δ vs best single [95 % CI] \
         | Cost/item | Tokens/item | p50 latency | p95 latency |\n\
         |:--|:--|--:|:--|:--|--:|--:|--:|--:|\n",
    );
    for row in &summary.rows {
        let is_best = summary.best_single.as_deref() == Some(row.contender.as_str());
        let mut cells = cells(row, is_best);
        cells[0] = cells[0].replace('|', "\\|");
        let _ = writeln!(text, "| {} |", cells.join(" | "));
    }
    text
}

/// The summary as JSON: `{rows: [...], best_single, items}`, intervals as
/// `{value, low, high}` (proportions 0–1) or `null`.
pub fn json(summary: &Summary) -> Value {
    serde_json::to_value(summary).unwrap_or_default()
}

pub fn kind_text(kind: ContenderKind) -> &'static str {
    match kind {
        ContenderKind::Strategy => "strategy",
        ContenderKind::SingleModel => "single model",
        ContenderKind::SelfConsistency => "self-consistency",
    }
}

/// "82.5 % [68.0–91.3]".
pub fn accuracy_text(accuracy: Estimate) -> String {
    format!(
        "{:.1} % [{:.1}–{:.1}]",
        accuracy.value * 100.0,
        accuracy.low * 100.0,
        accuracy.high * 100.0
    )
}

/// "+7.5 pp [−2.1–17.1]" (percentage points).
pub fn difference_text(difference: Estimate) -> String {
    let signed = |value: f64| {
        let points = value * 100.0;
        let text = format!("{:.1}", points.abs());
        match () {
            _ if text == "0.0" => text,
            _ if points < 0.0 => format!("−{text}"),
            _ => text,
        }
    };
    let value = signed(difference.value);
    let sign = if value.starts_with('−') || value == "0.0" {
        ""
    } else {
        "+"
    };
    format!(
        "{sign}{value} pp [{}–{}]",
        signed(difference.low),
        signed(difference.high)
    )
}

/// Dollars with three significant digits, at least two decimals: "$0.0123", "$1.50".
pub fn cost_text(cost: f64) -> String {
    if cost <= 0.0 {
        return "$0".into();
    }
    let decimals = (2 - cost.log10().floor() as i32).clamp(2, 8) as usize;
    format!("${cost:.decimals$}")
}

/// "850 ms", "1.2 s".
pub fn latency_text(milliseconds: f64) -> String {
    if milliseconds < 1000.0 {
        format!("{milliseconds:.0} ms")
    } else {
        format!("{:.1} s", milliseconds / 1000.0)
    }
}

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 560.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 380.0;

fn kind_colour(kind: ContenderKind) -> &'static str {
    match kind {
        ContenderKind::Strategy => "#1f77b4",
        ContenderKind::SingleModel => "#ff7f0e",
        ContenderKind::SelfConsistency => "#2ca02c",
    }
}

/// A self-contained SVG scatter: accuracy (y, 0–100 %, whiskers for the 95 % interval)
/// against cost per item (x, from $0), one labelled point per contender with results.
pub fn svg(summary: &Summary) -> String {
    let points: Vec<(&Row, Estimate, f64)> = summary
        .rows
        .iter()
        .filter_map(|row| Some((row, row.accuracy?, row.cost_per_item?)))
        .collect();
    let most = points.iter().map(|(_, _, cost)| *cost).fold(0.0, f64::max);
    // Headroom so the costliest point's label stays inside the plot.
    let (step, top_cost) = cost_ticks(most * 1.05);
    let x = |cost: f64| LEFT + (RIGHT - LEFT) * cost / top_cost;
    let y = |accuracy: f64| BOTTOM - (BOTTOM - TOP) * accuracy;

    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>\n\
         <text x=\"{LEFT}\" y=\"28\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
        escape(&format!(
            "Accuracy against cost per item · {} items",
            summary.items
        ))
    );
    for tick in 0..=5 {
        let accuracy = f64::from(tick) / 5.0;
        let at = y(accuracy);
        let _ = writeln!(
            out,
            "<line x1=\"{LEFT}\" y1=\"{at:.1}\" x2=\"{RIGHT}\" y2=\"{at:.1}\" stroke=\"#e5e5e5\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{:.0} %</text>",
            LEFT - 8.0,
            at + 4.0,
            accuracy * 100.0
        );
    }
    let ticks = (top_cost / step).round() as usize;
    for tick in 0..=ticks {
        let cost = step * tick as f64;
        let at = x(cost);
        let _ = writeln!(
            out,
            "<line x1=\"{at:.1}\" y1=\"{BOTTOM}\" x2=\"{at:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>\
             <text x=\"{at:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            BOTTOM + 5.0,
            BOTTOM + 20.0,
            tick_text(cost, step)
        );
    }
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{BOTTOM}\" x2=\"{RIGHT}\" y2=\"{BOTTOM}\" stroke=\"#333\"/>\n\
         <line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{BOTTOM}\" stroke=\"#333\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">Cost per item (USD)</text>\n\
         <text x=\"20\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 20 {:.1})\">\
         Accuracy (95 % interval)</text>",
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 45.0,
        (TOP + BOTTOM) / 2.0,
        (TOP + BOTTOM) / 2.0
    );
    if points.is_empty() {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No results yet</text>",
            (LEFT + RIGHT) / 2.0,
            (TOP + BOTTOM) / 2.0
        );
    }
    for (row, accuracy, cost) in &points {
        let (px, colour) = (x(*cost), kind_colour(row.kind));
        let (low, high, py) = (y(accuracy.low), y(accuracy.high), y(accuracy.value));
        let _ = writeln!(
            out,
            "<g><title>{title}</title>\
             <line x1=\"{px:.1}\" y1=\"{low:.1}\" x2=\"{px:.1}\" y2=\"{high:.1}\" stroke=\"{colour}\"/>\
             <line x1=\"{:.1}\" y1=\"{low:.1}\" x2=\"{:.1}\" y2=\"{low:.1}\" stroke=\"{colour}\"/>\
             <line x1=\"{:.1}\" y1=\"{high:.1}\" x2=\"{:.1}\" y2=\"{high:.1}\" stroke=\"{colour}\"/>\
             <circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"5\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{label}</text></g>",
            px - 4.0,
            px + 4.0,
            px - 4.0,
            px + 4.0,
            px + 8.0,
            py - 6.0,
            title = escape(&format!(
                "{}: {}, {} per item",
                row.contender,
                accuracy_text(*accuracy),
                cost_text(*cost)
            )),
            label = escape(&row.contender),
        );
    }
    let kinds = [
        ContenderKind::Strategy,
        ContenderKind::SingleModel,
        ContenderKind::SelfConsistency,
    ];
    for (index, kind) in kinds.into_iter().enumerate() {
        let at = TOP + 20.0 * index as f64;
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{at:.1}\" r=\"5\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            RIGHT + 120.0,
            kind_colour(kind),
            RIGHT + 132.0,
            at + 4.0,
            kind_text(kind)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A tick step of 1, 2 or 5 × 10ⁿ giving about five ticks, and the axis end (a multiple of
/// it at or above `most`). An all-free run gets an axis to $0.01.
fn cost_ticks(most: f64) -> (f64, f64) {
    let most = if most > 0.0 { most } else { 0.01 };
    let raw = most / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|factor| factor * magnitude)
        .find(|step| *step >= raw)
        .unwrap_or(10.0 * magnitude);
    (step, (most / step - 1e-9).ceil().max(1.0) * step)
}

/// "$0.002" for a tick on an axis stepping by `step`: as many decimals as the step needs.
fn tick_text(cost: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    format!("${cost:.decimals$}")
}

/// Text safe inside SVG elements and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// A row's cells in the table's column order, as summary.md and the eval screen show them.
pub fn cells(row: &Row, best: bool) -> [String; 9] {
    let versus = match row.vs_best_single {
        _ if best => "best single".to_string(),
        Some(difference) => difference_text(difference),
        None => "—".to_string(),
    };
    let items = match row.failed {
        0 => row.items.to_string(),
        failed => format!("{} ({failed} failed)", row.items),
    };
    [
        row.contender.clone(),
        kind_text(row.kind).to_string(),
        items,
        row.accuracy.map_or("—".into(), accuracy_text),
        versus,
        row.cost_per_item.map_or("—".into(), cost_text),
        row.tokens_per_item
            .map_or("—".into(), |tokens| format!("{tokens:.0}")),
        row.latency_p50_ms.map_or("—".into(), latency_text),
        row.latency_p95_ms.map_or("—".into(), latency_text),
    ]
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
