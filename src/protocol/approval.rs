//! Tool approvals as front ends and logs see them: what an agent's call is asking for
//! ([`ApprovalRequest`]), the user's answer ([`ApprovalAnswer`]), and every decision the
//! permission engine, a policy or a person made ([`ApprovalRecord`], one ledger line).

use serde::{Deserialize, Serialize};

use super::ids::AgentId;

/// What a tool call does, as permission rules name it (`command(git status)`,
/// `write_file(./**)`, `read_url(*)`, `mcp(linear/*)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Command,
    ReadFile,
    WriteFile,
    ReadUrl,
    /// Any other MCP or custom tool, named `server/tool`.
    Mcp,
}

impl Action {
    pub const ALL: [Self; 5] = [
        Self::Command,
        Self::ReadFile,
        Self::WriteFile,
        Self::ReadUrl,
        Self::Mcp,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Command => "command",
            Self::ReadFile => "read_file",
            Self::WriteFile => "write_file",
            Self::ReadUrl => "read_url",
            Self::Mcp => "mcp",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|action| action.as_str() == name)
    }
}

/// How much harm a call can do if it goes wrong (MassGen's blast-radius tiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Risk {
    Low,
    Medium,
    High,
}

impl Risk {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
        }
    }
}

/// How long an approval lasts: this call, the rest of the session, or — `always` — for
/// this project from now on (saved as an allow rule in `.massgen/settings.local.json`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrantScope {
    #[default]
    Once,
    Session,
    Always,
}

impl GrantScope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Once => "once",
            Self::Session => "session",
            Self::Always => "always",
        }
    }
}

/// A call waiting for a person (or the headless handshake) to allow or deny it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApprovalRequest {
    /// Unique within the run; what [`super::Op::AnswerApproval`] names.
    pub request_id: String,
    pub agent: AgentId,
    pub call_id: String,
    /// The tool as the model called it (`mcp__command_line__execute_command`).
    pub tool: String,
    /// The call's arguments, as the model sent them (JSON text).
    pub arguments: String,
    pub action: Action,
    /// What the action is applied to: the command line, the path, the URL, `server/tool`.
    pub target: String,
    pub risk: Risk,
    /// Why it was asked: the rule that says `ask`, or the risk the classifier saw.
    pub reason: String,
    /// The rule as written in the config (`command(npm publish*)`), when a rule asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// One line a person reads first: `$ git push origin main`, or the tool and arguments.
    pub preview: String,
    /// For writes to a file: the change as a unified diff against the file on disk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Seconds until an unanswered request is denied.
    pub timeout_secs: u64,
    /// Where the answer goes when the ask is a file handshake (`…/resp_<id>.json`); `None`
    /// when a person in the app answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_file: Option<std::path::PathBuf>,
}

/// A person's answer to an [`ApprovalRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum ApprovalAnswer {
    Approve {
        #[serde(default)]
        scope: GrantScope,
    },
    /// The message, when given, reaches the agent as the call's result.
    Deny {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
}

/// Allowed or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Allow,
    Deny,
}

/// Who (or what) made a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    /// An allow or deny rule (the config's, a role's, or a saved `always` grant).
    Rule,
    /// The hardline list, which no rule can allow.
    Hardline,
    /// No rule matched and the classifier found the call low-risk.
    Risk,
    /// A person in the TUI or through the file handshake.
    Human,
    /// The headless policy (`automation_default`: risk-based, deny-all, allow-all).
    Policy,
    /// An earlier `session` or `always` approval of the same call.
    Grant,
    /// `max_consecutive_auto` automatic approvals in a row: denied until a person answers.
    Budget,
    /// Nobody answered in time.
    Timeout,
}

impl Decider {
    /// MassGen's ledger `operator` for this decider.
    pub fn operator(self) -> &'static str {
        match self {
            Self::Rule => "rule",
            Self::Hardline => "hardline",
            Self::Risk => "risk",
            Self::Human => "human",
            Self::Policy => "policy",
            Self::Grant => "cache",
            Self::Budget => "budget",
            Self::Timeout => "timeout",
        }
    }
}

/// One decision about one tool call: a line of the turn's approval ledger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApprovalRecord {
    pub agent: AgentId,
    pub call_id: String,
    pub tool: String,
    pub action: Action,
    pub target: String,
    /// The stable key grants are remembered by (MassGen's ledger `normalized_pattern`).
    pub pattern: String,
    pub risk: Risk,
    pub verdict: Verdict,
    pub decider: Decider,
    /// How long an approval lasts (`once` for denials and automatic allows).
    pub scope: GrantScope,
    /// The rule that decided or asked, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Why: the rule, the hardline entry, the risk, the policy.
    pub reason: String,
    /// Whether the call was put to a person or the handshake before the decision.
    pub asked: bool,
    /// The request's id when it was asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// What the agent was told when denied (a person's message, the policy's reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Milliseconds between the ask and the answer, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited_ms: Option<u64>,
    pub preview: String,
    /// `false` when the agent's block says `audit: false`: shown, never written to the
    /// ledger.
    #[serde(default = "audited", skip_serializing_if = "is_audited")]
    pub audit: bool,
}

fn audited() -> bool {
    true
}

fn is_audited(audit: &bool) -> bool {
    *audit
}

/// What happened to a tool call at the permission check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ApprovalEvent {
    /// The call waits for an answer; `Decided` with the same `request_id` follows.
    Asked(ApprovalRequest),
    /// A decision, asked or not (every checked call gets one).
    Decided(ApprovalRecord),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_their_rule_names() {
        for action in Action::ALL {
            assert_eq!(Action::parse(action.as_str()), Some(action));
        }
        assert_eq!(Action::parse("shell"), None);
    }

    #[test]
    fn answers_read_as_a_handshake_writes_them() {
        let approve: ApprovalAnswer =
            serde_json::from_str(r#"{"answer":"approve","scope":"session"}"#).unwrap();
        assert_eq!(
            approve,
            ApprovalAnswer::Approve {
                scope: GrantScope::Session
            }
        );
        let deny: ApprovalAnswer = serde_json::from_str(r#"{"answer":"deny"}"#).unwrap();
        assert_eq!(deny, ApprovalAnswer::Deny { message: None });
    }
}
