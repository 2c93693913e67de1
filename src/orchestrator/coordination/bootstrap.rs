//! `criteria_mode: bootstrap_inline` inside coordination: the criteria agents propose with
//! their accepted `submit_checklist` calls (`proposed_criteria`), capped per agent and in
//! total, and merged when a round starts into the criteria that round scores — the turn's
//! own criteria followed by the proposed ones as `E{N+1}`… (MassGen 0.1.97's order).

use serde_json::Value;

use super::Coordination;
use crate::config::BootstrapCaps;
use crate::protocol::{AgentId, EvalCriterion, category_of};

/// One proposed criterion, as MassGen keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Proposal {
    text: String,
    category: Value,
}

/// The turn's proposed criteria so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Bootstrap {
    caps: BootstrapCaps,
    /// The criteria the turn set before its first round, taken at the first merge.
    base: Option<Vec<EvalCriterion>>,
    /// Proposals merged so far, oldest first, at most `caps.total` (0 = no cap).
    accumulated: Vec<Proposal>,
}

impl Bootstrap {
    pub fn new(caps: BootstrapCaps) -> Self {
        Self {
            caps,
            base: None,
            accumulated: Vec::new(),
        }
    }
}

/// What became of a call's `proposed_criteria`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proposed {
    /// Entries with a usable `text`.
    pub offered: usize,
    /// Proposals the agent holds for the next merge after the per-agent cap.
    pub pending: usize,
    /// Older proposals of the agent dropped by `bootstrap_max_per_agent_per_round`.
    pub dropped: usize,
}

impl Coordination {
    /// Keeps the `proposed_criteria` of an accepted checklist until the next round starts;
    /// beyond `bootstrap_max_per_agent_per_round` the agent's newest are kept (MassGen's
    /// trim). `None` when the turn does not bootstrap criteria.
    pub fn propose_criteria(&mut self, agent: &AgentId, proposed: &Value) -> Option<Proposed> {
        let caps = self.rules.checklist.as_ref()?.bootstrap.as_ref()?.caps;
        let index = self.index(agent)?;
        let fresh = proposals_of(proposed);
        let pending = &mut self.states[index].checklist.proposals;
        pending.extend(fresh.iter().cloned());
        let cap = usize::try_from(caps.per_agent_per_round).unwrap_or(usize::MAX);
        let dropped = if cap > 0 {
            pending.len().saturating_sub(cap)
        } else {
            0
        };
        pending.drain(..dropped);
        Some(Proposed {
            offered: fresh.len(),
            pending: pending.len(),
            dropped,
        })
    }

    /// When `agent`'s round starts: every agent's pending proposals join the merged ones
    /// (exact text duplicates skipped, the newest `bootstrap_max_total` kept), the criteria
    /// become the turn's own followed by them, and the agent scores those this round.
    /// Returns the criteria when they changed.
    pub fn merge_proposed_criteria(&mut self, agent: &AgentId) -> Option<Vec<EvalCriterion>> {
        let index = self.index(agent)?;
        let rules = self.rules.checklist.as_mut()?;
        let bootstrap = rules.bootstrap.as_mut()?;
        let base = bootstrap.base.get_or_insert_with(|| rules.criteria.clone());
        for state in &mut self.states {
            let pending = std::mem::take(&mut state.checklist.proposals);
            bootstrap.accumulated = merged(
                std::mem::take(&mut bootstrap.accumulated),
                pending,
                bootstrap.caps.total,
            );
        }
        let criteria = augmented(base, &bootstrap.accumulated);
        let changed = criteria != rules.criteria;
        rules.criteria = criteria;
        self.states[index].checklist.criteria_this_round = Some(rules.criteria.len());
        changed.then(|| rules.criteria.clone())
    }
}

/// `proposed_criteria`: a list (or a JSON string of one) of `{text, category, …}`; entries
/// that are not objects or have no text are skipped, as MassGen does.
fn proposals_of(proposed: &Value) -> Vec<Proposal> {
    let parsed;
    let list = match proposed {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
            &parsed
        }
        other => other,
    };
    let Value::Array(entries) = list else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|entry| {
            let text = entry.get("text")?.as_str()?.trim();
            (!text.is_empty()).then(|| Proposal {
                text: text.to_string(),
                category: entry.get("category").cloned().unwrap_or(Value::Null),
            })
        })
        .collect()
}

/// MassGen's `merge_proposals`: exact-text dedupe, then FIFO eviction beyond `cap` (0 = none).
fn merged(accumulated: Vec<Proposal>, fresh: Vec<Proposal>, cap: u32) -> Vec<Proposal> {
    let mut kept: Vec<Proposal> = Vec::with_capacity(accumulated.len() + fresh.len());
    for proposal in accumulated.into_iter().chain(fresh) {
        if !kept.iter().any(|seen| seen.text == proposal.text) {
            kept.push(proposal);
        }
    }
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    if cap > 0 && kept.len() > cap {
        kept.drain(..kept.len() - cap);
    }
    kept
}

/// MassGen's `augment_with_accumulator`: the base criteria, then each proposal whose text
/// none of them has, numbered on.
fn augmented(base: &[EvalCriterion], accumulated: &[Proposal]) -> Vec<EvalCriterion> {
    let mut criteria = base.to_vec();
    for proposal in accumulated {
        if criteria
            .iter()
            .any(|seen| seen.text.trim() == proposal.text)
        {
            continue;
        }
        criteria.push(EvalCriterion {
            id: format!("E{}", criteria.len() + 1),
            category: category_of(Some(&proposal.category)).to_string(),
            text: proposal.text.clone(),
        });
    }
    criteria
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn proposal(text: &str) -> Proposal {
        Proposal {
            text: text.into(),
            category: Value::Null,
        }
    }

    #[test]
    fn proposals_are_read_from_a_list_or_a_json_string_of_one() {
        let list = json!([{"text": " Cites sources ", "category": "primary"}, {"text": ""}, 3]);
        let read = proposals_of(&list);
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].text, "Cites sources");
        let string = Value::from(r#"[{"text": "Cites sources", "category": "primary"}]"#);
        assert_eq!(proposals_of(&string), read);
        assert!(proposals_of(&json!({"text": "x"})).is_empty());
    }

    #[test]
    fn merging_skips_duplicates_and_keeps_the_newest_within_the_cap() {
        let old = vec![proposal("a"), proposal("b")];
        let fresh = vec![proposal("b"), proposal("c"), proposal("d")];
        let texts = |kept: Vec<Proposal>| kept.into_iter().map(|p| p.text).collect::<Vec<_>>();
        assert_eq!(
            texts(merged(old.clone(), fresh.clone(), 0)),
            ["a", "b", "c", "d"]
        );
        assert_eq!(texts(merged(old, fresh, 3)), ["b", "c", "d"]);
    }

    #[test]
    fn proposals_number_on_after_the_base_and_skip_its_texts() {
        let base = vec![EvalCriterion {
            id: "E1".into(),
            category: "standard".into(),
            text: "Works".into(),
        }];
        let mut must = proposal("Has tests");
        must.category = json!("must");
        let mut primary = proposal("Is fast");
        primary.category = json!("PRIMARY");
        let criteria = augmented(&base, &[proposal("Works"), must, primary]);
        let got: Vec<(&str, &str, &str)> = criteria
            .iter()
            .map(|c| (c.id.as_str(), c.category.as_str(), c.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("E1", "standard", "Works"),
                ("E2", "standard", "Has tests"),
                ("E3", "primary", "Is fast"),
            ]
        );
    }
}
