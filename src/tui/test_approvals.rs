//! Fixtures for the approval tests: asks for a command, a write with its diff and an MCP
//! call, and decisions of each kind.

use crate::protocol::{
    Action, AgentId, ApprovalEvent, ApprovalRecord, ApprovalRequest, Decider, EventMsg, GrantScope,
    Risk, Verdict,
};

/// An ask to run `command` (asked by the rule `command(*)`).
pub fn command_request(request_id: &str, command: &str) -> ApprovalRequest {
    ApprovalRequest {
        request_id: request_id.into(),
        agent: AgentId::new("scout"),
        call_id: format!("call-{request_id}"),
        tool: "mcp__command_line__execute_command".into(),
        arguments: serde_json::json!({ "command": command }).to_string(),
        action: Action::Command,
        target: command.into(),
        risk: Risk::Medium,
        reason: "a rule asks before this command".into(),
        rule: Some("command(*)".into()),
        preview: format!("$ {command}"),
        diff: None,
        timeout_secs: 300,
        answer_file: None,
    }
}

/// A long command line, for wrapping.
pub const LONG_COMMAND: &str = "cargo test --workspace --all-features -- --nocapture \
     --test-threads=1 approvals::view::a_long_command_wraps_and_is_never_cut_silently \
     && git status --short";

/// An ask to write `src/lib.rs`, with a diff longer than a small screen.
pub fn write_request(request_id: &str) -> ApprovalRequest {
    let mut diff = String::from(
        "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,4 +1,30 @@\n //! The library.\n-pub fn old() {}\n",
    );
    for line in 1..=26 {
        diff.push_str(&format!("+pub fn added_{line}() -> u32 {{ {line} }}\n"));
    }
    diff.push_str(" // end\n");
    ApprovalRequest {
        request_id: request_id.into(),
        agent: AgentId::new("scholar"),
        call_id: format!("call-{request_id}"),
        tool: "mcp__filesystem__write_file".into(),
        arguments: r#"{"path":"src/lib.rs","content":"…"}"#.into(),
        action: Action::WriteFile,
        target: "src/lib.rs".into(),
        risk: Risk::High,
        reason: "writes outside the workspace are high risk".into(),
        rule: None,
        preview: "write src/lib.rs".into(),
        diff: Some(diff),
        timeout_secs: 120,
        answer_file: None,
    }
}

/// An ask to call an MCP tool with nested arguments.
pub fn mcp_request(request_id: &str) -> ApprovalRequest {
    ApprovalRequest {
        request_id: request_id.into(),
        agent: AgentId::new("critic"),
        call_id: format!("call-{request_id}"),
        tool: "mcp__linear__create_issue".into(),
        arguments: r#"{"title":"Approvals in the TUI","labels":["tui","permissions"],"team":{"key":"MAS","notify":true}}"#.into(),
        action: Action::Mcp,
        target: "linear/create_issue".into(),
        risk: Risk::Medium,
        reason: "a rule asks before this tool".into(),
        rule: Some("mcp(linear/*)".into()),
        preview: "linear/create_issue".into(),
        diff: None,
        timeout_secs: 60,
        answer_file: None,
    }
}

pub fn asked(request: ApprovalRequest) -> EventMsg {
    EventMsg::Approval(ApprovalEvent::Asked(request))
}

/// A person's approval of the command `ls` for the session, asked as `request_id`.
pub fn decided(request_id: Option<&str>) -> ApprovalRecord {
    ApprovalRecord {
        agent: AgentId::new("scout"),
        call_id: "call-1".into(),
        tool: "mcp__command_line__execute_command".into(),
        action: Action::Command,
        target: "ls".into(),
        pattern: "command(ls)".into(),
        risk: Risk::Medium,
        verdict: Verdict::Allow,
        decider: Decider::Human,
        scope: GrantScope::Session,
        rule: Some("command(*)".into()),
        reason: "a rule asks before this command".into(),
        asked: request_id.is_some(),
        request_id: request_id.map(Into::into),
        message: None,
        waited_ms: Some(2_400),
        preview: "$ ls".into(),
        audit: true,
    }
}

/// Decisions of several kinds: a person's approval, a hardline denial, a person's denial
/// with a message, a timeout.
pub fn decisions() -> Vec<ApprovalRecord> {
    let approved = decided(Some("r1"));
    let hardline = ApprovalRecord {
        agent: AgentId::new("scholar"),
        target: "rm -rf /".into(),
        pattern: "command(rm -rf /)".into(),
        risk: Risk::High,
        verdict: Verdict::Deny,
        decider: Decider::Hardline,
        scope: GrantScope::Once,
        rule: None,
        reason: "hardline: deletes the file system".into(),
        asked: false,
        request_id: None,
        waited_ms: None,
        preview: "$ rm -rf /".into(),
        ..decided(None)
    };
    let refused = ApprovalRecord {
        agent: AgentId::new("critic"),
        verdict: Verdict::Deny,
        scope: GrantScope::Once,
        message: Some("use the staging tracker instead".into()),
        preview: "linear/create_issue".into(),
        action: Action::Mcp,
        ..decided(Some("r2"))
    };
    let timed_out = ApprovalRecord {
        verdict: Verdict::Deny,
        decider: Decider::Timeout,
        scope: GrantScope::Once,
        preview: "$ git push origin main".into(),
        ..decided(Some("r3"))
    };
    vec![approved, hardline, refused, timed_out]
}

pub fn decided_msg(record: ApprovalRecord) -> EventMsg {
    EventMsg::Approval(ApprovalEvent::Decided(record))
}
