//! How the tool calls of one model reply run: one after another by default, at once with
//! `concurrent_tool_execution: true`, and MassGen's `debug_delay_seconds` pause.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use crate::support::{Scenario, outcome};
use massgen::protocol::{Event, EventMsg, TurnOutcome};

/// One agent whose first reply makes two slow `execute_command` calls, the first slower.
fn config(backend_extra: &str) -> String {
    format!(
        r#"
agents:
  - id: solo
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      enable_mcp_command_line: true
      answers: ["done"]
      tool_calls:
        - {{name: mcp__command_line__execute_command, arguments: {{command: "sleep 0.6"}}}}
        - {{name: mcp__command_line__execute_command, arguments: {{command: "sleep 0.2"}}}}
{backend_extra}"#
    )
}

/// `B1`/`E1` for the begin and end of each `execute_command` call, numbered by call order.
fn tool_timeline(events: &[Event]) -> Vec<String> {
    for event in events {
        if let EventMsg::ToolCallEnd { ok, output, .. } = &event.msg {
            assert!(*ok, "a call failed: {output}");
        }
    }
    let mut ids: Vec<String> = Vec::new();
    let mut timeline = Vec::new();
    for event in events {
        let (mark, call_id) = match &event.msg {
            EventMsg::ToolCallBegin { call_id, tool, .. }
                if tool == "mcp__command_line__execute_command" =>
            {
                ("B", call_id)
            }
            EventMsg::ToolCallEnd { call_id, tool, .. }
                if tool == "mcp__command_line__execute_command" =>
            {
                ("E", call_id)
            }
            _ => continue,
        };
        if !ids.contains(call_id) {
            ids.push(call_id.clone());
        }
        let number = ids.iter().position(|id| id == call_id).unwrap() + 1;
        timeline.push(format!("{mark}{number}"));
    }
    timeline
}

async fn run(yaml: &str) -> Vec<Event> {
    let dir = tempfile::tempdir().unwrap();
    let mut scenario = Scenario::start_with_tools(dir, yaml);
    let events = scenario.handle.run_turn("Run both").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_calls_of_one_reply_run_in_order_by_default() {
    let events = run(&config("")).await;
    assert_eq!(tool_timeline(&events), ["B1", "E1", "B2", "E2"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_tool_execution_runs_them_at_once_up_to_its_limit() {
    let events = run(&config("      concurrent_tool_execution: true\n")).await;
    // Both start before either ends; the shorter second call ends first.
    assert_eq!(tool_timeline(&events), ["B1", "B2", "E2", "E1"]);

    let limited = run(&config(
        "      concurrent_tool_execution: true\n      max_concurrent_tools: 1\n",
    ))
    .await;
    assert_eq!(tool_timeline(&limited), ["B1", "E1", "B2", "E2"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debug_delay_pauses_the_agent_once_after_its_nth_tool_call() {
    let events = run(&config(
        "      debug_delay_seconds: 1\n      debug_delay_after_n_tools: 1\n",
    ))
    .await;
    let ends: Vec<&Event> = events
        .iter()
        .filter(|event| matches!(&event.msg, EventMsg::ToolCallEnd { .. }))
        .collect();
    let begins: Vec<&Event> = events
        .iter()
        .filter(|event| matches!(&event.msg, EventMsg::ToolCallBegin { .. }))
        .collect();
    assert_eq!((begins.len(), ends.len()), (2, 2));
    // The pause comes between the first call's end and the second call's start, once.
    let paused = begins[1].at.duration_since(ends[0].at).unsigned_abs();
    assert!(paused >= Duration::from_millis(950), "{paused:?}");
}
