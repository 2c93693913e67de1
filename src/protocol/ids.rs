//! Agent identities: real ids from the config, anonymous ids shown to models, answer labels.
//!
//! This is the one place that decides anonymisation (real ids in config order → `agent1..N`) and
//! labels (`agentN.M`, `agentN.final`), so prompts, vote validation, logs and the UI can
//! never disagree about who is who.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// An agent's id exactly as written in the config (`id: gpt5_agent`). Cheap to clone: it
/// rides on every streamed token's event.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AgentId(Arc<str>);

impl AgentId {
    pub fn new(id: impl Into<String>) -> Self {
        Self(Arc::from(id.into()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The anonymous id a model sees for an agent: `agent1`, `agent2`, …
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AnonId(String);

impl AnonId {
    fn from_number(number: usize) -> Self {
        Self(format!("agent{number}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AnonId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A label naming one answer: `agent2.1` is anonymous agent 2's first answer,
/// `agent2.final` its final presentation. Cheap to clone: every round's start lists the
/// labels of all the answers it sees, so a large team's turn holds them by the thousand.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AnswerLabel(Arc<str>);

impl AnswerLabel {
    /// The label of `anon`'s `ordinal`-th answer (1-based).
    pub fn answer(anon: &AnonId, ordinal: usize) -> Self {
        Self(Arc::from(format!("{anon}.{ordinal}")))
    }

    /// The label of `anon`'s final presentation.
    pub fn final_presentation(anon: &AnonId) -> Self {
        Self(Arc::from(format!("{anon}.final")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A final presentation's label (`agent2.final`), not an answer's (`agent2.1`).
    pub fn is_final_presentation(&self) -> bool {
        self.0.ends_with(".final")
    }
}

impl fmt::Display for AnswerLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The global mapping between real and anonymous ids for one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnonymousMapping {
    real_to_anon: BTreeMap<AgentId, AnonId>,
    /// `(anon, real)` in anonymous order: `agent1`, `agent2`, … `agent10`.
    in_order: Vec<(AnonId, AgentId)>,
}

impl AnonymousMapping {
    /// Numbers the real ids `agent1..N` in the order given (the config's), so the first
    /// card's answers are `agent1.*`. (MassGen numbers sorted ids; a config that lists its
    /// ids in sorted order, as most do, gets the same labels.) A repeated id keeps its
    /// first number.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a AgentId>) -> Self {
        let mut real_to_anon: BTreeMap<AgentId, AnonId> = BTreeMap::new();
        let mut in_order = Vec::new();
        for id in ids {
            if !real_to_anon.contains_key(id) {
                let anon = AnonId::from_number(in_order.len() + 1);
                real_to_anon.insert(id.clone(), anon.clone());
                in_order.push((anon, id.clone()));
            }
        }
        Self {
            real_to_anon,
            in_order,
        }
    }

    pub fn anon(&self, real: &AgentId) -> Option<&AnonId> {
        self.real_to_anon.get(real)
    }

    /// Looks up an anonymous id as a model wrote it (`"agent2"`).
    pub fn real(&self, anon: &str) -> Option<&AgentId> {
        self.in_order
            .iter()
            .find(|(candidate, _)| candidate.as_str() == anon)
            .map(|(_, real)| real)
    }

    /// `(anon, real)` pairs in anonymous order.
    pub fn pairs(&self) -> impl Iterator<Item = (&AnonId, &AgentId)> {
        self.in_order.iter().map(|(anon, real)| (anon, real))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_ids_follow_config_order() {
        let ids = [
            AgentId::new("zeta"),
            AgentId::new("alpha"),
            AgentId::new("mid"),
            AgentId::new("alpha"),
        ];
        let mapping = AnonymousMapping::new(&ids);
        let anon = |id: &str| {
            mapping
                .anon(&AgentId::new(id))
                .unwrap()
                .as_str()
                .to_string()
        };
        assert_eq!(
            [anon("zeta"), anon("alpha"), anon("mid")],
            ["agent1", "agent2", "agent3"]
        );
        assert_eq!(mapping.real("agent1"), Some(&AgentId::new("zeta")));
        assert_eq!(mapping.real("agent4"), None);
    }

    #[test]
    fn ten_agents_or_more_stay_in_number_order() {
        let ids: Vec<AgentId> = (1..=11).map(|n| AgentId::new(format!("a{n}"))).collect();
        let mapping = AnonymousMapping::new(&ids);
        let order: Vec<&str> = mapping.pairs().map(|(anon, _)| anon.as_str()).collect();
        assert_eq!(order[1], "agent2");
        assert_eq!(order[9], "agent10");
        assert_eq!(mapping.real("agent10"), Some(&AgentId::new("a10")));
    }

    #[test]
    fn labels_use_the_anonymous_number() {
        let anon = AnonId::from_number(2);
        assert_eq!(AnswerLabel::answer(&anon, 3).as_str(), "agent2.3");
        assert_eq!(
            AnswerLabel::final_presentation(&anon).as_str(),
            "agent2.final"
        );
    }
}
