//! Tool approvals on the orchestrator's side: each agent with a `permissions:` block gets a
//! gate that checks every call before it runs and asks a person, the file handshake or the
//! headless policy when the engine says ask; the run's waiting asks are answered by
//! `Op::AnswerApproval`.

mod askers;
mod file_handshake;
mod gate;
mod pending;
mod verdicts;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::approvals::{AutoBudget, load_saved_rules};
use crate::config::{AutomationDefault, Config, PermissionsConfig};
use crate::protocol::{AgentId, ApprovalAnswer};

use askers::Asker;
use gate::RunShared;

pub use gate::AgentGate;

/// How a run without a person at the terminal answers asks, as the command line says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ApprovalOptions {
    /// `--approval-policy`: replaces every agent's `automation_default`.
    pub policy: Option<AutomationDefault>,
    /// `--approval-dir`: every agent with permissions asks through the file handshake here.
    pub dir: Option<PathBuf>,
    /// The front end cannot put a call to the user (plain output): the policy answers even
    /// with a person at the terminal.
    pub no_person: bool,
}

/// The run's gates, one per agent with permissions, and the asks waiting for an answer.
#[derive(Default)]
pub struct RunApprovals {
    options: ApprovalOptions,
    human: bool,
    gates: Vec<Option<Arc<AgentGate>>>,
    shared: Arc<RunShared>,
}

impl RunApprovals {
    /// The gates of `config`'s agents; the warnings to show (saved rules that could not be
    /// read), by agent.
    pub fn new(
        config: &Config,
        options: ApprovalOptions,
        human: bool,
        project_dir: Option<&Path>,
    ) -> (Self, Vec<(AgentId, String)>) {
        let mut approvals = Self {
            options,
            human,
            gates: Vec::new(),
            shared: Arc::default(),
        };
        let warnings = approvals.rebuild(config, project_dir);
        (approvals, warnings)
    }

    /// New gates for a changed team; the run's grants and waiting asks stay.
    pub fn rebuild(
        &mut self,
        config: &Config,
        project_dir: Option<&Path>,
    ) -> Vec<(AgentId, String)> {
        let mut warnings = Vec::new();
        self.gates = config
            .agents
            .iter()
            .map(|agent| {
                let permissions = agent.backend.tools.permissions.as_ref()?;
                let (gate, warning) = self.gate_for(&agent.id, permissions, project_dir);
                warnings.extend(warning.map(|warning| (agent.id.clone(), warning)));
                Some(Arc::new(gate))
            })
            .collect();
        warnings
    }

    fn gate_for(
        &self,
        agent: &AgentId,
        config: &PermissionsConfig,
        project_dir: Option<&Path>,
    ) -> (AgentGate, Option<String>) {
        let settings_path = in_project(config.settings_path(), project_dir);
        let (saved, warning) = if config.persist_approvals {
            match load_saved_rules(&settings_path) {
                Ok(saved) => (saved, None),
                Err(why) => (
                    Vec::new(),
                    Some(format!(
                        "approvals saved for this project were not read: {why}"
                    )),
                ),
            }
        } else {
            (Vec::new(), None)
        };
        let gate = AgentGate {
            agent: agent.clone(),
            config: config.clone(),
            saved,
            settings_path,
            asker: Asker::choose(agent, config, &self.options, self.human, project_dir),
            budget: AutoBudget::new(config.max_consecutive_auto),
            shared: Arc::clone(&self.shared),
        };
        (gate, warning)
    }

    /// The gate of the agent at `index` (config order), if it has permissions.
    pub fn gate(&self, index: usize) -> Option<Arc<AgentGate>> {
        self.gates.get(index).cloned().flatten()
    }

    /// Hands a person's answer to the call waiting for `request_id`; `false` when no call
    /// waits for it (answered already, timed out, or never asked).
    pub fn answer(&self, request_id: &str, answer: ApprovalAnswer) -> bool {
        self.shared.pending.answer(request_id, answer)
    }
}

/// `path` as the run reads it: relative paths are the project directory's.
fn in_project(path: PathBuf, project_dir: Option<&Path>) -> PathBuf {
    match project_dir {
        Some(project) if path.is_relative() => project.join(path),
        _ => path,
    }
}

/// The warning an agent whose CLI runs its own tools gets at turn start: its permissions
/// cover only massgen's tools it calls through the bridge.
pub fn agent_cli_warning(agent: &AgentId, backend_type: &str) -> String {
    format!(
        "{agent}: `permissions:` applies only to massgen's tools the {backend_type} agent \
         calls through massgen, not to its own built-in tools (its shell, file edits, web \
         access)"
    )
}
