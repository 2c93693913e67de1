//! Nobody at the terminal: the policy answers asks (`automation_default`, or the command
//! line's `--approval-policy`), and `max_consecutive_auto` caps its automatic approvals.

use super::*;
use massgen::config::AutomationDefault;
use massgen::protocol::{Decider, Verdict};

fn asking_config(commands: &[&str], block: PermissionsConfig) -> Config {
    with_permissions(config(&[("solo", commands)]), 0, block)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn risk_based_allows_a_medium_or_low_risk_ask_without_asking_anyone() {
    let block = permissions(&[], &["command(echo *)"], &[]);
    let mut scenario = start(
        asking_config(&["echo policy-allowed"], block),
        false,
        ApprovalOptions::default(),
    );
    let events = run(&mut scenario, |_| None).await;
    assert!(asked(&events).is_empty());
    assert!(
        tool_results(&scenario, "solo")[0]
            .1
            .contains("policy-allowed")
    );
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider, records[0].asked),
        (Verdict::Allow, Decider::Policy, false)
    );
}

#[tokio::test(start_paused = true)]
async fn risk_based_denies_a_high_risk_ask() {
    let block = permissions(&[], &["command(rm *)"], &[]);
    let mut scenario = start(
        asking_config(&["rm -rf build"], block),
        false,
        ApprovalOptions::default(),
    );
    let events = run(&mut scenario, |_| None).await;
    assert_eq!(ran(&events, "solo"), 0);
    let results = tool_results(&scenario, "solo");
    assert!(
        results[0].1.starts_with("Denied by the approval policy"),
        "{results:?}"
    );
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider),
        (Verdict::Deny, Decider::Policy)
    );
}

#[tokio::test(start_paused = true)]
async fn the_command_lines_deny_all_replaces_the_configs_allow_all() {
    let block = PermissionsConfig {
        automation_default: AutomationDefault::AllowAll,
        ..permissions(&[], &["command(echo *)"], &[])
    };
    let options = ApprovalOptions {
        policy: Some(AutomationDefault::DenyAll),
        ..ApprovalOptions::default()
    };
    let mut scenario = start(
        asking_config(&["echo never-printed"], block),
        false,
        options,
    );
    let events = run(&mut scenario, |_| None).await;
    assert_eq!(ran(&events, "solo"), 0);
    let results = tool_results(&scenario, "solo");
    assert!(results[0].1.contains("deny-all"), "{results:?}");
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider),
        (Verdict::Deny, Decider::Policy)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_all_runs_even_a_high_risk_ask() {
    let block = PermissionsConfig {
        automation_default: AutomationDefault::AllowAll,
        ..permissions(&[], &["command(rm *)"], &[])
    };
    let mut scenario = start(
        asking_config(&["rm -rf no-such-build-dir"], block),
        false,
        ApprovalOptions::default(),
    );
    let events = run(&mut scenario, |_| None).await;
    assert_eq!(ran(&events, "solo"), 1);
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider),
        (Verdict::Allow, Decider::Policy)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_budget_denies_automatic_approvals_past_max_consecutive_auto() {
    let block = PermissionsConfig {
        max_consecutive_auto: Some(2),
        ..permissions(&[], &["command(echo *)"], &[])
    };
    let mut scenario = start(
        asking_config(&["echo one", "echo two", "echo three"], block),
        false,
        ApprovalOptions::default(),
    );
    let events = run(&mut scenario, |_| None).await;
    let results = tool_results(&scenario, "solo");
    assert!(results[0].1.contains("one") && results[1].1.contains("two"));
    assert!(
        results[2].1.contains("2 automatic approvals in a row"),
        "{results:?}"
    );
    let deciders = deciders(&events, "solo");
    assert_eq!(
        deciders,
        [Decider::Policy, Decider::Policy, Decider::Budget]
    );
    assert_eq!(ran(&events, "solo"), 2);
}
