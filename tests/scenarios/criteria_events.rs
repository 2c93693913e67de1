//! What the criteria scenarios read from a turn's events: each `CriteriaSet` and the ids
//! each checklist scored.

use massgen::protocol::{CriteriaSource, Event, EventMsg};

/// Each `CriteriaSet`: its source and its criteria as `id category text`.
pub fn announced(events: &[Event]) -> Vec<(CriteriaSource, Vec<String>)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::CriteriaSet { source, criteria } => Some((
                *source,
                criteria
                    .iter()
                    .map(|c| format!("{} {} {}", c.id, c.category, c.text))
                    .collect(),
            )),
            _ => None,
        })
        .collect()
}

/// The criterion ids each accepted or refused checklist scored, in order.
pub fn scored_ids(events: &[Event]) -> Vec<Vec<String>> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ChecklistSubmitted { result } => {
                Some(result.scores.iter().map(|item| item.id.clone()).collect())
            }
            _ => None,
        })
        .collect()
}
