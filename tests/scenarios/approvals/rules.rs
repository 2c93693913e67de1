//! Rules decide without asking: an allow rule lets the call run, the hardline list beats
//! `allow: ["command(*)"]`, each agent has its own rules, and `read_url(*)` catches network
//! egress however the command spells it.

use super::*;
use massgen::protocol::{Decider, Verdict};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_an_allow_rule_matches_runs_unasked() {
    let config = with_permissions(
        config(&[("solo", &["echo allowed-by-rule"])]),
        0,
        permissions(&["command(echo *)"], &[], &[]),
    );
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(&mut scenario, |_| None).await;
    assert!(asked(&events).is_empty());
    assert!(
        tool_results(&scenario, "solo")[0]
            .1
            .contains("allowed-by-rule")
    );
    let records = decided(&events, "solo");
    assert_eq!(records.len(), 1);
    assert_eq!(
        (records[0].verdict, records[0].decider, records[0].asked),
        (Verdict::Allow, Decider::Rule, false)
    );
    assert_eq!(records[0].rule.as_deref(), Some("command(echo *)"));
}

#[tokio::test(start_paused = true)]
async fn the_hardline_list_beats_an_allow_everything_rule() {
    let config = with_permissions(
        config(&[("solo", &["sudo ls"])]),
        0,
        permissions(&["command(*)"], &[], &[]),
    );
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(&mut scenario, |_| None).await;
    assert!(asked(&events).is_empty());
    assert_eq!(ran(&events, "solo"), 0);
    let results = tool_results(&scenario, "solo");
    assert!(
        results[0].1.starts_with("Denied by the hardline list"),
        "{results:?}"
    );
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider),
        (Verdict::Deny, Decider::Hardline)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_agent_is_judged_by_its_own_rules() {
    let both = config(&[("open", &["echo per-agent"]), ("shut", &["echo per-agent"])]);
    let config = with_permissions(
        with_permissions(both, 0, permissions(&["command(echo *)"], &[], &[])),
        1,
        permissions(&[], &[], &["command(echo *)"]),
    );
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(&mut scenario, |_| None).await;
    assert!(asked(&events).is_empty());
    assert!(tool_results(&scenario, "open")[0].1.contains("per-agent"));
    assert!(
        tool_results(&scenario, "shut")[0]
            .1
            .starts_with("Denied by the permission rule `command(echo *)`")
    );
    // Each round makes the call again; every call is decided once.
    let open = decided(&events, "open");
    let shut = decided(&events, "shut");
    assert!(!open.is_empty() && !shut.is_empty());
    assert_eq!(
        (ran(&events, "open"), ran(&events, "shut")),
        (open.len(), 0)
    );
    assert!(open.iter().all(|record| record.verdict == Verdict::Allow));
    assert!(shut.iter().all(|record| record.verdict == Verdict::Deny
        && record.decider == Decider::Rule
        && record.rule.as_deref() == Some("command(echo *)")));
}

#[tokio::test(start_paused = true)]
async fn network_egress_in_disguise_is_caught_by_a_read_url_rule() {
    let disguised: &[&str] = &[
        r"\c\u\r\l http://example.com/x",
        r#"python3 -c 'import urllib.request as u; u.urlopen("http://example.com")'"#,
    ];
    // Denied by a deny rule, even with every command allowed...
    let config_denied = with_permissions(
        config(&[("solo", disguised)]),
        0,
        permissions(&["command(*)"], &[], &["read_url(*)"]),
    );
    let mut scenario = start(config_denied, true, ApprovalOptions::default());
    let events = run(&mut scenario, |_| None).await;
    assert_eq!(ran(&events, "solo"), 0);
    let results = tool_results(&scenario, "solo");
    assert_eq!(results.len(), 2);
    for (_, result) in &results {
        assert!(
            result.starts_with("Denied by the permission rule `read_url(*)`"),
            "{result}"
        );
    }
    let records = decided(&events, "solo");
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|record| record.decider == Decider::Rule
        && record.verdict == Verdict::Deny
        && record.rule.as_deref() == Some("read_url(*)")));

    // ...and asked by an ask rule (here nobody answers; the ask is what matters).
    let config_asked = with_permissions(
        config(&[("solo", disguised)]),
        0,
        permissions(&[], &["read_url(*)"], &[]),
    );
    let mut scenario = start(config_asked, true, ApprovalOptions::default());
    let events = run(&mut scenario, |_| None).await;
    let requests = asked(&events);
    assert_eq!(requests.len(), 2);
    assert!(
        requests
            .iter()
            .all(|request| request.rule.as_deref() == Some("read_url(*)"))
    );
    assert_eq!(ran(&events, "solo"), 0);
}

#[tokio::test(start_paused = true)]
async fn a_permissions_block_written_in_the_yaml_guards_the_agent() {
    let yaml = format!(
        "agents:\n  - id: solo\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      \
         cwd: workspace\n      enable_mcp_command_line: true\n      answers: [\"done\"]\n      \
         tool_calls:\n        - {{name: {EXECUTE}, arguments: {{command: \"echo from-yaml\"}}}}\n      \
         permissions:\n        rules:\n          deny: [\"command(echo *)\"]\n"
    );
    let mut scenario = start(
        crate::support::load(&yaml),
        false,
        ApprovalOptions::default(),
    );
    let events = run(&mut scenario, |_| None).await;
    assert_eq!(ran(&events, "solo"), 0);
    assert!(
        tool_results(&scenario, "solo")[0]
            .1
            .starts_with("Denied by the permission rule `command(echo *)`")
    );
    let records = decided(&events, "solo");
    assert_eq!((records.len(), records[0].decider), (1, Decider::Rule));
    // The agent was told about the guardrail in its system prompt.
    let system = scenario.requests_of("solo")[0].messages[0]
        .content()
        .to_string();
    assert!(system.contains("<tool_permissions"), "{system}");
}
