//! Python custom tools (`backend.custom_tools`): one worker process per agent runs the
//! agent's tools, started with the run (its tools are in the first request), confined by
//! the sandbox like the agent's `execute_command`, one call at a time with a timeout, and
//! restarted on the next call after it crashed or timed out.

mod inspect;
mod interpreter;
mod worker;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::backend::ToolSpec;
use crate::config::CustomToolConfig;
use crate::sandbox::Plan;
use crate::tools::ToolOutcome;
use crate::tools::permissions::{Access, PathPolicy};

pub use inspect::{Inspection, inspect, tools_of};
pub use interpreter::PYTHON_VARIABLE;
use interpreter::Scripts;
use worker::{Loaded, Reply, Spec, Worker};

/// Who the tools run for, as their `@context_params` see it, and what they may touch.
#[derive(Clone)]
pub struct AgentSetup {
    pub agent_id: String,
    pub backend_name: String,
    pub backend_type: String,
    pub model: String,
    /// The agent's paths when it has a workspace; else the worker gets a scratch directory.
    pub policy: Option<Arc<PathPolicy>>,
    /// TCP allowed (the agent's `command_line_network`, default true).
    pub network: bool,
}

/// One agent's custom tools and their worker.
pub struct CustomTools {
    specs: Vec<ToolSpec>,
    categories: HashMap<String, String>,
    timeouts: HashMap<String, Duration>,
    spec: Spec,
    /// `None` after a crash, a timeout or a cancelled call: the next call starts another.
    worker: tokio::sync::Mutex<Option<Worker>>,
    _scripts: Scripts,
}

impl CustomTools {
    /// Starts the agent's worker and loads its tools; the error names every tool that could
    /// not be loaded, with its file, Python's error and what to do.
    pub async fn start(tools: &[CustomToolConfig], setup: AgentSetup) -> Result<Self, String> {
        let agent = setup.agent_id.clone();
        let scripts = Scripts::write()?;
        let python = interpreter::find(&scripts)
            .await
            .map_err(|message| format!("agent `{agent}`: {message}"))?;
        let (cwd, mut plan, agent_cwd) = place(&setup, &scripts)?;
        plan.readable.extend(python.reads.iter().cloned());
        plan.readable.push(scripts.dir().to_path_buf());
        for tool in tools {
            if let Some(dir) = tool.path.as_ref().and_then(|path| path.parent()) {
                let dir = if dir.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    dir.to_path_buf()
                };
                plan.readable.push(std::path::absolute(&dir).unwrap_or(dir));
            }
        }
        let allowed_paths = setup
            .policy
            .as_ref()
            .map_or_else(Vec::new, |policy| policy.allowed_directories());
        let load = serde_json::json!({
            "op": "load",
            "tools": tools.iter().map(|tool| serde_json::json!({
                "offered": tool.offered_name(),
                "function": tool.function,
                "path": tool.path.as_ref().map(|path| path.display().to_string()),
                "written_path": tool.written_path,
                "description": tool.description,
                "preset_args": tool.preset_args,
            })).collect::<Vec<_>>(),
            "context": {
                "agent_id": setup.agent_id,
                "agent_cwd": agent_cwd,
                "backend_name": setup.backend_name,
                "backend_type": setup.backend_type,
                "model": setup.model,
                "allowed_paths": allowed_paths,
            },
        });
        let spec = Spec {
            program: python.program.clone(),
            script: scripts.worker(),
            cwd,
            plan,
            env: interpreter::environment(),
            load,
        };
        let (worker, loaded) = Worker::start(&spec)
            .await
            .map_err(|message| format!("agent `{agent}`: {message}"))?;
        let failures: Vec<String> = loaded
            .iter()
            .filter(|tool| !tool.ok)
            .map(|failed| load_failure(&agent, failed, tools, &python.named))
            .collect();
        if !failures.is_empty() {
            worker.stop();
            return Err(failures.join("\n"));
        }
        let specs = loaded.iter().map(spec_of).collect();
        let categories = tools
            .iter()
            .map(|tool| (tool.offered_name(), tool.category.clone()))
            .collect();
        let timeouts = tools
            .iter()
            .map(|tool| (tool.offered_name(), tool.timeout))
            .collect();
        Ok(Self {
            specs,
            categories,
            timeouts,
            spec,
            worker: tokio::sync::Mutex::new(Some(worker)),
            _scripts: scripts,
        })
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        self.specs.clone()
    }

    pub fn handles(&self, name: &str) -> bool {
        self.specs.iter().any(|spec| spec.name == name)
    }

    /// The tool's `category` (`default` when the config gave none).
    pub fn category(&self, name: &str) -> Option<&str> {
        self.categories.get(name).map(String::as_str)
    }

    /// Runs one call. Never fails: problems become an error outcome for the model.
    pub async fn call(&self, name: &str, arguments_json: &str) -> ToolOutcome {
        let arguments = match arguments_of(arguments_json) {
            Ok(arguments) => arguments,
            Err(problem) => {
                return failed(format!(
                    "The arguments for `{name}` are not usable: {problem}. Send one JSON object that matches the tool's schema."
                ));
            }
        };
        let mut slot = self.worker.lock().await;
        // Taken out for the call: a cancelled call drops (so kills) it.
        let mut worker = match slot.take() {
            Some(worker) => worker,
            None => match self.restart().await {
                Ok(worker) => worker,
                Err(message) => return failed(format!("Tool `{name}` could not run: {message}.")),
            },
        };
        let timeout = self
            .timeouts
            .get(name)
            .copied()
            .unwrap_or(crate::config::DEFAULT_CALL_TIMEOUT);
        match tokio::time::timeout(timeout, worker.call(name, arguments)).await {
            Ok(Ok(Reply::Done(output))) => {
                *slot = Some(worker);
                ToolOutcome { ok: true, output }
            }
            Ok(Ok(Reply::Raised(error))) => {
                *slot = Some(worker);
                failed(format!("Tool `{name}` raised {error}"))
            }
            Ok(Err(message)) => {
                worker.stop();
                failed(format!(
                    "Tool `{name}` failed: {message}. The worker starts again for the next call."
                ))
            }
            Err(_elapsed) => {
                worker.stop();
                failed(format!(
                    "Tool `{name}` timed out after {} s and was stopped with everything it started. Try a smaller request or another way.",
                    timeout.as_secs()
                ))
            }
        }
    }

    /// Stops the worker (the run ends).
    pub async fn shutdown(&self) {
        if let Some(worker) = self.worker.lock().await.take() {
            worker.stop();
        }
    }

    async fn restart(&self) -> Result<Worker, String> {
        let (worker, loaded) = Worker::start(&self.spec).await?;
        if let Some(failed) = loaded.iter().find(|tool| !tool.ok) {
            let message = format!(
                "`{}` no longer loads: {}",
                failed.offered,
                failed.error.as_deref().unwrap_or("an error")
            );
            worker.stop();
            return Err(message);
        }
        Ok(worker)
    }
}

