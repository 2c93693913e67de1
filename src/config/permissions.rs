//! A `permissions:` block as the config gives it (MassGen 0.1.97's keys), per agent under
//! `backend:` and once for every agent at the top level: allow / ask / deny rules, a role,
//! what a headless run does with an ask, the audit ledger and the approval budget.

use std::path::PathBuf;
use std::time::Duration;

use crate::protocol::Action;

/// How long an ask waits for an answer before it is denied (MassGen's file handshake
/// waits 300 s).
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);
/// Where approval requests and responses go in `approval_mode: file` (MassGen's default).
pub const DEFAULT_APPROVAL_DIR: &str = ".massgen/approvals";
/// Where `always` approvals are saved and read back (MassGen's default).
pub const DEFAULT_SETTINGS_PATH: &str = ".massgen/settings.local.json";

/// What a rule says about the calls it matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleDecision {
    Allow,
    Ask,
    Deny,
}

impl RuleDecision {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Deny => "deny",
        }
    }
}

/// One `action(pattern)` rule: `command(git push --force*)`, `write_file(./**)`,
/// `read_url(*)`, `mcp(linear/*)`, or `*(…)` for any action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermissionRule {
    pub decision: RuleDecision,
    /// `None` for `*`: every action.
    pub action: Option<Action>,
    /// The glob inside the parentheses; `*` when the rule names only the action.
    pub pattern: String,
    /// The rule as written, for messages and the ledger.
    pub text: String,
}

impl PermissionRule {
    /// Reads `action(pattern)`, or a bare action (any target); the error says what is wrong.
    pub fn parse(text: &str, decision: RuleDecision) -> Result<Self, String> {
        let trimmed = text.trim();
        let (name, pattern) = match trimmed.split_once('(') {
            Some((name, rest)) => match rest.strip_suffix(')') {
                Some(pattern) => (name.trim(), pattern.to_string()),
                None => return Err(format!("`{trimmed}` opens `(` but does not end with `)`")),
            },
            None => (trimmed, "*".to_string()),
        };
        let action = match name {
            "*" => None,
            other => Some(Action::parse(other).ok_or_else(|| {
                let known: Vec<&str> = Action::ALL.iter().map(|action| action.as_str()).collect();
                format!(
                    "`{trimmed}` names the action `{other}`; rules name one of {} or `*`",
                    known.join(", ")
                )
            })?),
        };
        Ok(Self {
            decision,
            action,
            pattern,
            text: trimmed.to_string(),
        })
    }
}

/// A role preset (`role:`), layered under the agent's own rules with deny winning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermissionRole {
    /// `read-only` (alias `researcher`): reads allowed, writes and commands denied, URLs
    /// asked.
    ReadOnly,
    /// `read-write` (alias `implementer`): no preset rules.
    ReadWrite,
}

/// What an ask becomes when nobody can answer it (MassGen's `automation_default`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AutomationDefault {
    /// High-risk calls denied, low and medium allowed.
    #[default]
    RiskBased,
    DenyAll,
    AllowAll,
}

impl AutomationDefault {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::RiskBased => "risk-based",
            Self::DenyAll => "deny-all",
            Self::AllowAll => "allow-all",
        }
    }
}

/// How a headless run asks (MassGen's `approval_mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ApprovalMode {
    /// `automation_default` decides; in the TUI a person is asked instead.
    #[default]
    Policy,
    /// `req_<id>.json` / `resp_<id>.json` in `approval_dir/<agent>/`, in every front end.
    File,
}

/// One `permissions:` block.
#[derive(Clone, Debug, PartialEq)]
pub struct PermissionsConfig {
    /// `enabled: false` turns the block off (present means on, as in MassGen).
    pub enabled: bool,
    pub role: Option<PermissionRole>,
    /// `rules.allow`, `rules.ask` and `rules.deny`, in that order within each list.
    pub rules: Vec<PermissionRule>,
    pub automation_default: AutomationDefault,
    pub approval_mode: ApprovalMode,
    /// `approval_dir`; [`DEFAULT_APPROVAL_DIR`] when absent.
    pub approval_dir: Option<PathBuf>,
    /// `approval_timeout` (seconds; massgen's): how long an ask waits before it is denied.
    pub approval_timeout: Duration,
    /// `audit`: record every decision in the turn's `approvals.jsonl` (default on).
    pub audit: bool,
    /// `max_consecutive_auto`: automatic approvals in a row per agent before the next is
    /// denied until a person answers; `None` is unlimited.
    pub max_consecutive_auto: Option<u32>,
    /// `persist_approvals`: `always` approvals are saved and read back (default on).
    pub persist_approvals: bool,
    /// `settings_path`; [`DEFAULT_SETTINGS_PATH`] when absent.
    pub settings_path: Option<PathBuf>,
}

impl Default for PermissionsConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            role: None,
            rules: Vec::new(),
            automation_default: AutomationDefault::default(),
            approval_mode: ApprovalMode::default(),
            approval_dir: None,
            approval_timeout: DEFAULT_APPROVAL_TIMEOUT,
            audit: true,
            max_consecutive_auto: None,
            persist_approvals: true,
            settings_path: None,
        }
    }
}

impl PermissionsConfig {
    pub fn approval_dir(&self) -> PathBuf {
        self.approval_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_APPROVAL_DIR))
    }

    pub fn settings_path(&self) -> PathBuf {
        self.settings_path
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_SETTINGS_PATH))
    }
}
