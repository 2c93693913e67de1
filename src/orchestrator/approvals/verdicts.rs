//! A gate's decision about one call: the ledger record it becomes and, for a denial, the
//! tool result the model reads instead (what denied it, and a person's message verbatim).

use std::time::Duration;

use crate::approvals::Check;
use crate::backend::ToolCall;
use crate::protocol::{AgentId, ApprovalRecord, Decider, GrantScope, Verdict};

/// Told after every denial: the guardrail in a sentence.
const DO_NOT_ROUTE_AROUND: &str = "Do not try to get the same effect another way; go on \
without it, or say in your answer what was denied and why you needed it.";

/// How one call was settled.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub denied: bool,
    pub decider: Decider,
    pub scope: GrantScope,
    pub reason: String,
    /// A person's message with their denial.
    pub message: Option<String>,
    pub request_id: Option<String>,
    pub waited_ms: Option<u64>,
    /// How long the ask waited before a timeout denied it.
    pub timeout: Option<Duration>,
}

impl Decision {
    fn new(denied: bool, decider: Decider, reason: String) -> Self {
        Self {
            denied,
            decider,
            scope: GrantScope::Once,
            reason,
            message: None,
            request_id: None,
            waited_ms: None,
            timeout: None,
        }
    }

    pub fn allowed(decider: Decider, reason: String) -> Self {
        Self::new(false, decider, reason)
    }

    pub fn denied(decider: Decider, reason: String) -> Self {
        Self::new(true, decider, reason)
    }

    /// A person approved, for `scope`.
    pub fn approved(scope: GrantScope, reason: String) -> Self {
        Self {
            scope,
            ..Self::allowed(Decider::Human, reason)
        }
    }

    pub fn with_message(mut self, message: Option<String>) -> Self {
        self.message = message
            .map(|message| message.trim().to_string())
            .filter(|message| !message.is_empty());
        self
    }

    /// The decision came after asking under `request_id`, `waited` after the ask.
    pub fn asked(mut self, request_id: String, waited: Duration) -> Self {
        self.request_id = Some(request_id);
        self.waited_ms = Some(u64::try_from(waited.as_millis()).unwrap_or(u64::MAX));
        if self.decider == Decider::Timeout {
            self.timeout = Some(waited);
        }
        self
    }

    /// The ledger line of this decision about `call`.
    pub fn record(
        &self,
        agent: &AgentId,
        call: &ToolCall,
        check: &Check,
        told: Option<String>,
        audit: bool,
    ) -> ApprovalRecord {
        ApprovalRecord {
            agent: agent.clone(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            action: check.action,
            target: check.target.clone(),
            pattern: check.pattern.clone(),
            risk: check.risk,
            verdict: if self.denied {
                Verdict::Deny
            } else {
                Verdict::Allow
            },
            decider: self.decider,
            scope: self.scope,
            rule: check.rule.clone(),
            reason: self.reason.clone(),
            asked: self.request_id.is_some(),
            request_id: self.request_id.clone(),
            message: told,
            waited_ms: self.waited_ms,
            preview: check.preview.clone(),
            audit,
        }
    }
}

/// What the model reads instead of the result of a denied call.
pub fn denial_text(decision: &Decision, check: &Check) -> String {
    let reason = decision.reason.trim_end_matches('.');
    let what = match decision.decider {
        Decider::Human => match &decision.message {
            Some(message) => format!("The user denied this call: {message}"),
            None => "The user denied this call.".to_string(),
        },
        Decider::Rule => match &check.rule {
            Some(rule) => format!("Denied by the permission rule `{rule}`: {reason}."),
            None => format!("Denied by a permission rule: {reason}."),
        },
        Decider::Hardline => {
            format!("Denied by the hardline list ({reason}); no rule or approval can allow it.")
        }
        Decider::Policy => format!("Denied by the approval policy: {reason}."),
        Decider::Timeout => format!(
            "No answer within {} s; denied.",
            decision.timeout.unwrap_or_default().as_secs()
        ),
        Decider::Budget => format!(
            "Denied: {reason}. A person must answer before more calls are approved \
             automatically."
        ),
        Decider::Risk | Decider::Grant => format!("Denied: {reason}."),
    };
    format!("{what}\n{DO_NOT_ROUTE_AROUND}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approvals::Outcome;
    use crate::protocol::{Action, Risk};

    fn check(rule: Option<&str>) -> Check {
        Check {
            outcome: Outcome::Deny,
            decider: Decider::Rule,
            rule: rule.map(str::to_string),
            reason: "matches a deny rule".into(),
            risk: Risk::High,
            action: Action::Command,
            target: "curl x".into(),
            pattern: "command:curl x".into(),
            preview: "$ curl x".into(),
        }
    }

    #[test]
    fn a_denial_names_what_denied_it_and_keeps_a_persons_words() {
        let by_rule = Decision::denied(Decider::Rule, "matches a deny rule".into());
        let text = denial_text(&by_rule, &check(Some("command(curl*)")));
        assert!(
            text.starts_with("Denied by the permission rule `command(curl*)`"),
            "{text}"
        );
        let by_person = Decision::denied(Decider::Human, "asked".into())
            .with_message(Some("  not on prod  ".into()));
        assert!(
            denial_text(&by_person, &check(None))
                .starts_with("The user denied this call: not on prod\n")
        );
        let timed_out = Decision::denied(Decider::Timeout, "asked".into())
            .asked("r-1".into(), Duration::from_secs(30));
        assert!(
            denial_text(&timed_out, &check(None)).starts_with("No answer within 30 s; denied.")
        );
    }

    #[test]
    fn the_record_says_whether_and_under_which_id_it_was_asked() {
        let call = ToolCall {
            id: "c1".into(),
            name: "mcp__command_line__execute_command".into(),
            arguments: "{}".into(),
            signature: None,
        };
        let agent = AgentId::new("a");
        let quiet = Decision::allowed(Decider::Rule, "allowed".into());
        let record = quiet.record(&agent, &call, &check(None), None, true);
        assert!(!record.asked);
        assert_eq!(record.verdict, Verdict::Allow);
        let asked = Decision::approved(GrantScope::Session, "asked".into())
            .asked("r-7".into(), Duration::from_millis(1500));
        let record = asked.record(&agent, &call, &check(None), None, false);
        assert!(record.asked);
        assert_eq!(record.request_id.as_deref(), Some("r-7"));
        assert_eq!(
            (record.scope, record.waited_ms),
            (GrantScope::Session, Some(1500))
        );
        assert!(!record.audit);
    }
}