/// The worker's directory and sandbox plan: the agent's workspace with its roots, as its
/// `execute_command` gets them; else a scratch directory beside the scripts.
fn place(setup: &AgentSetup, scripts: &Scripts) -> Result<(PathBuf, Plan, Option<String>), String> {
    if let Some(policy) = &setup.policy {
        let workspace = policy.check(".", Access::Read).map_err(|refusal| {
            format!(
                "agent `{}`: its workspace is not usable: {}",
                setup.agent_id, refusal.reason
            )
        })?;
        let plan = policy.sandbox_plan(&workspace, setup.network);
        let shown = workspace.display().to_string();
        return Ok((workspace, plan, Some(shown)));
    }
    let scratch = scripts.dir().join("work");
    std::fs::create_dir(&scratch)
        .map_err(|error| format!("cannot make the Python tool worker's directory: {error}"))?;
    let plan = Plan {
        workspace: scratch.clone(),
        network: setup.network,
        ..Plan::default()
    };
    Ok((scratch, plan, None))
}

fn spec_of(loaded: &Loaded) -> ToolSpec {
    let function = &loaded.schema["function"];
    ToolSpec {
        name: loaded.offered.clone(),
        description: function["description"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        parameters: function["parameters"].clone(),
    }
}

/// Why one tool did not load, as the user reads it before the run stops.
fn load_failure(agent: &str, failed: &Loaded, tools: &[CustomToolConfig], python: &str) -> String {
    let file = tools
        .iter()
        .find(|tool| tool.offered_name() == failed.offered)
        .map_or_else(String::new, CustomToolConfig::shown_path);
    let error = failed.error.as_deref().unwrap_or("it could not be loaded");
    let place = failed
        .r#where
        .as_ref()
        .map_or_else(String::new, |place| format!(" (at {place})"));
    let help = match missing_module(error) {
        Some(module) => format!(
            "install `{module}` into the Python massgen uses: {python} -m pip install {module} \
             (or set {PYTHON_VARIABLE} to an interpreter that has it)"
        ),
        None => "fix the tool's file or its entry in the config; `massgen --validate` checks \
                 them without running them"
            .to_string(),
    };
    format!(
        "agent `{agent}`: custom tool `{}` could not be loaded from {file}: {error}{place}\n  help: {help}",
        failed.offered
    )
}

/// `No module named 'foo.bar'` → `foo`.
fn missing_module(error: &str) -> Option<&str> {
    let rest = error.split_once("No module named '")?.1;
    let name = rest.split('\'').next()?;
    name.split('.').next().filter(|name| !name.is_empty())
}

fn arguments_of(json: &str) -> Result<serde_json::Value, String> {
    if json.trim().is_empty() {
        return Ok(serde_json::json!({}));
    }
    match serde_json::from_str::<serde_json::Value>(json) {
        Ok(value @ serde_json::Value::Object(_)) => Ok(value),
        Ok(_) => Err("they are not a JSON object".into()),
        Err(error) => Err(format!("they are not JSON ({error})")),
    }
}

fn failed(output: String) -> ToolOutcome {
    ToolOutcome { ok: false, output }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_module_is_named_for_pip() {
        assert_eq!(
            missing_module("ModuleNotFoundError: No module named 'yaml.x'"),
            Some("yaml")
        );
        assert_eq!(missing_module("ValueError: bad"), None);
    }

    #[test]
    fn arguments_must_be_one_object() {
        assert_eq!(arguments_of("").unwrap(), serde_json::json!({}));
        assert!(arguments_of("[1]").is_err());
        assert!(arguments_of("{").is_err());
    }
}
