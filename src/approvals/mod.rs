//! The permission engine: whether an agent's tool call is allowed, asked or denied under its
//! `permissions:` block (hardline list, rules, role, risk), and what outlives one call
//! (session grants, `always` grants saved for the project, the automatic-approval budget).
//!
//! Pure and synchronous: asking a person, the headless handshake and the ledger live with
//! the orchestrator (`orchestrator::approvals`).

mod budget;
mod grants;
mod saved;

use std::path::PathBuf;

use crate::config::{PermissionRule, PermissionsConfig};
use crate::protocol::{Action, Decider, Risk};

pub use budget::AutoBudget;
pub use grants::{SessionGrants, handshake_id};
pub use saved::{load_saved_rules, save_always};

/// Where the agent works and may write; a write anywhere else is on the hardline list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Boundary {
    /// The agent's workspace: relative paths in calls are relative to it, and rules such
    /// as `write_file(./**)` name paths inside it.
    pub workspace: Option<PathBuf>,
    /// Every directory the agent may write (the workspace first).
    pub writable: Vec<PathBuf>,
}

/// What the engine says about one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Allow,
    Ask,
    Deny,
}

/// The engine's finding about one call, with everything a request and a ledger line need.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub outcome: Outcome,
    /// `Rule`, `Hardline` or `Risk`: what settled it (or, for `Ask`, what asked).
    pub decider: Decider,
    /// The rule as written, when a rule decided or asked.
    pub rule: Option<String>,
    /// Why, in one sentence a person or the model reads.
    pub reason: String,
    pub risk: Risk,
    pub action: Action,
    /// The command line, path, URL or `server/tool` the action applies to.
    pub target: String,
    /// The stable key grants are remembered by (MassGen's `normalized_pattern`).
    pub pattern: String,
    /// `$ <command>`, or the tool and its arguments, on one line.
    pub preview: String,
}

/// One agent's rules, ready to check calls.
pub struct Engine {
    config: PermissionsConfig,
    saved: Vec<PermissionRule>,
    boundary: Boundary,
}

impl Engine {
    /// `config` is the agent's effective block, `saved` the `always` grants read back from
    /// the settings file (used only when `persist_approvals` is on).
    pub fn new(config: &PermissionsConfig, saved: Vec<PermissionRule>, boundary: Boundary) -> Self {
        Self {
            config: config.clone(),
            saved,
            boundary,
        }
    }

    /// Checks the call of `tool` with `arguments` (the JSON text the model sent).
    pub fn check(&self, tool: &str, arguments: &str) -> Check {
        let _ = (&self.config, &self.saved, &self.boundary);
        Check {
            outcome: Outcome::Ask,
            decider: Decider::Risk,
            rule: None,
            reason: "not implemented yet".into(),
            risk: Risk::Medium,
            action: Action::Mcp,
            target: tool.into(),
            pattern: tool.into(),
            preview: format!("{tool} {arguments}"),
        }
    }
}
