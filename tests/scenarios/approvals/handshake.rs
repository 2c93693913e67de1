//! The file handshake in-process: the request appears as `req_<id>.json` in the agent's
//! directory, the answer is written as `resp_<id>.json`, and the request is settled.

use std::path::{Path, PathBuf};

use super::*;
use massgen::config::ApprovalMode;
use massgen::protocol::{Decider, Verdict};

/// Answers each ask by writing `response` beside its request file, as an approver would.
fn respond_in(dir: PathBuf, response: &'static str) -> impl Fn(&EventMsg) -> Option<Op> {
    move |msg| {
        if let EventMsg::Approval(ApprovalEvent::Asked(request)) = msg {
            let agent_dir = dir.join(request.agent.as_str());
            let id = request.request_id.rsplit_once('-').unwrap().0;
            assert!(agent_dir.join(format!("req_{id}.json")).exists());
            std::fs::write(agent_dir.join(format!("resp_{id}.json")), response).unwrap();
        }
        None
    }
}

fn request_file(dir: &Path) -> serde_json::Value {
    let entry = std::fs::read_dir(dir.join("solo"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("req_")
        })
        .unwrap();
    serde_json::from_str(&std::fs::read_to_string(entry).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_written_as_a_file_lets_the_call_run() {
    let approvals = tempfile::tempdir().unwrap();
    let block = PermissionsConfig {
        approval_mode: ApprovalMode::File,
        approval_dir: Some(approvals.path().to_path_buf()),
        ..permissions(&[], &["command(echo *)"], &[])
    };
    let config = with_permissions(config(&[("solo", &["echo by-file"])]), 0, block);
    let mut scenario = start(config, false, ApprovalOptions::default());
    let events = run(
        &mut scenario,
        respond_in(approvals.path().to_path_buf(), r#"{"approved": true}"#),
    )
    .await;
    assert!(tool_results(&scenario, "solo")[0].1.contains("by-file"));
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider, records[0].asked),
        (Verdict::Allow, Decider::Human, true)
    );
    let filed = request_file(approvals.path());
    assert_eq!(filed["status"], "approved");
    assert_eq!(filed["agent_id"], "solo");
    assert_eq!(filed["tool"], EXECUTE);
}

#[tokio::test(start_paused = true)]
async fn the_command_lines_approval_dir_asks_by_file_and_feedback_reaches_the_agent() {
    let approvals = tempfile::tempdir().unwrap();
    let options = ApprovalOptions {
        dir: Some(approvals.path().to_path_buf()),
        ..ApprovalOptions::default()
    };
    let config = solo_asking(&["echo never-printed"], &["command(echo *)"]);
    // A person at the terminal too: the handshake still answers.
    let mut scenario = start(config, true, options);
    let events = run(
        &mut scenario,
        respond_in(
            approvals.path().to_path_buf(),
            r#"{"approved": false, "feedback": "not today"}"#,
        ),
    )
    .await;
    assert_eq!(ran(&events, "solo"), 0);
    let results = tool_results(&scenario, "solo");
    assert!(
        results[0]
            .1
            .starts_with("The user denied this call: not today"),
        "{results:?}"
    );
    let records = decided(&events, "solo");
    assert_eq!(
        (records[0].verdict, records[0].decider),
        (Verdict::Deny, Decider::Human)
    );
    assert_eq!(request_file(approvals.path())["status"], "denied");
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_turn_leaves_no_request_marked_pending() {
    let approvals = tempfile::tempdir().unwrap();
    let options = ApprovalOptions {
        dir: Some(approvals.path().to_path_buf()),
        ..ApprovalOptions::default()
    };
    let config = solo_asking(&["echo never-printed"], &["command(echo *)"]);
    let mut scenario = start(config, false, options);
    let events = run(&mut scenario, |msg| {
        matches!(msg, EventMsg::Approval(ApprovalEvent::Asked(_))).then_some(Op::Cancel)
    })
    .await;
    assert_eq!(ran(&events, "solo"), 0);
    // The stopped round lets go of its wait as its task ends.
    let mut status = request_file(approvals.path())["status"].clone();
    for _ in 0..50 {
        if status != "pending" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        status = request_file(approvals.path())["status"].clone();
    }
    assert_eq!(status, "cancelled");
}
