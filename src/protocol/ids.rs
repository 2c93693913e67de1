//! Agent identities: real ids from the config, anonymous ids shown to models, answer labels.
//!
//! This is the one place that decides anonymisation (real ids sorted → `agent1..N`) and
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
/// `agent2.final` its final presentation.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AnswerLabel(String);

impl AnswerLabel {
    /// The label of `anon`'s `ordinal`-th answer (1-based).
    pub fn answer(anon: &AnonId, ordinal: usize) -> Self {
        Self(format!("{anon}.{ordinal}"))
    }

    /// The label of `anon`'s final presentation.
    pub fn final_presentation(anon: &AnonId) -> Self {
        Self(format!("{anon}.final"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
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
    anon_to_real: BTreeMap<AnonId, AgentId>,
}

impl AnonymousMapping {
    /// Sorts the real ids and numbers them `agent1..N`. Config order does not matter.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a AgentId>) -> Self {
        let mut sorted: Vec<AgentId> = ids.into_iter().cloned().collect();
        sorted.sort();
        sorted.dedup();
        let real_to_anon: BTreeMap<AgentId, AnonId> = sorted
            .into_iter()
            .enumerate()
            .map(|(index, id)| (id, AnonId::from_number(index + 1)))
            .collect();
        let anon_to_real = real_to_anon
            .iter()
            .map(|(real, anon)| (anon.clone(), real.clone()))
            .collect();
        Self {
            real_to_anon,
            anon_to_real,
        }
    }

    pub fn anon(&self, real: &AgentId) -> Option<&AnonId> {
        self.real_to_anon.get(real)
    }

    /// Looks up an anonymous id as a model wrote it (`"agent2"`).
    pub fn real(&self, anon: &str) -> Option<&AgentId> {
        self.anon_to_real
            .iter()
            .find(|(candidate, _)| candidate.as_str() == anon)
            .map(|(_, real)| real)
    }

    /// `(anon, real)` pairs in anonymous order.
    pub fn pairs(&self) -> impl Iterator<Item = (&AnonId, &AgentId)> {
        self.anon_to_real.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_ids_follow_sorted_real_ids_not_config_order() {
        let ids = [
            AgentId::new("zeta"),
            AgentId::new("alpha"),
            AgentId::new("mid"),
        ];
        let mapping = AnonymousMapping::new(&ids);
        assert_eq!(
            mapping.anon(&AgentId::new("alpha")).unwrap().as_str(),
            "agent1"
        );
        assert_eq!(
            mapping.anon(&AgentId::new("mid")).unwrap().as_str(),
            "agent2"
        );
        assert_eq!(
            mapping.anon(&AgentId::new("zeta")).unwrap().as_str(),
            "agent3"
        );
        assert_eq!(mapping.real("agent3"), Some(&AgentId::new("zeta")));
        assert_eq!(mapping.real("agent4"), None);
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
