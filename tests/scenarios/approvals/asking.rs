//! A person at the terminal answers: approve, deny with a message, no answer in time, and an
//! `always` approval saved for the project and honoured by the next run without asking.

use super::*;
use massgen::protocol::{ApprovalAnswer, Decider, GrantScope, Verdict};

fn answer_every_ask(answer: ApprovalAnswer) -> impl Fn(&EventMsg) -> Option<Op> {
    move |msg| match msg {
        EventMsg::Approval(ApprovalEvent::Asked(request)) => Some(Op::AnswerApproval {
            request_id: request.request_id.clone(),
            answer: answer.clone(),
        }),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_call_runs_and_an_answer_nobody_waits_for_is_a_warning() {
    let config = solo_asking(&["echo approved-run"], &["command(echo *)"]);
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(&mut scenario, |msg| match msg {
        EventMsg::Approval(ApprovalEvent::Asked(request)) => Some(Op::AnswerApproval {
            request_id: request.request_id.clone(),
            answer: ApprovalAnswer::Approve {
                scope: GrantScope::Once,
            },
        }),
        // The same id again: nobody waits for it any more.
        EventMsg::Approval(ApprovalEvent::Decided(record)) => Some(Op::AnswerApproval {
            request_id: record.request_id.clone().unwrap_or_default(),
            answer: ApprovalAnswer::Deny { message: None },
        }),
        _ => None,
    })
    .await;
    let results = tool_results(&scenario, "solo");
    assert_eq!(results.len(), 1);
    assert!(results[0].1.contains("approved-run"), "{results:?}");
    let asked = asked(&events);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].timeout_secs, 30);
    assert_eq!(asked[0].agent.as_str(), "solo");
    let records = decided(&events, "solo");
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(
        (records[0].verdict, records[0].decider, records[0].asked),
        (Verdict::Allow, Decider::Human, true)
    );
    assert_eq!(records[0].request_id, Some(asked[0].request_id.clone()));
    assert!(events.iter().any(|event| matches!(&event.msg,
        EventMsg::Warning { message } if message.contains("no tool call is waiting for the approval"))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denial_with_a_message_reaches_the_agent_verbatim_and_the_call_never_runs() {
    let config = solo_asking(&["echo never-printed"], &["command(echo *)"]);
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(
        &mut scenario,
        answer_every_ask(ApprovalAnswer::Deny {
            message: Some("use the staging copy instead".into()),
        }),
    )
    .await;
    let results = tool_results(&scenario, "solo");
    assert!(
        results[0]
            .1
            .starts_with("The user denied this call: use the staging copy instead"),
        "{results:?}"
    );
    assert_eq!(ran(&events, "solo"), 0);
    assert!(
        events.iter().any(|event| matches!(&event.msg,
        EventMsg::ToolBlocked { message, .. } if message.contains("use the staging copy instead")))
    );
    let records = decided(&events, "solo");
    assert_eq!(records.len(), 1);
    assert_eq!(
        (records[0].verdict, records[0].decider),
        (Verdict::Deny, Decider::Human)
    );
    assert!(
        records[0]
            .message
            .as_deref()
            .is_some_and(|told| told.contains("use the staging copy instead"))
    );
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_ask_is_denied_when_its_time_runs_out() {
    let config = solo_asking(&["echo never-printed"], &["command(echo *)"]);
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(&mut scenario, |_| None).await;
    let results = tool_results(&scenario, "solo");
    assert!(
        results[0].1.starts_with("No answer within 30 s; denied."),
        "{results:?}"
    );
    assert_eq!(ran(&events, "solo"), 0);
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider, records[0].asked),
        (Verdict::Deny, Decider::Timeout, true)
    );
    assert_eq!(records[0].waited_ms, Some(30_000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_always_approval_is_saved_and_the_next_run_allows_the_call_by_rule_unasked() {
    let project = tempfile::tempdir().unwrap();
    let settings = project.path().join("settings.local.json");
    let block = PermissionsConfig {
        settings_path: Some(settings.clone()),
        ..permissions(&[], &["command(echo *)"], &[])
    };
    let config = || with_permissions(config(&[("solo", &["echo saved-run"])]), 0, block.clone());
    let mut first = start(config(), true, ApprovalOptions::default());
    let events = run(
        &mut first,
        answer_every_ask(ApprovalAnswer::Approve {
            scope: GrantScope::Always,
        }),
    )
    .await;
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].decider, records[0].scope),
        (Decider::Human, GrantScope::Always)
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(
        saved["permissions"]["rules"]["allow"],
        serde_json::json!(["command(echo saved-run)"])
    );

    let mut second = start(config(), true, ApprovalOptions::default());
    let events = run(&mut second, |_| None).await;
    assert!(asked(&events).is_empty());
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider, records[0].asked),
        (Verdict::Allow, Decider::Rule, false)
    );
    assert_eq!(records[0].rule.as_deref(), Some("command(echo saved-run)"));
    assert!(tool_results(&second, "solo")[0].1.contains("saved-run"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_approval_covers_the_same_call_again_unasked() {
    let config = solo_asking(&["echo again", "echo again"], &["command(echo *)"]);
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(
        &mut scenario,
        answer_every_ask(ApprovalAnswer::Approve {
            scope: GrantScope::Session,
        }),
    )
    .await;
    assert_eq!(asked(&events).len(), 1);
    let deciders = deciders(&events, "solo");
    assert_eq!(deciders, [Decider::Human, Decider::Grant]);
    assert_eq!(ran(&events, "solo"), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_is_asked_with_the_diff_it_would_make() {
    let write = serde_json::json!({"path": "notes.md", "content": "hello\n"});
    let yaml = format!(
        "agents:\n  - id: solo\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      \
         cwd: workspace\n      answers: [\"done\"]\n      \
         tool_calls:\n        - {{name: mcp__filesystem__write_file, arguments: {write}}}\n"
    );
    let config = with_permissions(
        crate::support::load(&yaml),
        0,
        permissions(&[], &["write_file(*)"], &[]),
    );
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(
        &mut scenario,
        answer_every_ask(ApprovalAnswer::Approve {
            scope: GrantScope::Once,
        }),
    )
    .await;
    let requests = asked(&events);
    assert_eq!(requests.len(), 1);
    let diff = requests[0].diff.as_deref().unwrap_or_default();
    assert!(
        diff.contains("+++ notes.md") && diff.contains("+hello"),
        "{diff}"
    );
    assert_eq!(decided(&events, "solo")[0].decider, Decider::Human);
    assert!(
        tool_results(&scenario, "solo")[0]
            .1
            .contains("Successfully wrote")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_max_consecutive_auto_a_person_is_asked_again_instead_of_a_denial() {
    let block = PermissionsConfig {
        max_consecutive_auto: Some(2),
        ..permissions(&[], &["command(echo *)"], &[])
    };
    let config = with_permissions(
        config(&[(
            "solo",
            &["echo same", "echo same", "echo same", "echo same"],
        )]),
        0,
        block,
    );
    let mut scenario = start(config, true, ApprovalOptions::default());
    let events = run(
        &mut scenario,
        answer_every_ask(ApprovalAnswer::Approve {
            scope: GrantScope::Session,
        }),
    )
    .await;
    // The first is asked and approved for the session; the next two ride that grant; the
    // fourth would be a third automatic approval in a row, so the person is asked again.
    let deciders = deciders(&events, "solo");
    assert_eq!(
        deciders,
        [
            Decider::Human,
            Decider::Grant,
            Decider::Grant,
            Decider::Human
        ]
    );
    let asked = asked(&events);
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(
        asked[1].reason.contains("2 automatic approvals in a row"),
        "{}",
        asked[1].reason
    );
    assert_eq!(ran(&events, "solo"), 4);
}
