//! Tests for the engine's verdicts: hardline, rules, roles and risk together.

use std::path::PathBuf;

use super::*;
use crate::config::PermissionRole;

const SHELL: &str = "mcp__command_line__execute_command";

fn config(rules: &[(&str, RuleDecision)]) -> PermissionsConfig {
    PermissionsConfig {
        rules: rules
            .iter()
            .map(|(text, decision)| PermissionRule::parse(text, *decision).unwrap())
            .collect(),
        ..PermissionsConfig::default()
    }
}

fn boundary() -> Boundary {
    Boundary {
        workspace: Some(PathBuf::from("/ws")),
        writable: vec![PathBuf::from("/ws"), PathBuf::from("/shared")],
    }
}

fn run(engine: &Engine, command: &str) -> Check {
    engine.check(
        SHELL,
        &serde_json::json!({ "command": command }).to_string(),
    )
}

#[test]
fn evasions_of_a_command_rule_are_still_matched() {
    let engine = Engine::new(
        &config(&[("command(curl*)", RuleDecision::Deny)]),
        Vec::new(),
        boundary(),
    );
    for command in [
        r"\c\u\r\l x",
        "/usr/bin/curl x",
        "env A=1 timeout 5 curl x",
        "c''url x",
        "$'\\x63url' x",
        "echo $(curl x)",
        "ls; bash -c 'curl x'",
    ] {
        let check = run(&engine, command);
        assert_eq!(check.outcome, Outcome::Deny, "{command}");
        assert_eq!(check.decider, Decider::Rule);
        assert_eq!(check.rule.as_deref(), Some("command(curl*)"));
    }
    let raw = Engine::new(
        &config(&[("command(/usr/bin/curl *)", RuleDecision::Deny)]),
        Vec::new(),
        boundary(),
    );
    assert_eq!(run(&raw, "/usr/bin/curl x").outcome, Outcome::Deny);
}

#[test]
fn inline_code_and_nested_shells_reach_read_url_rules_and_roles() {
    let python = r#"python3 -c 'import urllib.request as u; u.urlopen("http://x")'"#;
    let asking = Engine::new(
        &config(&[("read_url(*)", RuleDecision::Ask)]),
        Vec::new(),
        boundary(),
    );
    let read_only = Engine::new(
        &PermissionsConfig {
            role: Some(PermissionRole::ReadOnly),
            ..PermissionsConfig::default()
        },
        Vec::new(),
        boundary(),
    );
    for command in [python, "bash -c \"wget x\""] {
        let asked = run(&asking, command);
        assert_eq!(
            (asked.outcome, asked.decider),
            (Outcome::Ask, Decider::Rule),
            "{command}"
        );
        assert_eq!(asked.action, Action::ReadUrl);
        let denied = run(&read_only, command);
        assert_eq!(denied.outcome, Outcome::Deny, "{command}");
        assert_eq!(denied.rule.as_deref(), Some("command(*)"));
    }
}

#[test]
fn a_force_push_is_denied_by_its_rule_and_sudo_by_the_hardline() {
    let engine = Engine::new(
        &config(&[
            ("command(git push --force*)", RuleDecision::Deny),
            ("command(*)", RuleDecision::Allow),
        ]),
        Vec::new(),
        boundary(),
    );
    let push = run(&engine, "git push --force origin main");
    assert_eq!((push.outcome, push.decider), (Outcome::Deny, Decider::Rule));
    assert_eq!(push.pattern, "command:git push --force origin main");
    assert_eq!(push.preview, "$ git push --force origin main");
    let sudo = run(&engine, "sudo ls");
    assert_eq!(
        (sudo.outcome, sudo.decider),
        (Outcome::Deny, Decider::Hardline)
    );
    assert!(
        sudo.reason.contains("privilege escalation"),
        "{}",
        sudo.reason
    );
    let bomb = run(&engine, ":(){ :|:& };:");
    assert_eq!(bomb.decider, Decider::Hardline);
    let allowed = run(&engine, "make build");
    assert_eq!(
        (allowed.outcome, allowed.decider),
        (Outcome::Allow, Decider::Rule)
    );
    assert_eq!(allowed.rule.as_deref(), Some("command(*)"));
}

