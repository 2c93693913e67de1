//! `massgen logs list`: the newest runs, one line each — when, how many turns, how long,
//! what it cost, how the last turn ended and its question.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::find::{self, name_of};
use super::summary::{TurnFacts, metrics, outcome_name, total_cost, turn_facts};
use super::{cost, duration, json_text};
use crate::sanitize::sanitize_for_terminal as clean;
use crate::session::path_json;

/// One run, as JSON; a run whose files massgen will not read says why in `unreadable`.
fn run_json(run: &Path) -> Value {
    let mut turns = 0;
    let mut duration_ms = 0;
    let mut spent = Some(0.0);
    let mut last = None;
    let mut unreadable = None;
    for turn in find::turns(run) {
        let Some(attempt) = find::last_attempt(&turn) else {
            continue;
        };
        turns += 1;
        let read = turn_facts(&attempt).and_then(|facts| Ok((facts, metrics(&attempt)?)));
        let (facts, metrics) = match read {
            Ok(read) => read,
            Err(error) => {
                unreadable = Some(error.lines().next().unwrap_or_default().to_string());
                (TurnFacts::default(), Value::Null)
            }
        };
        duration_ms += facts.duration_ms.unwrap_or(0);
        spent = spent.zip(total_cost(&metrics)).map(|(a, b)| a + b);
        last = Some(facts);
    }
    let last = last.unwrap_or_default();
    json!({
        "log_dir": path_json(run),
        "started": started(&name_of(run)),
        "turns": turns,
        "duration_ms": duration_ms,
        "estimated_cost": spent,
        "cost_unknown": spent.is_none(),
        "last_outcome": outcome_name(last.outcome),
        "last_question": last.question,
        "unreadable": unreadable,
    })
}

/// `log_20261125_031844_785864` → `2026-11-25 03:18:44`.
fn started(name: &str) -> String {
    let stamp = name.trim_start_matches("log_");
    let mut parts = stamp.split('_');
    match (parts.next(), parts.next()) {
        (Some(date), Some(time))
            if date.len() == 8 && time.len() == 6 && digits(date) && digits(time) =>
        {
            format!(
                "{}-{}-{} {}:{}:{}",
                &date[..4],
                &date[4..6],
                &date[6..],
                &time[..2],
                &time[2..4],
                &time[4..]
            )
        }
        _ => name.to_string(),
    }
}

fn digits(text: &str) -> bool {
    text.bytes().all(|byte| byte.is_ascii_digit())
}

pub fn run(root: &Path, limit: usize, as_json: bool) -> Result<String, String> {
    let mut out = String::new();
    let runs: Vec<Value> = find::runs(root)
        .iter()
        .take(limit)
        .map(|run| run_json(run))
        .collect();
    if as_json {
        return json_text(&Value::Array(runs));
    }
    if runs.is_empty() {
        let _ = writeln!(out, "No runs logged in {} yet.", root.display());
        return Ok(out);
    }
    for run in &runs {
        let question = run["last_question"].as_str().unwrap_or("-");
        let question: String = clean(question).chars().take(60).collect();
        let _ = writeln!(
            out,
            "{}  {}  {:>9}  {:>12}  {:<10}  {}",
            run["started"].as_str().unwrap_or("-"),
            crate::text::plural(
                usize::try_from(run["turns"].as_u64().unwrap_or(0)).unwrap_or(usize::MAX),
                "turn"
            ),
            duration(run["duration_ms"].as_u64().unwrap_or(0)),
            cost(run["estimated_cost"].as_f64()),
            run["last_outcome"].as_str().unwrap_or("-"),
            question.replace('\n', " ")
        );
        if let Some(unreadable) = run["unreadable"].as_str() {
            let _ = writeln!(out, "  note: not read: {}", clean(unreadable));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_names_read_as_times() {
        assert_eq!(started("log_20261125_031844_785864"), "2026-11-25 03:18:44");
        assert_eq!(started("log_odd"), "log_odd");
        // A name that is not UTF-8, read lossily: U+FFFD is three bytes.
        let lossy = "log_\u{fffd}\u{fffd}ab_123456";
        assert_eq!(started(lossy), lossy);
    }
}
