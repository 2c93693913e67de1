//! Builds one backend per agent from the config.

use std::sync::Arc;

use super::Backend;
use super::scripted::ScriptedBackend;
use crate::config::{BackendKind, Config};
use crate::protocol::{AgentId, AnonymousMapping};

/// An agent whose backend type cannot run in this build.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "agent `{agent}` uses backend type `{kind}`, which this version cannot run yet \
     (only `scripted` is built in so far)"
)]
pub struct BackendUnavailable {
    pub agent: AgentId,
    pub kind: BackendKind,
}

/// One backend per agent, in config order.
pub fn build_backends(config: &Config) -> Result<Vec<Arc<dyn Backend>>, BackendUnavailable> {
    let mapping = AnonymousMapping::new(config.agents.iter().map(|agent| &agent.id));
    config
        .agents
        .iter()
        .map(
            |agent| match (&agent.backend.kind, &agent.backend.scripted) {
                (BackendKind::Scripted, Some(options)) => {
                    let own = mapping.anon(&agent.id).cloned();
                    let backend: Arc<dyn Backend> = Arc::new(ScriptedBackend::new(
                        agent.backend.model.clone(),
                        options.clone(),
                        own,
                        mapping.clone(),
                    ));
                    Ok(backend)
                }
                (kind, _) => Err(BackendUnavailable {
                    agent: agent.id.clone(),
                    kind: *kind,
                }),
            },
        )
        .collect()
}