#[test]
fn writes_outside_the_boundary_are_hardline_whatever_the_rules() {
    let engine = Engine::new(
        &config(&[("write_file(*)", RuleDecision::Allow)]),
        Vec::new(),
        boundary(),
    );
    let write = |path: &str| {
        engine.check(
            "mcp__filesystem__write_file",
            &serde_json::json!({"path": path, "content": "x"}).to_string(),
        )
    };
    for path in ["/etc/passwd", "../outside.txt", "/ws/../etc/x"] {
        let check = write(path);
        assert_eq!(
            (check.outcome, check.decider),
            (Outcome::Deny, Decider::Hardline),
            "{path}"
        );
    }
    for path in ["a.txt", "/ws/src/a.rs", "/shared/notes.md"] {
        assert_eq!(write(path).outcome, Outcome::Allow, "{path}");
    }
    let check = write("a.txt");
    assert_eq!(check.pattern, "mcp__filesystem__write_file:a.txt");
    assert!(check.preview.starts_with("mcp__filesystem__write_file {"));
}

#[test]
fn workspace_path_rules_match_relative_and_absolute_spellings() {
    let engine = Engine::new(
        &config(&[("write_file(./**)", RuleDecision::Ask)]),
        Vec::new(),
        Boundary {
            workspace: Some(PathBuf::from("/ws")),
            writable: Vec::new(),
        },
    );
    let write = |path: &str| {
        engine
            .check(
                "mcp__filesystem__write_file",
                &serde_json::json!({ "path": path }).to_string(),
            )
            .decider
    };
    assert_eq!(write("src/a.rs"), Decider::Rule);
    assert_eq!(write("/ws/src/a.rs"), Decider::Rule);
    assert_eq!(write("/tmp/a.rs"), Decider::Risk);
}

#[test]
fn unmatched_calls_fall_to_the_risk_classifier() {
    let engine = Engine::new(&config(&[]), Vec::new(), boundary());
    let status = run(&engine, "git status");
    assert_eq!(
        (status.outcome, status.decider, status.risk),
        (Outcome::Allow, Decider::Risk, Risk::Low)
    );
    let curl = run(&engine, "ls && curl https://x.test");
    assert_eq!((curl.outcome, curl.risk), (Outcome::Ask, Risk::High));
    assert_eq!(curl.reason, "high risk: network egress (curl)");
    assert_eq!(curl.target, "curl https://x.test");
    let make = run(&engine, "make");
    assert_eq!((make.outcome, make.risk), (Outcome::Ask, Risk::Medium));
    let read = engine.check(
        "mcp__filesystem__read_text_file",
        r#"{"path": "/etc/hosts"}"#,
    );
    assert_eq!((read.outcome, read.risk), (Outcome::Allow, Risk::Low));
}

#[test]
fn an_allowed_command_carries_its_url_unless_a_url_rule_speaks() {
    let allowing = Engine::new(
        &config(&[("command(curl *)", RuleDecision::Allow)]),
        Vec::new(),
        boundary(),
    );
    assert_eq!(
        run(&allowing, "curl https://x.test").outcome,
        Outcome::Allow
    );
    let denying = Engine::new(
        &config(&[
            ("command(curl *)", RuleDecision::Allow),
            ("read_url(*evil*)", RuleDecision::Deny),
        ]),
        Vec::new(),
        boundary(),
    );
    let check = run(&denying, "curl https://evil.test");
    assert_eq!(
        (check.outcome, check.action),
        (Outcome::Deny, Action::ReadUrl)
    );
}

#[test]
fn saved_rules_count_only_when_approvals_persist() {
    let saved = vec![PermissionRule::parse("command(make build)", RuleDecision::Allow).unwrap()];
    let persisting = Engine::new(&config(&[]), saved.clone(), boundary());
    assert_eq!(run(&persisting, "make build").decider, Decider::Rule);
    let forgetting = Engine::new(
        &PermissionsConfig {
            persist_approvals: false,
            ..PermissionsConfig::default()
        },
        saved,
        boundary(),
    );
    assert_eq!(run(&forgetting, "make build").decider, Decider::Risk);
}

#[test]
fn mcp_rules_match_server_tool_or_the_full_name() {
    let engine = Engine::new(
        &config(&[
            ("mcp(linear/*)", RuleDecision::Allow),
            ("mcp(mcp__github__delete_repo)", RuleDecision::Deny),
        ]),
        Vec::new(),
        boundary(),
    );
    assert_eq!(
        engine.check("mcp__linear__create_issue", "{}").outcome,
        Outcome::Allow
    );
    assert_eq!(
        engine.check("mcp__github__delete_repo", "{}").outcome,
        Outcome::Deny
    );
    let other = engine.check("mcp__github__create_pr", "not json");
    assert_eq!(
        (other.outcome, other.target.as_str()),
        (Outcome::Ask, "github/create_pr")
    );
    assert_eq!(other.pattern, "mcp__github__create_pr");
}
