//! `criteria_mode: bootstrap_inline` inside coordination: the criteria agents propose with
//! their accepted `submit_checklist` calls (`proposed_criteria`), capped per agent and in
//! total, and merged when a round starts into the criteria that round scores — the turn's
//! own criteria followed by the proposed ones as `E{N+1}`… (MassGen 0.1.97's order), with
//! criteria every answer scored alike in the latest per-agent checklist demoted to stretch.
//! Under `bootstrap_subagent` a critic's criteria fill the same accumulator (`critic`).

mod critic;

pub use critic::CriticBrief;

use std::collections::{BTreeMap, BTreeSet};

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
    /// The criteria the turn set before its first round (else taken at the first merge).
    own: Option<Vec<EvalCriterion>>,
    /// They are MassGen's defaults: proposals replace them rather than follow them.
    own_are_defaults: bool,
    /// Proposals merged so far, oldest first, at most `caps.total` (0 = no cap).
    accumulated: Vec<Proposal>,
    /// Criterion id → every answer's score in the latest accepted per-agent checklist.
    last_scores: BTreeMap<String, Vec<f64>>,
    /// `bootstrap_subagent`: a critic proposes, not the agents' checklists.
    critic: bool,
    /// The signatures of the answer sets the critic was asked about.
    judged: BTreeSet<u64>,
}

impl Bootstrap {
    /// `critic`: the criteria come from a critic between rounds (`bootstrap_subagent`),
    /// not from the agents' `proposed_criteria` (`bootstrap_inline`).
    pub fn new(caps: BootstrapCaps, critic: bool) -> Self {
        Self {
            caps,
            own: None,
            own_are_defaults: false,
            accumulated: Vec::new(),
            last_scores: BTreeMap::new(),
            critic,
            judged: BTreeSet::new(),
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
    /// The criteria just set are the turn's own; `defaults` when they are MassGen's.
    pub fn keep_own_criteria(&mut self, defaults: bool) {
        if let Some(rules) = self.rules.checklist.as_mut()
            && let Some(bootstrap) = rules.bootstrap.as_mut()
        {
            bootstrap.own = Some(rules.criteria.clone());
            bootstrap.own_are_defaults = defaults;
        }
    }

    /// An accepted checklist: its per-agent `scores` become the latest, and its
    /// `proposed_criteria` wait for the next round start; beyond
    /// `bootstrap_max_per_agent_per_round` the agent's newest are kept (MassGen's trim).
    /// `None` when the turn does not bootstrap criteria.
    pub fn propose_criteria(
        &mut self,
        agent: &AgentId,
        scores: &Value,
        proposed: &Value,
    ) -> Option<Proposed> {
        let index = self.index(agent)?;
        let bootstrap = self.rules.checklist.as_mut()?.bootstrap.as_mut()?;
        let caps = bootstrap.caps;
        if let Some(by_criterion) = scores_by_criterion(scores) {
            bootstrap.last_scores = by_criterion;
        }
        // MassGen reads `proposed_criteria` under bootstrap_inline only.
        let fresh = if bootstrap.critic {
            Vec::new()
        } else {
            proposals_of(proposed)
        };
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
        let own = bootstrap.own.get_or_insert_with(|| rules.criteria.clone());
        for state in &mut self.states {
            let pending = std::mem::take(&mut state.checklist.proposals);
            bootstrap.accumulated = merged(
                std::mem::take(&mut bootstrap.accumulated),
                pending,
                bootstrap.caps.total,
            );
        }
        // MassGen's defaults stay as they are until proposals replace them.
        let criteria = match (bootstrap.own_are_defaults, bootstrap.accumulated.is_empty()) {
            (true, true) => own.clone(),
            (true, false) => demoted(
                augmented(&[], &bootstrap.accumulated),
                &bootstrap.last_scores,
            ),
            (false, _) => demoted(
                augmented(own, &bootstrap.accumulated),
                &bootstrap.last_scores,
            ),
        };
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

/// Per-agent `scores` (keyed by answer, as MassGen keeps them for its spread) by
/// criterion; `None` for flat scores.
fn scores_by_criterion(scores: &Value) -> Option<BTreeMap<String, Vec<f64>>> {
    let Value::Object(by_answer) = scores else {
        return None;
    };
    let flat = by_answer.is_empty()
        || by_answer
            .keys()
            .any(|key| key.starts_with('E') || key.starts_with('T'));
    if flat {
        return None;
    }
    let mut by_criterion: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for entries in by_answer.values().filter_map(Value::as_object) {
        for (id, entry) in entries {
            let value = entry.get("score").unwrap_or(entry);
            if let Some(score) = value.as_f64().filter(|_| value.is_number()) {
                by_criterion.entry(id.clone()).or_default().push(score);
            }
        }
    }
    Some(by_criterion)
}

/// MassGen's non-discriminative pruning: a criterion whose scores spread (population
/// standard deviation across answers) below 0.75 gives no gradient and is demoted to
/// stretch — the lowest-spread ones first, never all but two of the scored criteria.
fn demoted(
    mut criteria: Vec<EvalCriterion>,
    scores: &BTreeMap<String, Vec<f64>>,
) -> Vec<EvalCriterion> {
    const MIN_SPREAD: f64 = 0.75;
    const PROTECTED: usize = 2;
    let spreads: Vec<(&String, f64)> = scores
        .iter()
        .filter(|(_, values)| values.len() >= 2)
        .map(|(id, values)| (id, population_deviation(values)))
        .collect();
    let droppable = spreads.len().saturating_sub(PROTECTED);
    let mut flat: Vec<(&String, f64)> = spreads
        .into_iter()
        .filter(|(_, spread)| *spread < MIN_SPREAD)
        .collect();
    flat.sort_by(|left, right| left.1.total_cmp(&right.1));
    flat.truncate(droppable);
    for criterion in &mut criteria {
        if flat.iter().any(|(id, _)| **id == criterion.id) {
            criterion.category = "stretch".into();
        }
    }
    criteria
}

fn population_deviation(values: &[f64]) -> f64 {
    let count = values.len() as f64;
    let mean = values.iter().sum::<f64>() / count;
    (values
        .iter()
        .map(|value| (value - mean).powi(2))
        .sum::<f64>()
        / count)
        .sqrt()
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
    fn criteria_every_answer_scored_alike_are_demoted_but_two_are_kept() {
        let criteria: Vec<EvalCriterion> = (1..=4)
            .map(|n| EvalCriterion {
                id: format!("E{n}"),
                category: "primary".into(),
                text: format!("c{n}"),
            })
            .collect();
        let scores = json!({
            "agent1.1": {"E1": {"score": 8}, "E2": 5, "E3": 9, "E4": 2},
            "agent2.1": {"E1": {"score": 8}, "E2": 5.5, "E3": 3, "E4": 9}
        });
        let by_criterion = scores_by_criterion(&scores).unwrap();
        let categories = |criteria: Vec<EvalCriterion>| -> Vec<String> {
            criteria.into_iter().map(|c| c.category).collect()
        };
        // E1 (spread 0) and E2 (0.25) are flat; four scored, so two may go.
        assert_eq!(
            categories(demoted(criteria.clone(), &by_criterion)),
            ["stretch", "stretch", "primary", "primary"]
        );
        // Three scored: only one may go, the flattest.
        let mut three = by_criterion.clone();
        three.remove("E4");
        assert_eq!(
            categories(demoted(criteria.clone(), &three)),
            ["stretch", "primary", "primary", "primary"]
        );
        assert!(scores_by_criterion(&json!({"E1": 3})).is_none());
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
