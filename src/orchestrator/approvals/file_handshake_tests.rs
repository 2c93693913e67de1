//! The file handshake: answers read and consumed, unreadable answers denied, timeouts and
//! cancelled calls leave the request file settled.

use std::sync::Arc;

use super::*;
use crate::orchestrator::approvals::pending::PendingApprovals;
use crate::protocol::{Action, AgentId, Risk};

fn request() -> ApprovalRequest {
    ApprovalRequest {
        request_id: "abc-1".into(),
        agent: AgentId::new("a"),
        call_id: "c1".into(),
        tool: "mcp__command_line__execute_command".into(),
        arguments: r#"{"command":"make"}"#.into(),
        action: Action::Command,
        target: "make".into(),
        risk: Risk::Medium,
        reason: "medium risk".into(),
        rule: None,
        preview: "$ make".into(),
        diff: None,
        timeout_secs: 5,
        answer_file: None,
    }
}

impl FileHandshake {
    async fn ask(
        &self,
        request: &ApprovalRequest,
        id: &str,
        pattern: &str,
        timeout: Duration,
    ) -> FileAnswer {
        let mut nobody = Arc::new(PendingApprovals::default()).register(id);
        self.file(request, id, pattern)
            .unwrap()
            .wait(timeout, &mut nobody)
            .await
    }
}

fn status(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("req_abc.json")).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["status"].clone()
}

#[tokio::test(start_paused = true)]
async fn an_answer_written_while_waiting_is_read_consumed_and_settles_the_request() {
    let dir = tempfile::tempdir().unwrap();
    let handshake = FileHandshake::new(dir.path().join("a"));
    let agent_dir = handshake.dir().to_path_buf();
    let answering = tokio::spawn(async move {
        while !agent_dir.join("req_abc.json").exists() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let filed: Value =
            serde_json::from_str(&std::fs::read_to_string(agent_dir.join("req_abc.json")).unwrap())
                .unwrap();
        assert_eq!(filed["status"], "pending");
        assert_eq!(filed["agent_id"], "a");
        assert_eq!(filed["pattern"], "command:make");
        assert_eq!(filed["request_id"], "abc-1");
        std::fs::write(
            agent_dir.join("resp_abc.json"),
            r#"{"approved": true, "scope": "session"}"#,
        )
        .unwrap();
    });
    let answer = handshake
        .ask(&request(), "abc", "command:make", Duration::from_secs(5))
        .await;
    answering.await.unwrap();
    assert_eq!(
        answer,
        FileAnswer::Answered(ApprovalAnswer::Approve {
            scope: GrantScope::Session
        })
    );
    assert!(!handshake.dir().join("resp_abc.json").exists());
    assert_eq!(status(handshake.dir()), "approved");
}

#[tokio::test(start_paused = true)]
async fn a_denial_carries_its_feedback_and_garbage_denies() {
    let dir = tempfile::tempdir().unwrap();
    let handshake = FileHandshake::new(dir.path().to_path_buf());
    std::fs::write(
        dir.path().join("resp_abc.json"),
        r#"{"allowed": false, "feedback": "use the staging host"}"#,
    )
    .unwrap();
    let answer = handshake
        .ask(&request(), "abc", "command:make", Duration::from_secs(5))
        .await;
    assert_eq!(
        answer,
        FileAnswer::Answered(ApprovalAnswer::Deny {
            message: Some("use the staging host".into())
        })
    );
    assert_eq!(status(dir.path()), "denied");
    std::fs::write(dir.path().join("resp_abc.json"), "yes please").unwrap();
    let garbage = handshake
        .ask(&request(), "abc", "command:make", Duration::from_secs(5))
        .await;
    assert!(matches!(garbage, FileAnswer::Unreadable(_)), "{garbage:?}");
}

#[tokio::test(start_paused = true)]
async fn no_answer_times_out_and_a_cancelled_wait_is_not_left_pending() {
    let dir = tempfile::tempdir().unwrap();
    let handshake = FileHandshake::new(dir.path().to_path_buf());
    let answer = handshake
        .ask(&request(), "abc", "command:make", Duration::from_secs(2))
        .await;
    assert_eq!(answer, FileAnswer::TimedOut);
    assert_eq!(status(dir.path()), "timeout");

    let asked = request();
    let waiting = handshake.ask(&asked, "abc", "command:make", Duration::from_secs(60));
    let _ = tokio::time::timeout(Duration::from_secs(1), waiting).await;
    assert_eq!(status(dir.path()), "cancelled");
}

#[tokio::test(start_paused = true)]
async fn a_person_in_the_tui_may_answer_a_filed_request() {
    let dir = tempfile::tempdir().unwrap();
    let handshake = FileHandshake::new(dir.path().to_path_buf());
    let pending = Arc::new(PendingApprovals::default());
    let mut waiting = pending.register("abc-1");
    let filed = handshake.file(&request(), "abc", "command:make").unwrap();
    let answering = {
        let pending = Arc::clone(&pending);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(1)).await;
            pending.answer(
                "abc-1",
                ApprovalAnswer::Approve {
                    scope: GrantScope::Session,
                },
            )
        })
    };
    let answer = filed.wait(Duration::from_secs(5), &mut waiting).await;
    assert!(answering.await.unwrap());
    assert_eq!(
        answer,
        FileAnswer::Answered(ApprovalAnswer::Approve {
            scope: GrantScope::Session
        })
    );
    assert_eq!(status(dir.path()), "approved");
}
