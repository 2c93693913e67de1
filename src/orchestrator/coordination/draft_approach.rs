//! `draft_approach`, judged as MassGen 0.1.97 judges it: after a `new_answer` verdict the
//! agent plans what it will build for every failing criterion (with the answers it draws
//! from and how bold each change is) and what it keeps. Arguments in, an accepted approach
//! or MassGen's error payload out. As in MassGen, the gate in front of `new_answer` does not
//! ask for one: the verdict and the prompt do.

use serde_json::{Map, Value, json};

use super::Coordination;
use super::criteria::DEFAULT_CRITERIA;
use crate::protocol::{AgentId, DraftedApproach, Impact, PlannedImprovement, Preserved};

/// What a `draft_approach` call got back.
#[derive(Clone, Debug, PartialEq)]
pub enum ApproachReply {
    Accepted(DraftedApproach),
    /// Not allowed now, or not a complete plan: MassGen's `{"valid": false, …}` payload.
    Rejected(Value),
}

impl ApproachReply {
    /// The tool result, in MassGen's JSON shapes.
    pub fn to_json(&self) -> Value {
        match self {
            Self::Accepted(approach) => accepted_json(approach),
            Self::Rejected(payload) => payload.clone(),
        }
    }
}

impl Coordination {
    /// Judges a `draft_approach` call against the agent's latest checklist this round.
    pub fn draft_approach(&mut self, agent: &AgentId, arguments: &Value) -> ApproachReply {
        let Some(index) = self.index(agent) else {
            return ApproachReply::Rejected(rejected(format!("unknown agent {agent}")));
        };
        let checklist = &self.states[index].checklist;
        if !checklist.gated {
            return ApproachReply::Rejected(rejected(
                "draft_approach is only available under `voting_sensitivity: checklist_gated`."
                    .into(),
            ));
        }
        let criteria = self
            .rules
            .checklist
            .as_ref()
            .map_or(DEFAULT_CRITERIA.len(), |rules| checklist.criteria(rules));
        match checklist.failed_for_approach() {
            Ok(failed) => match evaluate(arguments, failed, criteria) {
                Ok(approach) => ApproachReply::Accepted(approach),
                Err(payload) => ApproachReply::Rejected(payload),
            },
            Err(message) => ApproachReply::Rejected(rejected(message)),
        }
    }
}

/// MassGen's default `improvements.min_non_incremental`: at least one structural or
/// transformative change per round.
const MIN_NON_INCREMENTAL: usize = 1;

fn rejected(error: String) -> Value {
    json!({ "valid": false, "error": error })
}

/// One `plan` entry: a string, or `{plan, sources, impact}`.
fn improvement(criterion: &str, entry: &Value) -> PlannedImprovement {
    let (plan, sources, impact) = match entry {
        Value::Object(fields) => (
            fields.get("plan").map_or_else(String::new, text_of),
            fields
                .get("sources")
                .and_then(Value::as_array)
                .map(|sources| sources.iter().map(text_of).collect())
                .unwrap_or_default(),
            fields
                .get("impact")
                .and_then(Value::as_str)
                .map_or(Impact::Incremental, Impact::from_name),
        ),
        other => (text_of(other), Vec::new(), Impact::Incremental),
    };
    PlannedImprovement {
        criterion: criterion.to_string(),
        plan,
        sources,
        impact,
    }
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A criterion's entries: a list, or one entry on its own.
fn entries(value: &Value) -> Vec<&Value> {
    match value {
        Value::Array(items) => items.iter().collect(),
        Value::Null => Vec::new(),
        other => vec![other],
    }
}

fn is_fresh(improvement: &PlannedImprovement) -> bool {
    !improvement.sources.is_empty()
        && improvement
            .sources
            .iter()
            .all(|source| matches!(source.trim().to_lowercase().as_str(), "fresh" | "new"))
}

/// Judges the arguments of a `draft_approach` call against the failing criteria of the
/// agent's latest checklist (`criteria` is how many there are, `E1`…).
pub fn evaluate(
    arguments: &Value,
    failed: &[String],
    criteria: usize,
) -> Result<DraftedApproach, Value> {
    let plan = arguments
        .get("plan")
        .filter(|plan| !is_empty(plan))
        .or_else(|| arguments.get("improvements"))
        .cloned()
        .unwrap_or_else(|| json!({}));
    let Value::Object(plan) = plan else {
        return Err(rejected(
            "improvements must be a dict mapping criterion IDs to lists".into(),
        ));
    };
    if failed.is_empty() {
        return Err(rejected("No failed criteria to improve".into()));
    }
    coverage(&plan, failed)?;
    let improvements: Vec<PlannedImprovement> = failed
        .iter()
        .flat_map(|id| {
            entries(&plan[id.as_str()])
                .into_iter()
                .map(|entry| improvement(id, entry))
                .collect::<Vec<_>>()
        })
        .collect();
    let all_ids: Vec<String> = (1..=criteria).map(|index| format!("E{index}")).collect();
    let preserve = preserved(arguments.get("preserve"), &all_ids, &plan)?;
    let bold = plan
        .iter()
        .flat_map(|(id, value)| {
            entries(value)
                .into_iter()
                .map(move |entry| improvement(id, entry))
        })
        .filter(|item| item.impact != Impact::Incremental)
        .count();
    if bold < MIN_NON_INCREMENTAL {
        return Err(rejected(format!(
            "Improvement impact requirements not met (non-incremental combined: \
             {bold}/{MIN_NON_INCREMENTAL}). A round at this cost needs bolder changes: mark at \
             least one planned change `structural` or `transformative`, then revise your \
             proposal."
        )));
    }
    let vision = arguments
        .get("vision")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|vision| !vision.is_empty())
        .map(str::to_string);
    Ok(DraftedApproach {
        vision,
        plan: improvements,
        preserve,
    })
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::String(text) => text.is_empty(),
        _ => false,
    }
}

