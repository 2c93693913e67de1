//! Who answers the items: every config under every strategy asked for, and the baselines —
//! each distinct model of the configs alone, and the same model sampled N times with the
//! majority answer (self-consistency).

use std::sync::Arc;

use crate::config::Config;
use crate::eval::record::{Contender, ContenderKind};
use crate::protocol::{Strategy, TurnOptions};

/// One contender and how its turns run.
#[derive(Clone, Debug)]
pub struct Entry {
    pub contender: Contender,
    pub config: Arc<Config>,
    pub options: TurnOptions,
    /// 1, or the turns whose majority answer counts (self-consistency).
    pub samples: usize,
}

/// A config and the name results call it by (its file name).
#[derive(Clone, Debug)]
pub struct NamedConfig {
    pub name: String,
    pub config: Arc<Config>,
}

/// What to build.
#[derive(Clone, Debug)]
pub struct Lineup {
    /// Empty: each config's own strategy.
    pub strategies: Vec<Strategy>,
    pub baselines: bool,
    /// Self-consistency's samples; below 2 there is no self-consistency baseline.
    pub samples: usize,
}

pub fn entries(configs: &[NamedConfig], lineup: &Lineup) -> Result<Vec<Entry>, String> {
    let mut entries: Vec<Entry> = Vec::new();
    let strategies: Vec<Option<Strategy>> = if lineup.strategies.is_empty() {
        vec![None]
    } else {
        lineup.strategies.iter().copied().map(Some).collect()
    };
    for named in configs {
        for strategy in &strategies {
            let label = strategy.unwrap_or_default();
            entries.push(Entry {
                contender: Contender {
                    name: format!("{} · {label}", named.name),
                    kind: ContenderKind::Strategy,
                },
                config: Arc::clone(&named.config),
                options: TurnOptions {
                    strategy: *strategy,
                    ..TurnOptions::default()
                },
                samples: 1,
            });
        }
    }
    if !lineup.baselines {
        return Ok(entries);
    }
    let mut models: Vec<String> = Vec::new();
    let mut baselines: Vec<Entry> = Vec::new();
    for named in configs {
        for agent in &named.config.agents {
            let model = agent.backend.model.clone();
            if models.contains(&model) {
                continue;
            }
            models.push(model.clone());
            let alone = TurnOptions {
                single_agent: Some(agent.id.clone()),
                ..TurnOptions::default()
            };
            baselines.push(Entry {
                contender: Contender {
                    name: format!("{model} alone"),
                    kind: ContenderKind::SingleModel,
                },
                config: Arc::clone(&named.config),
                options: alone.clone(),
                samples: 1,
            });
            if lineup.samples >= 2 {
                baselines.push(Entry {
                    contender: Contender {
                        name: format!("{model} ×{} majority", lineup.samples),
                        kind: ContenderKind::SelfConsistency,
                    },
                    config: Arc::clone(&named.config),
                    options: alone,
                    samples: lineup.samples,
                });
            }
        }
    }
    entries.extend(baselines);
    let mut names: Vec<&str> = Vec::new();
    for entry in &entries {
        if names.contains(&entry.contender.name.as_str()) {
            return Err(format!(
                "two contenders are named `{}`: give the configs different file names",
                entry.contender.name
            ));
        }
        names.push(&entry.contender.name);
    }
    Ok(entries)
}
