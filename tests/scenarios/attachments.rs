//! Files attached to the question (`@pic.png`) and a backend's `upload_files`: each agent
//! taking part is told once per turn which files its question carries (`AttachmentsSent`),
//! by name, kind and size, never by their bytes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use crate::support::{Scenario, assert_completed};
use massgen::protocol::{
    AgentId, Attachment, ContextPath, Event, EventMsg, MediaKind, Mode, Op, TurnOptions,
};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n-secret-pixels-";

fn agents(upload: &Path) -> String {
    format!(
        "agents:\n  - id: a\n    backend: {{type: scripted, tokens_per_second: 0, answer: A}}\n  \
         - id: b\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      \
         answer: B\n      upload_files: [{{file_path: \"{}\"}}]\n",
        upload.display()
    )
}

async fn submit(scenario: &mut Scenario, text: &str, paths: &[&Path]) -> Vec<Event> {
    let context_paths = paths
        .iter()
        .map(|path| ContextPath {
            path: path.to_path_buf(),
            writable: false,
        })
        .collect();
    let op = Op::Submit {
        text: text.into(),
        mode: Mode::Normal,
        context_paths,
        options: TurnOptions::default(),
    };
    scenario.handle.ops.send(op).await.unwrap();
    let mut events = Vec::new();
    while let Some(event) = scenario.handle.events.recv().await {
        let done = matches!(event.msg, EventMsg::TurnFinished { .. });
        events.push(event);
        if done {
            break;
        }
    }
    events
}

fn sent(events: &[Event]) -> Vec<(AgentId, Vec<Attachment>)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AttachmentsSent { attachments } => {
                Some((event.agent.clone()?, attachments.clone()))
            }
            _ => None,
        })
        .collect()
}

fn names(attachments: &[Attachment]) -> Vec<(&str, MediaKind, u64)> {
    attachments
        .iter()
        .map(|attachment| (attachment.name.as_str(), attachment.kind, attachment.size))
        .collect()
}

#[tokio::test(start_paused = true)]
async fn each_agent_is_announced_its_attachments_once_without_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let pic = dir.path().join("pic.png");
    std::fs::write(&pic, PNG).unwrap();
    let report = dir.path().join("report.pdf");
    std::fs::write(&report, b"%PDF-1.7\nbody").unwrap();
    let yaml = agents(&report);
    let mut scenario = Scenario::start_with_tools(dir, &yaml);
    let events = submit(&mut scenario, "What is in @pic.png?", &[&pic]).await;
    assert_completed(&events);
    let sent = sent(&events);
    assert_eq!(sent.len(), 2, "once per agent: {sent:?}");
    assert_eq!(sent[0].0.as_str(), "a");
    assert_eq!(names(&sent[0].1), [("pic.png", MediaKind::Image, 23)]);
    assert_eq!(sent[1].0.as_str(), "b");
    assert_eq!(
        names(&sent[1].1),
        [
            ("pic.png", MediaKind::Image, 23),
            ("report.pdf", MediaKind::Pdf, 13)
        ]
    );
    let first_round = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::RoundStarted { .. }))
        .unwrap();
    let announced = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::AttachmentsSent { .. }))
        .unwrap();
    assert!(announced < first_round, "announced before the agents start");
    let json = serde_json::to_string(&events).unwrap();
    assert!(json.contains("\"type\":\"attachments_sent\""), "{json}");
    assert!(
        !json.contains("LXNlY3JldC1waXhlbHMt"),
        "no base64 of the bytes"
    );
    // What the card is told is what the agent was sent.
    let asked = scenario.requests_of("a")[0].messages.clone();
    assert!(
        asked
            .iter()
            .any(|message| format!("{message:?}").contains("pic.png")),
        "the question carries the image"
    );
}

#[tokio::test(start_paused = true)]
async fn a_question_without_files_announces_none() {
    let mut scenario =
        Scenario::start("agent:\n  id: a\n  backend: {type: scripted, tokens_per_second: 0}\n");
    let events = submit(&mut scenario, "plain question", &[]).await;
    assert_completed(&events);
    assert!(sent(&events).is_empty());
}