/// Every failing criterion has at least one entry.
fn coverage(plan: &Map<String, Value>, failed: &[String]) -> Result<(), Value> {
    let missing: Vec<&str> = failed
        .iter()
        .filter(|id| !plan.contains_key(id.as_str()))
        .map(String::as_str)
        .collect();
    let empty: Vec<&str> = failed
        .iter()
        .filter(|id| plan.get(id.as_str()).is_some_and(is_empty))
        .map(String::as_str)
        .collect();
    if missing.is_empty() && empty.is_empty() {
        return Ok(());
    }
    let mut issues = Vec::new();
    if !missing.is_empty() {
        issues.push(format!("Missing improvements for: {}", missing.join(", ")));
    }
    if !empty.is_empty() {
        issues.push(format!("Empty improvements for: {}", empty.join(", ")));
    }
    Err(json!({
        "valid": false,
        "error": issues.join("; "),
        "missing_criteria": missing,
        "empty_criteria": empty,
        "failed_criteria": failed,
    }))
}

/// `preserve`: required unless every planned change is fresh; keys must be criteria and
/// each entry must say what it keeps.
fn preserved(
    preserve: Option<&Value>,
    all_ids: &[String],
    plan: &Map<String, Value>,
) -> Result<Vec<Preserved>, Value> {
    let preserve = match preserve {
        Some(Value::Object(entries)) => entries.clone(),
        _ => Map::new(),
    };
    let all_fresh = plan.iter().all(|(id, value)| {
        entries(value)
            .into_iter()
            .all(|entry| is_fresh(&improvement(id, entry)))
    });
    if preserve.is_empty() && !all_fresh {
        return Err(rejected(format!(
            "Preserve is required: specify what to protect from regression. Criteria \
             available: {}",
            all_ids.join(", ")
        )));
    }
    preserve
        .iter()
        .map(|(id, entry)| {
            if !all_ids.contains(id) {
                return Err(rejected(format!(
                    "Preserve key {id} is not a valid criterion ID. Valid: {}",
                    all_ids.join(", ")
                )));
            }
            let (what, source) = match entry {
                Value::Object(fields) => (
                    fields.get("what").map_or_else(String::new, text_of),
                    fields.get("source").map_or_else(String::new, text_of),
                ),
                other => (text_of(other), String::new()),
            };
            if what.trim().is_empty() {
                return Err(rejected(format!(
                    "Preserve entry for {id} has empty 'what' — describe what to protect."
                )));
            }
            Ok(Preserved {
                criterion: id.clone(),
                what,
                source,
            })
        })
        .collect()
}

/// MassGen's result for an accepted approach: the task plan it makes, and what to do next.
pub fn accepted_json(approach: &DraftedApproach) -> Value {
    let mut task_plan: Vec<Value> = Vec::new();
    if let Some(vision) = &approach.vision {
        task_plan.push(json!({"type": "vision", "description": vision, "priority": "high"}));
    }
    task_plan.extend(approach.plan.iter().map(|item| {
        json!({
            "type": "improve",
            "criterion_id": item.criterion,
            "plan": item.plan,
            "sources": item.sources,
            "impact": item.impact.as_str(),
        })
    }));
    if !approach.preserve.is_empty() {
        task_plan.push(json!({
            "type": "verify_preserve",
            "description": "Before submitting: verify these strengths haven't regressed and \
                            that earlier correctness fixes still hold after later changes.",
            "preserve": approach.preserve.iter().map(|item| json!({
                "criterion_id": item.criterion, "what": item.what, "source": item.source,
            })).collect::<Vec<_>>(),
        }));
    }
    json!({
        "valid": true,
        "message": format!(
            "Your approach is recorded with {} items. Work through them in order, verify the \
             preserved strengths after implementing, then submit the improved answer with \
             `new_answer`. Do not skip criteria.",
            task_plan.len()
        ),
        "task_plan": task_plan,
    })
}

#[cfg(test)]
#[path = "draft_approach_tests.rs"]
mod tests;
