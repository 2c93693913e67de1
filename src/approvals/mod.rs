//! The permission engine: whether an agent's tool call is allowed, asked or denied under its
//! `permissions:` block (hardline list, rules, role, risk), and what outlives one call
//! (session grants, `always` grants saved for the project, the automatic-approval budget).
//!
//! Pure and synchronous: asking a person, the headless handshake and the ledger live with
//! the orchestrator (`orchestrator::approvals`).

use std::path::PathBuf;

use crate::config::{PermissionRule, PermissionsConfig};
use crate::protocol::{Action, Decider, Risk};

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
    writable_roots: Vec<PathBuf>,
}

impl Engine {
    /// `config` is the agent's effective block, `saved` the `always` grants read back from
    /// the settings file, `writable_roots` where the agent may write (writes elsewhere are
    /// on the hardline list).
    pub fn new(
        config: &PermissionsConfig,
        saved: Vec<PermissionRule>,
        writable_roots: Vec<PathBuf>,
    ) -> Self {
        Self {
            config: config.clone(),
            saved,
            writable_roots,
        }
    }

    /// Checks the call of `tool` with `arguments` (the JSON text the model sent).
    pub fn check(&self, tool: &str, arguments: &str) -> Check {
        let _ = (&self.config, &self.saved, &self.writable_roots);
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
