//! The real Codex CLI (the pinned `@openai/codex` in `tests/peers/node_modules`) started as
//! massgen starts it against the in-test Responses server, with massgen's tool bridge as its
//! MCP server.

mod run;

use std::sync::Arc;

use massgen::backend::agent_cli::codex::Codex;
use massgen::backend::agent_cli::dialect::{BridgeAddress, CliOptions};
use massgen::backend::agent_cli::event::CliEvent;
use massgen::mcp::bridge;
use serde_json::json;

use self::run::{API_KEY, Agent, MODEL, Recorder, Run, codex_program, per_request, start};
use crate::fake_codex::{FakeModel, Step};
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_runs_a_shell_command_calls_a_bridge_tool_and_answers() {
    let Some(program) = codex_program() else {
        return;
    };
    let recorder = Recorder::default();
    let bridge = bridge::serve(Arc::new(recorder.clone())).await.unwrap();
    let fake = FakeModel::start(vec![
        Step::Call {
            tool: "exec_command".into(),
            arguments: json!({ "cmd": "echo made-by-codex > made.txt" }),
        },
        Step::Call {
            tool: "vote".into(),
            arguments: json!({ "agent_id": "agent_b" }),
        },
        Step::Text("I voted for agent_b.".into()),
    ])
    .await;
    let agent = Agent::new();
    let codex = Codex::new();
    let outcome = start(
        &codex,
        &program,
        Run {
            agent: &agent,
            fake: &fake,
            bridge: &bridge.address,
            prompt: "Vote for the best answer. PROMPT-MARKER-1",
            resume: None,
            options: CliOptions::default(),
        },
    )
    .await;
    assert_eq!(outcome.exit, Ok(()), "{:#?}", outcome.lines);
    let warnings: Vec<&String> = outcome
        .lines
        .iter()
        .filter(|line| line.contains(r#""type":"error""#))
        .collect();
    assert!(
        warnings.is_empty(),
        "Codex warned about its config: {warnings:#?}"
    );

    let made = std::fs::read_to_string(agent.cwd.join("made.txt")).unwrap();
    assert_eq!(made.trim(), "made-by-codex");
    assert_eq!(
        *recorder.calls.lock().unwrap(),
        [("vote".to_string(), json!({ "agent_id": "agent_b" }))]
    );

    let requests = fake.requests();
    let first = &requests[0];
    assert_eq!(first.body["model"], MODEL);
    assert_eq!(
        first.header("authorization"),
        Some(format!("Bearer {API_KEY}").as_str())
    );
    assert!(first.text().contains("SYSTEM-MARKER-7f3"));
    assert!(first.text().contains("PROMPT-MARKER-1"));
    assert!(first.tool_names().contains(&"exec_command".to_string()));
    // The bridge's tools are found through Codex's tool search, then called in its namespace.
    let last = requests.last().unwrap();
    assert!(
        last.tool_names()
            .contains(&"mcp__massgen__vote".to_string())
    );
    assert_eq!(last.tool_results(), 2);
    assert!(
        fake.side_requests().is_empty(),
        "{:?}",
        fake.side_requests()
    );

    let events = outcome.events.clone();
    let session = outcome.session();
    assert_eq!(first.header("session-id"), Some(session.as_str()));
    let kinds: Vec<String> = events
        .iter()
        .map(|event| match event {
            CliEvent::Session(_) => "session".to_string(),
            CliEvent::ToolStarted { name, server, .. } => format!("start {server:?} {name}"),
            CliEvent::ToolFinished { name, ok, .. } => format!("finish {name} {ok}"),
            CliEvent::Text(text) => format!("text {text}"),
            CliEvent::Usage { total, .. } => format!("usage {total}"),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "session",
            "start None shell",
            "finish shell true",
            "start Some(\"massgen\") vote",
            "finish vote true",
            "text I voted for agent_b.",
            "usage true",
        ]
    );
    assert!(events.contains(&CliEvent::ToolStarted {
        id: "item_0".into(),
        name: "shell".into(),
        server: None,
        input: "echo made-by-codex > made.txt".into(),
    }));
    let Some(CliEvent::Usage {
        usage, cost_usd, ..
    }) = events.last()
    else {
        panic!("no usage: {events:?}");
    };
    assert_eq!(*usage, per_request(requests.len()));
    assert_eq!(*cost_usd, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_session_continues_where_the_cli_left_off() {
    let Some(program) = codex_program() else {
        return;
    };
    let bridge = bridge::serve(Arc::new(Recorder::default())).await.unwrap();
    let fake = FakeModel::start(vec![
        Step::Text("First answer.".into()),
        Step::Text("Second answer.".into()),
    ])
    .await;
    let agent = Agent::new();
    let codex = Codex::new();
    let run = |prompt, resume| Run {
        agent: &agent,
        fake: &fake,
        bridge: &bridge.address,
        prompt,
        resume,
        options: CliOptions::default(),
    };
    let first = start(&codex, &program, run("TURN-ONE-PROMPT", None)).await;
    assert_eq!(first.exit, Ok(()), "{:#?}", first.lines);
    let session = first.session();

    let second = start(&codex, &program, run("TURN-TWO-PROMPT", Some(&session))).await;
    assert_eq!(second.exit, Ok(()), "{:#?}", second.lines);
    assert_eq!(second.session(), session);
    let events = second.events.clone();
    assert!(events.contains(&CliEvent::Text("Second answer.".into())));
    // Codex reports the session's running total; the dialect reports this start's share.
    assert!(events.contains(&CliEvent::Usage {
        usage: per_request(1),
        cost_usd: None,
        total: true,
    }));

    // Codex keeps no state on the server (`store: false`): the resumed request carries the
    // whole session, which Codex itself resends — turn one's prompt exactly once.
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let resumed = requests[1].text();
    assert_eq!(resumed.matches("TURN-ONE-PROMPT").count(), 1);
    assert!(resumed.contains("First answer."));
    assert!(resumed.contains("TURN-TWO-PROMPT"));
    assert_eq!(requests[1].header("session-id"), Some(session.as_str()));
    let sessions = agent.home.join("sessions");
    assert!(
        sessions.is_dir(),
        "sessions live in the agent's own CODEX_HOME"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codex_keeps_its_commands_writes_in_the_workspace() {
    let Some(program) = codex_program() else {
        return;
    };
    let bridge = bridge::serve(Arc::new(Recorder::default())).await.unwrap();
    let agent = Agent::new();
    let outside = agent.user_home.join("outside.txt");
    let fake = FakeModel::start(vec![
        Step::Call {
            tool: "exec_command".into(),
            arguments: json!({ "cmd": format!("echo x > {}", outside.display()) }),
        },
        Step::Call {
            tool: "exec_command".into(),
            arguments: json!({ "cmd": "echo y > inside.txt" }),
        },
    ])
    .await;
    let codex = Codex::new();
    let outcome = start(
        &codex,
        &program,
        Run {
            agent: &agent,
            fake: &fake,
            bridge: &bridge.address,
            prompt: "Write two files.",
            resume: None,
            options: CliOptions::default(),
        },
    )
    .await;
    assert_eq!(outcome.exit, Ok(()), "{:#?}", outcome.lines);
    assert!(
        !outside.exists(),
        "a write outside the workspace got through"
    );
    assert!(
        agent.cwd.join("inside.txt").exists(),
        "{:#?}",
        outcome.lines
    );
    let finished: Vec<bool> = outcome
        .events
        .into_iter()
        .filter_map(|event| match event {
            CliEvent::ToolFinished { ok, .. } => Some(ok),
            _ => None,
        })
        .collect();
    assert_eq!(finished, [false, true]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bridge_that_refuses_the_token_fails_the_start() {
    let Some(program) = codex_program() else {
        return;
    };
    let bridge = bridge::serve(Arc::new(Recorder::default())).await.unwrap();
    let wrong = BridgeAddress {
        url: bridge.address.url.clone(),
        token: "not-the-token".into(),
    };
    let fake = FakeModel::start(Vec::new()).await;
    let agent = Agent::new();
    let codex = Codex::new();
    let outcome = start(
        &codex,
        &program,
        Run {
            agent: &agent,
            fake: &fake,
            bridge: &wrong,
            prompt: "Hello",
            resume: None,
            options: CliOptions::default(),
        },
    )
    .await;
    let error = outcome.exit.expect_err("the start should fail");
    assert!(error.contains("massgen"), "{error}");
    assert!(fake.requests().is_empty());
}
