//! `massgen logs tools`: calls, failures and time per tool in one run, from the
//! `tools.by_tool` table of its `metrics_summary.json`.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::summary::metrics;
use super::{ToolOrder, duration, json_text};

/// One row per tool, in `order`.
fn rows(metrics: &Value, order: ToolOrder) -> Vec<Value> {
    let number = |value: &Value| value.as_u64().unwrap_or(0);
    let mut rows: Vec<Value> = metrics["tools"]["by_tool"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, tool)| {
            let calls = number(&tool["call_count"]);
            let time_ms = number(&tool["total_execution_time_ms"]);
            json!({
                "name": name,
                "calls": calls,
                "failures": number(&tool["failure_count"]),
                "time_ms": time_ms,
                "avg_ms": time_ms.checked_div(calls).unwrap_or(0),
            })
        })
        .collect();
    let key = match order {
        ToolOrder::Time => "time_ms",
        ToolOrder::Calls => "calls",
    };
    rows.sort_by(|a, b| {
        number(&b[key])
            .cmp(&number(&a[key]))
            .then_with(|| a["name"].as_str().cmp(&b["name"].as_str()))
    });
    rows
}

pub fn run(attempt: &Path, order: ToolOrder, as_json: bool) -> Result<String, String> {
    let mut out = String::new();
    let rows = rows(&metrics(attempt)?, order);
    if as_json {
        return json_text(&Value::Array(rows));
    }
    if rows.is_empty() {
        let _ = writeln!(out, "No tool was called in {}.", attempt.display());
        return Ok(out);
    }
    let number = |value: &Value| value.as_u64().unwrap_or(0);
    let _ = writeln!(
        out,
        "{:<44} {:>6} {:>9} {:>9} {:>5}",
        "tool", "calls", "time", "average", "fail"
    );
    let (mut calls, mut time, mut failures) = (0, 0, 0);
    for row in &rows {
        calls += number(&row["calls"]);
        time += number(&row["time_ms"]);
        failures += number(&row["failures"]);
        let _ = writeln!(
            out,
            "{:<44} {:>6} {:>9} {:>9} {:>5}",
            row["name"].as_str().unwrap_or("-"),
            number(&row["calls"]),
            duration(number(&row["time_ms"])),
            duration(number(&row["avg_ms"])),
            number(&row["failures"])
        );
    }
    let _ = writeln!(
        out,
        "{:<44} {calls:>6} {:>9} {:>9} {failures:>5}",
        "total",
        duration(time),
        ""
    );
    let _ = writeln!(out, "Log: {}", attempt.display());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_sort_by_time_or_calls() {
        let metrics = json!({"tools": {"by_tool": {
            "slow": {"call_count": 1, "failure_count": 0, "total_execution_time_ms": 900},
            "busy": {"call_count": 5, "failure_count": 2, "total_execution_time_ms": 100},
        }}});
        let names = |order| -> Vec<String> {
            rows(&metrics, order)
                .iter()
                .map(|row| row["name"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(names(ToolOrder::Time), ["slow", "busy"]);
        assert_eq!(names(ToolOrder::Calls), ["busy", "slow"]);
        assert_eq!(rows(&metrics, ToolOrder::Calls)[0]["avg_ms"], 20);
    }
}
