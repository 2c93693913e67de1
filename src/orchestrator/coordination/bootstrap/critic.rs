//! `criteria_mode: bootstrap_subagent` inside coordination: when the critic is due (a set
//! of latest answers it has not judged), what it reads, and its criteria merged into the
//! accumulator that `bootstrap_inline`'s proposals fill (same total cap, same round-start
//! merge).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use serde_json::Value;

use super::{Proposal, merged};
use crate::orchestrator::coordination::Coordination;
use crate::protocol::{AgentId, EvalCriterion};

/// What the critic is asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriticBrief {
    /// Which answer set this is (the same set is never judged twice).
    pub signature: u64,
    /// Every agent's latest answer, config order.
    pub answers: Vec<(AgentId, String)>,
    /// The texts of the criteria proposed so far.
    pub proposed: Vec<String>,
}

impl Coordination {
    /// The critic's brief when the turn runs one and the latest answers form a set it has
    /// not judged yet; `None` otherwise (no answers yet, or judged).
    pub fn critic_due(&self) -> Option<CriticBrief> {
        let bootstrap = self.rules.checklist.as_ref()?.bootstrap.as_ref()?;
        if !bootstrap.critic {
            return None;
        }
        let answers: Vec<(AgentId, String)> = self
            .latest_answers()
            .into_iter()
            .map(|(agent, content)| (agent, content.to_string()))
            .collect();
        if answers.is_empty() {
            return None;
        }
        let signature = signature_of(&answers);
        if bootstrap.judged.contains(&signature) {
            return None;
        }
        Some(CriticBrief {
            signature,
            answers,
            proposed: bootstrap
                .accumulated
                .iter()
                .map(|proposal| proposal.text.clone())
                .collect(),
        })
    }

    /// The critic is asked about the answer set `signature`; it is not asked again, even
    /// if this call fails (MassGen's order).
    pub fn critic_asked(&mut self, signature: u64) {
        if let Some(bootstrap) = self.bootstrap_mut() {
            bootstrap.judged.insert(signature);
        }
    }

    /// The critic's criteria join the accumulated proposals (exact duplicates skipped, the
    /// newest `bootstrap_max_total` kept); they reach each agent at its next round start.
    /// Returns how many were new.
    pub fn add_critic_criteria(&mut self, criteria: &[EvalCriterion]) -> usize {
        let Some(bootstrap) = self.bootstrap_mut() else {
            return 0;
        };
        let fresh: Vec<Proposal> = criteria
            .iter()
            .map(|criterion| Proposal {
                text: criterion.text.trim().to_string(),
                category: Value::from(criterion.category.as_str()),
            })
            .collect();
        let before = bootstrap.accumulated.clone();
        bootstrap.accumulated = merged(
            std::mem::take(&mut bootstrap.accumulated),
            fresh,
            bootstrap.caps.total,
        );
        bootstrap
            .accumulated
            .iter()
            .filter(|proposal| !before.contains(proposal))
            .count()
    }

    fn bootstrap_mut(&mut self) -> Option<&mut super::Bootstrap> {
        self.rules.checklist.as_mut()?.bootstrap.as_mut()
    }
}

/// A content signature of the answer set: who answered what.
fn signature_of(answers: &[(AgentId, String)]) -> u64 {
    let mut sorted: Vec<&(AgentId, String)> = answers.iter().collect();
    sorted.sort();
    let mut hasher = DefaultHasher::new();
    sorted.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_set_of_answers_not_their_order() {
        let a = (AgentId::new("a"), "one".to_string());
        let b = (AgentId::new("b"), "two".to_string());
        assert_eq!(
            signature_of(&[a.clone(), b.clone()]),
            signature_of(&[b.clone(), a.clone()])
        );
        let changed = (AgentId::new("b"), "two, better".to_string());
        assert_ne!(signature_of(&[a.clone(), b]), signature_of(&[a, changed]));
    }
}
