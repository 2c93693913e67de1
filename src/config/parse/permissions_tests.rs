//! `permissions:` blocks as MassGen's configs write them, layering, and their errors.

use std::time::Duration;

use crate::config::{
    ApprovalMode, AutomationDefault, Env, PermissionRole, PermissionsConfig, RuleDecision,
    from_text,
};

fn load(text: &str) -> (Vec<Option<PermissionsConfig>>, Vec<String>) {
    let loaded = from_text(text, "t.yaml", &Env::default()).unwrap();
    (
        loaded
            .config
            .agents
            .iter()
            .map(|agent| agent.backend.tools.permissions.clone())
            .collect(),
        loaded.warnings.iter().map(ToString::to_string).collect(),
    )
}

fn agent(block: &str) -> String {
    format!("agent:\n  id: a\n  backend:\n    type: scripted\n    permissions:\n{block}")
}

fn error(text: &str) -> String {
    from_text(text, "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn a_full_block_is_read_as_written() {
    let (found, warnings) = load(&agent(
        "      enabled: true\n      role: Researcher\n      automation_default: deny-all\n      \
         approval_mode: file\n      approval_dir: /tmp/appr\n      approval_timeout: 60\n      \
         audit: false\n      max_consecutive_auto: 25\n      persist_approvals: false\n      \
         settings_path: s.json\n      rules:\n        deny: [\"command(git push --force*)\"]\n        \
         ask: [\"read_url(*)\"]\n        allow: [\"write_file(./**)\", \"command(git status)\"]\n",
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    let block = found[0].clone().unwrap();
    assert_eq!(block.role, Some(PermissionRole::ReadOnly));
    assert_eq!(block.automation_default, AutomationDefault::DenyAll);
    assert_eq!(block.approval_mode, ApprovalMode::File);
    assert_eq!(block.approval_dir().to_str(), Some("/tmp/appr"));
    assert_eq!(block.approval_timeout, Duration::from_secs(60));
    assert!(!block.audit && !block.persist_approvals);
    assert_eq!(block.max_consecutive_auto, Some(25));
    assert_eq!(block.settings_path().to_str(), Some("s.json"));
    let rules: Vec<(RuleDecision, &str)> = block
        .rules
        .iter()
        .map(|rule| (rule.decision, rule.text.as_str()))
        .collect();
    assert_eq!(
        rules,
        vec![
            (RuleDecision::Allow, "write_file(./**)"),
            (RuleDecision::Allow, "command(git status)"),
            (RuleDecision::Ask, "read_url(*)"),
            (RuleDecision::Deny, "command(git push --force*)"),
        ]
    );
}

#[test]
fn true_false_and_enabled_turn_the_block_on_and_off() {
    assert_eq!(
        load(&agent("      true\n").replace("permissions:\n      true", "permissions: true")).0[0],
        Some(PermissionsConfig::default())
    );
    let off = "agent:\n  id: a\n  backend: {type: scripted, permissions: false}\n";
    assert_eq!(load(off).0[0], None);
    assert_eq!(load(&agent("      enabled: false\n")).0[0], None);
    let none = "agent:\n  id: a\n  backend: {type: scripted}\n";
    assert_eq!(load(none).0[0], None);
}

#[test]
fn the_top_level_block_applies_to_every_agent_under_its_own() {
    let (found, warnings) = load(
        "permissions:\n  role: read-only\n  approval_timeout: 30\n  rules: {deny: [\"command(rm *)\"]}\n\
         agents:\n  - id: a\n    backend: {type: scripted}\n  - id: b\n    backend:\n      \
         type: scripted\n      permissions:\n        role: implementer\n        \
         rules: {allow: [\"command(make*)\"]}\n  - id: c\n    backend: {type: scripted, permissions: {enabled: false}}\n",
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    let a = found[0].clone().unwrap();
    assert_eq!(a.role, Some(PermissionRole::ReadOnly));
    assert_eq!(a.approval_timeout, Duration::from_secs(30));
    let b = found[1].clone().unwrap();
    assert_eq!(b.role, Some(PermissionRole::ReadWrite));
    assert_eq!(b.approval_timeout, Duration::from_secs(30));
    let texts: Vec<&str> = b.rules.iter().map(|rule| rule.text.as_str()).collect();
    assert_eq!(texts, vec!["command(rm *)", "command(make*)"]);
    assert_eq!(found[2], None);
}

#[test]
fn unknown_keys_are_noted_as_ignored() {
    let (found, warnings) = load(&agent(
        "      colour: red\n      rules: {allow: [\"read_file(*)\"], maybe: [\"x\"]}\n",
    ));
    assert!(found[0].is_some());
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("ignored: unknown key `agent.backend.permissions.colour`"));
    assert!(warnings[1].contains("agent.backend.permissions.rules.maybe"));
}

#[test]
fn unreadable_rules_and_choices_are_errors_naming_line_key_and_choices() {
    let bad_rule = error(&agent(
        "      rules:\n        deny:\n          - \"command(ls\"\n",
    ));
    assert!(bad_rule.contains(":8:13:"), "{bad_rule}");
    assert!(
        bad_rule.contains("agent.backend.permissions.rules.deny[0]"),
        "{bad_rule}"
    );
    let bad_action = error(&agent("      rules: {deny: [\"run(ls)\"]}\n"));
    assert!(bad_action.contains("`run`"), "{bad_action}");
    assert!(bad_action.contains("read_url"), "{bad_action}");
    let role = error(&agent("      role: admin\n"));
    assert!(
        role.contains(":6:") && role.contains("permissions.role"),
        "{role}"
    );
    assert!(
        role.contains("read-only, researcher, read-write, implementer"),
        "{role}"
    );
    let automation = error(&agent("      automation_default: sometimes\n"));
    assert!(
        automation.contains("risk-based, deny-all, allow-all"),
        "{automation}"
    );
    let mode = error(&agent("      approval_mode: tui\n"));
    assert!(mode.contains("policy, file"), "{mode}");
    for count in ["0", "-3", "many"] {
        let cap = error(&agent(&format!("      max_consecutive_auto: {count}\n")));
        assert!(
            cap.contains("max_consecutive_auto` must be a whole number above 0"),
            "{cap}"
        );
    }
    let top = error("permissions: {role: boss}\nagent: {id: a, backend: {type: scripted}}\n");
    assert!(
        top.contains(":1:") && top.contains("`permissions.role`"),
        "{top}"
    );
    let shape = error(&agent("      - a\n"));
    assert!(shape.contains("true, false or a mapping"), "{shape}");
}
