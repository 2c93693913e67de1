//! Checklist-gated voting's verdict, computed as MassGen 0.1.97 computes it: the gate's
//! required count and per-criterion cutoff from `voting_threshold` and the answer budget,
//! then the scores of a `submit_checklist` call checked and judged.
//!
//! Pure: the caller says how many answers the agent has and which labels it has seen.

use serde_json::{Map, Value, json};

use crate::protocol::{ChecklistResult, ChecklistVerdict, CriterionScore};

/// MassGen's answer budget when `max_new_answers_per_agent` is unset.
const DEFAULT_ANSWER_BUDGET: u32 = 5;

/// How many criteria must pass, and the score (0–10) at which one passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gate {
    pub required: u32,
    pub cutoff: i64,
}

impl Gate {
    /// MassGen's `ChecklistGate.from_budget`: the threshold rises as the agent's remaining
    /// answers run low, and a higher threshold asks fewer criteria to pass at a lower score.
    pub fn from_budget(
        voting_threshold: u32,
        max_answers: Option<u32>,
        answers_used: usize,
        criteria: usize,
    ) -> Self {
        let total = max_answers
            .filter(|max| *max > 0)
            .unwrap_or(DEFAULT_ANSWER_BUDGET);
        let used = u32::try_from(answers_used).unwrap_or(u32::MAX);
        let remaining = total.saturating_sub(used);
        let effective = effective_threshold(i64::from(voting_threshold), remaining, total);
        // int(10 - effective * 0.5), never below 4.
        let cutoff = (10.0 - effective as f64 * 0.5).trunc() as i64;
        Self {
            required: required_passes(effective, criteria),
            cutoff: cutoff.max(4),
        }
    }
}

fn effective_threshold(threshold: i64, remaining: u32, total: u32) -> i64 {
    let mut effective = threshold;
    if total > 0 {
        let ratio = f64::from(remaining) / f64::from(total);
        if remaining <= 2 {
            effective += 2;
        } else if ratio <= 0.4 {
            effective += 1;
        }
        if ratio >= 0.7 {
            effective -= 1;
        }
    }
    effective.clamp(0, 10)
}

/// Every criterion at threshold 0, relaxing linearly to a simple majority at 10 (Python's
/// round, ties to even, as MassGen rounds).
fn required_passes(effective: i64, criteria: usize) -> u32 {
    let criteria = u32::try_from(criteria).unwrap_or(u32::MAX);
    let floor = criteria.div_ceil(2).max(1);
    let span = criteria.saturating_sub(floor);
    let relaxation = (f64::from(span) * effective.clamp(0, 10) as f64 / 10.0).round_ties_even();
    criteria.saturating_sub(relaxation as u32).max(floor)
}

/// What one submission is judged against.
#[derive(Clone, Debug, PartialEq)]
pub struct Submission<'a> {
    pub criteria: usize,
    pub gate: Gate,
    /// The agent has an answer of its own (else its first checklist only says to answer).
    pub has_own_answer: bool,
    /// The latest answer labels the agent has seen (`agent1.2`), which per-agent scores
    /// must cover.
    pub labels: &'a [String],
}

/// A submission the gate cannot judge; the agent fixes it and calls again.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub code: &'static str,
    pub explanation: String,
}

impl Invalid {
    fn new(code: &'static str, explanation: String) -> Self {
        Self { code, explanation }
    }

    /// MassGen's validation-error payload.
    pub fn to_json(&self, required: u32) -> Value {
        json!({
            "status": "validation_error",
            "requires_resubmission": true,
            "error_code": self.code,
            "explanation": self.explanation,
            "true_count": 0,
            "required": required,
            "items": [],
            "failed_criteria": [],
        })
    }
}

/// MassGen's accepted payload for `result`.
pub fn accepted_json(result: &ChecklistResult) -> Value {
    let mut payload = json!({
        "status": "accepted",
        "verdict": result.verdict.action(),
        "explanation": result.explanation,
        "true_count": result.passed,
        "required": result.required,
        "items": result.scores.iter().map(|item| json!({
            "id": item.id, "score": item.score, "passed": item.passed,
        })).collect::<Vec<_>>(),
        "failed_criteria": result.scores.iter().filter(|item| !item.passed)
            .map(|item| item.id.clone()).collect::<Vec<_>>(),
    });
    if let Some(best) = &result.best_answer {
        payload["best_agent"] = Value::from(best.as_str());
    }
    payload
}

/// A score as MassGen reads it: a number or `{"score": n}`, truncated to an integer; a
/// missing or non-numeric one (or a boolean) is 0.
fn score_of(entry: Option<&Value>) -> i64 {
    let value = match entry {
        Some(Value::Object(fields)) => fields.get("score"),
        other => other,
    };
    match value {
        Some(Value::Number(number)) => number
            .as_i64()
            .or_else(|| number.as_f64().map(|float| float.trunc() as i64))
            .unwrap_or(0),
        _ => 0,
    }
}

fn criterion_id(index: usize) -> String {
    format!("E{}", index + 1)
}

/// A criterion's entry under its `E` id, or its legacy `T` id.
fn entry(scores: &Map<String, Value>, index: usize) -> Option<&Value> {
    scores
        .get(&criterion_id(index))
        .or_else(|| scores.get(&format!("T{}", index + 1)))
}

fn missing_criteria(scores: &Map<String, Value>, criteria: usize) -> Vec<String> {
    (0..criteria)
        .filter(|index| entry(scores, *index).is_none())
        .map(criterion_id)
        .collect()
}

/// Keyed by answer label rather than by criterion id.
fn is_per_agent(scores: &Map<String, Value>) -> bool {
    !scores.is_empty()
        && !scores
            .keys()
            .any(|key| key.starts_with('E') || key.starts_with('T'))
}

