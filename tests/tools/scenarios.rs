//! Whole turns where scripted agents use their tools: workspaces, peers' snapshots under
//! anonymous names, and write access to context paths only for the winner's presentation.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::PathBuf;

use crate::support::cancel::run_and_cancel_at;
use crate::support::{Scenario, attempt_dir, outcome, winner};
use massgen::protocol::{EventMsg, McpServerState, TurnOutcome};

/// `<dir>/<name>/`, created holding `file` with `content`.
fn folder_with(dir: &tempfile::TempDir, name: &str, file: &str, content: &str) -> PathBuf {
    let folder = dir.path().join(name);
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join(file), content).unwrap();
    folder
}

/// Every tool call's `(tool, ok, output)`, in order.
pub(crate) fn tool_results(events: &[massgen::protocol::Event]) -> Vec<(String, bool, String)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd {
                tool, ok, output, ..
            } => Some((tool.clone(), *ok, output.clone())),
            _ => None,
        })
        .collect()
}

/// `turn_N/` of the one session under the project `root`.
fn session_turn(root: &std::path::Path, turn: u32) -> PathBuf {
    let session = fs::read_dir(root.join(".massgen/sessions"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    session.join(format!("turn_{turn}"))
}

fn temp_dir_of(events: &[massgen::protocol::Event], agent: &str) -> PathBuf {
    events
        .iter()
        .find_map(|event| match (&event.msg, &event.agent) {
            (EventMsg::WorkspaceAssigned { temp, .. }, Some(id)) if id.as_str() == agent => {
                Some(temp.clone())
            }
            _ => None,
        })
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_share_work_through_snapshots_and_only_the_winner_writes_the_context_path() {
    let dir = tempfile::tempdir().unwrap();
    let context = folder_with(&dir, "project_docs", "brief.md", "the user's brief");
    let ctx = context.display();
    let yaml = format!(
        r#"
agents:
  - id: alice
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      answers: ["Alice's answer: see notes.md"]
      vote_for: bob
      tool_calls:
        - {{name: mcp__filesystem__write_file, arguments: {{path: notes.md, content: "alice was here"}}}}
        - {{name: mcp__filesystem__write_file, arguments: {{path: "{ctx}/early.txt", content: "too early"}}}}
  - id: bob
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      answers: ["Bob's answer: see plan.md"]
      vote_for: bob
      tool_calls:
        - {{name: mcp__filesystem__read_text_file, arguments: {{path: "{ctx}/brief.md"}}}}
        - {{name: mcp__filesystem__write_file, arguments: {{path: plan.md, content: "bob's plan"}}}}
      final_tool_calls:
        - {{name: mcp__filesystem__write_file, arguments: {{path: "{ctx}/result.md", content: "final from bob"}}}}
orchestrator:
  context_paths:
    - {{path: "{ctx}", permission: write}}
"#
    );
    let mut scenario = Scenario::start_with_tools(dir, &yaml);
    let mut events = Vec::new();
    while let Ok(event) = scenario.handle.events.try_recv() {
        events.push(event);
    }
    events.extend(scenario.handle.run_turn("Write the plan").await);
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(winner(&events).as_deref(), Some("bob"));

    // Alice's write into the context path during coordination was refused, and shown.
    assert!(!context.join("early.txt").exists());
    let refused = events.iter().find_map(|event| match &event.msg {
        EventMsg::ToolRefused { path, reason, .. } => Some((path.clone(), reason.clone())),
        _ => None,
    });
    let (path, reason) = refused.expect("a ToolRefused event");
    assert!(path.ends_with("early.txt"), "{path}");
    assert!(!reason.is_empty());
    // Bob could read it, and wrote it only while presenting.
    assert_eq!(
        fs::read_to_string(context.join("result.md")).unwrap(),
        "final from bob"
    );

    // Each saw the other's snapshot under the anonymous name (alice → agent1, bob → agent2).
    let alice_temp = temp_dir_of(&events, "alice");
    let bob_temp = temp_dir_of(&events, "bob");
    assert_eq!(
        fs::read_to_string(alice_temp.join("agent2/plan.md")).unwrap(),
        "bob's plan"
    );
    assert_eq!(
        fs::read_to_string(bob_temp.join("agent1/notes.md")).unwrap(),
        "alice was here"
    );
    let snapshots = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::WorkspaceSnapshot { files: 1, .. }))
        .count();
    assert_eq!(snapshots, 2, "one snapshot per answer");
    // Alice's later rounds were told where her peers' work is.
    let later = scenario
        .requests_of("alice")
        .into_iter()
        .find(|request| request.messages[1].content().contains("agent2"))
        .unwrap();
    assert!(
        later.messages[0]
            .content()
            .contains(&alice_temp.display().to_string())
    );

    // The winner's workspace is kept with the turn's log.
    let attempt = attempt_dir(scenario.dir.path(), 1);
    assert_eq!(
        fs::read_to_string(attempt.join("final/bob/workspace/plan.md")).unwrap(),
        "bob's plan"
    );
    let root = scenario.dir.path().to_path_buf();
    scenario.handle.shutdown().await;
    // …and linked from the session's turn.
    assert_eq!(
        fs::read_to_string(session_turn(&root, 1).join("workspace/plan.md")).unwrap(),
        "bob's plan"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paths_attached_to_the_question_are_read_and_written_like_context_paths() {
    use massgen::protocol::{ContextPath, Mode, Op};

    let dir = tempfile::tempdir().unwrap();
    let attached = folder_with(&dir, "attached", "input.txt", "the input");
    let at = attached.display();
    let yaml = format!(
        r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    cwd: workspace
    tool_calls:
      - {{name: mcp__filesystem__read_text_file, arguments: {{path: "{at}/input.txt"}}}}
      - {{name: mcp__filesystem__write_file, arguments: {{path: "{at}/early.txt", content: "x"}}}}
    final_tool_calls:
      - {{name: mcp__filesystem__write_file, arguments: {{path: "{at}/output.txt", content: "done"}}}}
"#
    );
    let mut scenario = Scenario::start_with_tools(dir, &yaml);
    scenario
        .handle
        .ops
        .send(Op::Submit {
            options: Default::default(),
            text: "Process attached".into(),
            mode: Mode::Normal,
            context_paths: vec![ContextPath {
                path: attached.clone(),
                writable: true,
            }],
        })
        .await
        .unwrap();
    let events = scenario.handle.finish_turn().await;
    let read = tool_results(&events)
        .into_iter()
        .find(|(tool, ..)| tool.ends_with("read_text_file"))
        .map(|(_, ok, output)| (ok, output));
    assert_eq!(read, Some((true, "the input".to_string())));
    assert!(
        !attached.join("early.txt").exists(),
        "not before the presentation"
    );
    assert_eq!(
        fs::read_to_string(attached.join("output.txt")).unwrap(),
        "done"
    );
    scenario.handle.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scripted_agent_calls_real_mcp_servers_over_stdio_and_http_in_a_turn() {
    let Some(everything) = crate::harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let Some(http_peer) = crate::harness::HttpPeer::start() else {
        return;
    };
    let yaml = format!(
        r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    mcp_servers:
      - {{name: everything, type: stdio, command: "{everything}", args: [stdio]}}
      - {{name: calc, type: streamable-http, url: "{url}", allowed_tools: [add]}}
      - {{name: ghost, type: stdio, command: "/nonexistent/mcp-ghost"}}
    tool_calls:
      - {{name: mcp__everything__echo, arguments: {{message: "hi from a turn"}}}}
      - {{name: mcp__calc__add, arguments: {{a: 40, b: 2}}}}
"#,
        everything = everything.display(),
        url = http_peer.url,
    );
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    // The servers' start-up is reported before the turn, in the same stream.
    let events = scenario.handle.run_turn("Use your tools").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let states: Vec<(String, McpServerState)> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::McpServerStatus { server, state } => Some((server.clone(), state.clone())),
            _ => None,
        })
        .filter(|(_, state)| !matches!(state, McpServerState::Starting))
        .collect();
    assert!(states.iter().any(|(server, state)| server == "calc"
        && *state
            == McpServerState::Ready {
                tools: vec!["mcp__calc__add".into()]
            }));
    assert!(states.iter().any(|(server, state)| server == "everything"
        && matches!(state, McpServerState::Ready { tools } if tools.len() > 5)));
    assert!(states.iter().any(|(server, state)| server == "ghost"
        && matches!(state, McpServerState::Failed { error } if error.contains("mcp-ghost"))));
    let results = tool_results(&events);
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0].0, "mcp__everything__echo");
    assert!(
        results[0].1 && results[0].2.contains("Echo: hi from a turn"),
        "{results:?}"
    );
    assert!(results[1].1 && results[1].2.contains("42"), "{results:?}");
    scenario.handle.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_turn_keeps_every_agents_workspace_with_its_log_and_session() {
    let yaml = r#"
agents:
  - id: alice
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      answers: ["Alice's draft: see notes.md"]
      tool_calls:
        - {name: mcp__filesystem__write_file, arguments: {path: notes.md, content: "alice's work"}}
  - id: slow
    backend: {type: scripted, cwd: workspace, fail: hang}
"#;
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), yaml);
    let events = run_and_cancel_at(&mut scenario.handle, "Draft it", |msg| {
        matches!(msg, EventMsg::AnswerSubmitted { .. })
    })
    .await;
    assert_eq!(outcome(&events), TurnOutcome::Cancelled);
    let root = scenario.dir.path().to_path_buf();
    scenario.handle.shutdown().await;

    let attempt = attempt_dir(&root, 1);
    assert_eq!(
        fs::read_to_string(attempt.join("workspaces/alice/notes.md")).unwrap(),
        "alice's work"
    );
    assert!(attempt.join("workspaces/slow").is_dir());
    let turn = session_turn(&root, 1);
    assert_eq!(
        fs::read_to_string(turn.join("workspaces/alice/notes.md")).unwrap(),
        "alice's work",
        "the session's turn links to the kept work"
    );
    assert!(turn.join("events.jsonl").is_file());
    assert!(turn.join("partial_answers.json").is_file());
}
