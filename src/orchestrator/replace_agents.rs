//! `Op::ReplaceAgents` between turns: the edited config is loaded (by the front end's
//! loader, which knows the environment), the old agents' tools are stopped, and the next
//! turns run with the new agents, their backends, workspaces and tools.

use std::path::PathBuf;
use std::sync::Arc;

use super::emitter::Emitter;
use super::toolset::{self, AgentTools, ToolSetup};
use super::turn::RunContext;
use crate::backend::{Backend, build_backends};
use crate::config::draft::merge_agents;
use crate::config::{Config, Env};
use crate::protocol::{AgentInfo, EventMsg};

/// Builds the agents of an edited config (YAML) for a run now using the given config: the
/// config to run (the running one with the new agents) and one backend per agent, or the
/// message saying why not.
pub type AgentsLoader =
    Arc<dyn Fn(&str, &Config) -> Result<(Config, Vec<Arc<dyn Backend>>), String> + Send + Sync>;

/// Replaces the run's agents with those of `yaml`, or says why not in a warning.
pub(super) async fn replace(
    yaml: &str,
    loader: Option<&AgentsLoader>,
    context: &mut RunContext,
    tools: &mut AgentTools,
    emitter: &mut Emitter,
) {
    let Some(loader) = loader else {
        emitter.emit(
            None,
            EventMsg::Warning {
                message: "this run cannot change its agents".into(),
            },
        );
        return;
    };
    let (config, backends) = match loader(yaml, &context.config) {
        Ok(built) => built,
        Err(message) => {
            emitter.emit(
                None,
                EventMsg::Warning {
                    message: format!("the agents were not changed: {message}"),
                },
            );
            return;
        }
    };
    let setup = match (&context.project_dir, context.routers.first()) {
        (Some(dir), _) => ToolSetup::FromConfig {
            project_dir: dir.clone(),
        },
        (None, Some(router)) => ToolSetup::Shared(Arc::clone(router)),
        (None, None) => ToolSetup::Shared(Arc::new(crate::tools::NoTools)),
    };
    let roster = roster(&config, &backends);
    tools.shutdown().await;
    *tools = toolset::prepare(setup, (&config, &backends), &roster, emitter).await;
    for (agent, message) in std::mem::take(&mut tools.failed) {
        emitter.emit(Some(&agent), EventMsg::AgentError { message });
    }
    let mut approvals = std::mem::take(&mut context.approvals);
    for (agent, message) in approvals.rebuild(&config, context.project_dir.as_deref()) {
        emitter.emit(Some(&agent), EventMsg::Warning { message });
    }
    *context = RunContext {
        config: Arc::new(config),
        backends,
        routers: tools.routers.clone(),
        workspaces: tools.workspaces.clone(),
        code_tools: tools.code_tools.clone(),
        roster: roster.clone(),
        project_dir: context.project_dir.clone(),
        human: context.human,
        inbox_dir: context.inbox_dir.clone(),
        tool_calls_made: roster.iter().map(|_| Arc::default()).collect(),
        kept_personas: std::sync::Mutex::default(),
        approvals,
    };
    tracing::info!(agents = roster.len(), "agents replaced");
    emitter.emit(None, EventMsg::AgentsReplaced { agents: roster });
}

/// The run's agents as events name them: each config agent with its backend's provider
/// and model.
pub(super) fn roster(config: &Config, backends: &[Arc<dyn Backend>]) -> Vec<AgentInfo> {
    AgentInfo::roster(config.agents.iter().zip(backends).map(|(agent, backend)| {
        (
            agent.id.clone(),
            backend.provider().to_string(),
            backend.model().to_string(),
        )
    }))
}

/// The loader of a run in `cwd` with `env`: the YAML is loaded and validated as a config
/// file would be (its granted paths checked, `allow_outside` as `--allow-outside-project`),
/// merged into the running config, and a backend built for each agent.
pub fn config_loader(env: Env, cwd: PathBuf, allow_outside: bool) -> AgentsLoader {
    Arc::new(move |yaml: &str, running: &Config| {
        let (edited, _warnings) = crate::config::from_text(yaml, "the agents view", &env)
            .and_then(crate::config::Loaded::into_runnable)
            .map_err(|error| error.to_string())?;
        let config = merge_agents(running, &edited);
        // The run's caps hold for the edited team too (a config may have lowered them).
        let most = running.limits.max_agents;
        if config.agents.len() as u64 > most {
            return Err(format!(
                "the edited config lists {} agents; this run allows at most {most} \
                 (limits.max_agents)\n  help: remove agents, or {}",
                config.agents.len(),
                crate::config::limits::how_to_raise("max_agents")
            ));
        }
        let refused = crate::config::check_granted_paths(&config, &cwd, allow_outside);
        if let Some(refusal) = refused.first() {
            return Err(refusal.to_string());
        }
        let backends = build_backends(&config, &env).map_err(|error| error.to_string())?;
        Ok((config, backends))
    })
}