/// Judges `scores` (the `scores` argument of `submit_checklist`).
pub fn judge(scores: &Value, submission: &Submission<'_>) -> Result<ChecklistResult, Invalid> {
    let Value::Object(scores) = scores else {
        return Err(Invalid::new(
            "scores_type_invalid",
            "Invalid `scores`: expected a JSON object.".into(),
        ));
    };
    let criteria = submission.criteria;
    let checked = submission.has_own_answer;
    let labels = submission.labels;
    let mut best_answer = None;
    let flat: &Map<String, Value> = if is_per_agent(scores) {
        let incomplete: Vec<String> = scores
            .iter()
            .filter_map(|(label, entries)| Some((label, entries.as_object()?)))
            .filter_map(|(label, entries)| {
                let missing = missing_criteria(entries, criteria);
                (!missing.is_empty()).then(|| format!("{label}: missing {}", missing.join(", ")))
            })
            .collect();
        if checked && !incomplete.is_empty() {
            return Err(Invalid::new(
                "incomplete_agent_criteria",
                format!(
                    "Incomplete per-agent submission: {}. You must score ALL {criteria} criteria \
                     for EVERY agent. Resubmit with complete scores.",
                    incomplete.join("; ")
                ),
            ));
        }
        let mut missing: Vec<&str> = labels
            .iter()
            .map(String::as_str)
            .filter(|label| !scores.contains_key(*label))
            .collect();
        missing.sort_unstable();
        if checked && !missing.is_empty() {
            let mut all: Vec<&str> = labels.iter().map(String::as_str).collect();
            all.sort_unstable();
            return Err(Invalid::new(
                "missing_agent_scores",
                format!(
                    "Missing scores for available agents: {}. You must score ALL agents you have \
                     context for: {}. Resubmit with per-agent scores covering every agent.",
                    missing.join(", "),
                    all.join(", ")
                ),
            ));
        }
        let Some((label, entries)) = strongest(scores, criteria) else {
            return Err(Invalid::new(
                "scores_type_invalid",
                "Invalid `scores`: each agent's scores must be a JSON object.".into(),
            ));
        };
        best_answer = Some(label.to_string());
        entries
    } else {
        if labels.len() >= 2 && checked {
            let mut all: Vec<&str> = labels.iter().map(String::as_str).collect();
            all.sort_unstable();
            return Err(Invalid::new(
                "flat_scores_disallowed",
                format!(
                    "You submitted flat scores but you have {} agents available ({}). Use \
                     per-agent format to score ALL available agents: {{\"{}\": {{\"E1\": \
                     {{\"score\": N, \"reasoning\": \"...\"}}, ...}}, \"{}\": {{...}}}}.",
                    labels.len(),
                    all.join(", "),
                    labels[0],
                    labels[1]
                ),
            ));
        }
        scores
    };
    let missing = missing_criteria(flat, criteria);
    if checked && !missing.is_empty() {
        return Err(Invalid::new(
            "missing_criteria_scores",
            format!(
                "Incomplete submission: missing scores for {}. You must score ALL {criteria} \
                 criteria (E1-E{criteria}). Resubmit with scores for every criterion.",
                missing.join(", ")
            ),
        ));
    }
    Ok(verdict(flat, submission, best_answer))
}

/// The label whose scores add up highest; ties go to the smallest label.
fn strongest(scores: &Map<String, Value>, criteria: usize) -> Option<(&str, &Map<String, Value>)> {
    let total = |entries: &Map<String, Value>| -> i64 {
        (0..criteria)
            .map(|index| score_of(entry(entries, index)))
            .sum()
    };
    scores
        .iter()
        .filter_map(|(label, entries)| Some((label.as_str(), entries.as_object()?)))
        .max_by(|(left, left_scores), (right, right_scores)| {
            total(left_scores)
                .cmp(&total(right_scores))
                .then_with(|| right.cmp(left))
        })
}

fn verdict(
    scores: &Map<String, Value>,
    submission: &Submission<'_>,
    best_answer: Option<String>,
) -> ChecklistResult {
    let gate = submission.gate;
    let items: Vec<CriterionScore> = (0..submission.criteria)
        .map(|index| {
            let score = score_of(entry(scores, index));
            CriterionScore {
                id: criterion_id(index),
                score,
                passed: score >= gate.cutoff,
            }
        })
        .collect();
    let passed = items.iter().filter(|item| item.passed).count() as u32;
    let total = items.len();
    let required = gate.required;
    let (verdict, explanation) = if !submission.has_own_answer {
        (
            ChecklistVerdict::NewAnswer,
            "First answer — no existing answers to evaluate. Verdict: new_answer.".to_string(),
        )
    } else if passed >= required {
        (
            ChecklistVerdict::Vote,
            format!("{passed} of {total} items passed (required: {required}). Verdict: vote."),
        )
    } else {
        let failed: Vec<&str> = items
            .iter()
            .filter(|item| !item.passed)
            .map(|item| item.id.as_str())
            .collect();
        (
            ChecklistVerdict::NewAnswer,
            format!(
                "{passed} of {total} items passed (required: {required}). Verdict: new_answer. \
                 Items that need improvement: {}. NEXT STEP: Call `draft_approach` to plan \
                 what to build for each failing criterion. This is required before \
                 implementing. Then implement your plan and call `new_answer`.",
                failed.join(", ")
            ),
        )
    };
    ChecklistResult {
        verdict,
        passed,
        required,
        scores: items,
        best_answer,
        explanation,
    }
}

#[cfg(test)]
#[path = "checklist_tests.rs"]
mod tests;
