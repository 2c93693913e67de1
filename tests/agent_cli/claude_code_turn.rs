//! A whole turn with a Claude Code agent (the real `claude`, through massgen's backend)
//! beside a scripted API agent, against the fake Anthropic server.

use crate::fake_claude_code::{FakeModel, ModelRequest, Step};
use crate::harness;
use crate::turn::{self, Act, Move};

fn step(request: &ModelRequest) -> Step {
    let messages = request.body["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let window = turn::window_of(&messages);
    match turn::decide(&window) {
        Move::Shell => Step::Call {
            tool: "Bash".into(),
            arguments: serde_json::json!({"command": "echo shell-ok > shell.txt"}),
        },
        Move::Echo => Step::Call {
            tool: "echo".into(),
            arguments: turn::echo_arguments(),
        },
        Move::Answer => Step::Call {
            tool: "new_answer".into(),
            arguments: turn::answer_arguments(&window),
        },
        Move::Vote => Step::Call {
            tool: "vote".into(),
            arguments: turn::vote_arguments(),
        },
        Move::Present => Step::Text(turn::PRESENTED.into()),
        Move::Done => Step::Text("done.".into()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claude_code_agent_answers_votes_and_presents_beside_an_api_agent() {
    let Some(_claude) = harness::peer("node_modules/.bin/claude") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(step);
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: claude-sonnet-4-5\n      base_url: {}\n      api_key: sk-ant-test-0000",
        fake.base_url
    );
    let yaml = turn::config_yaml("claude_code", &extra, &everything);
    let project_dir = project.path().to_path_buf();
    let mut scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    let events = turn::ask(&mut scenario, "What is 6 times 7?").await;
    turn::assert_whole_turn(&events, "Bash", &project_dir);
    turn::assert_costed(&events);

    // Turn 2 resumes the session the CLI last ran in (its presentation's): the request
    // continues that conversation, and massgen's new prompt carries no turn-1 history.
    let turn_one = fake.conversation();
    let last = turn_one.last().unwrap();
    let events = turn::ask(&mut scenario, "What is 6 times 8?").await;
    crate::support::assert_completed(&events);
    let turn_two = fake.conversation();
    let first = &turn_two[turn_one.len()];
    assert_eq!(
        first.header("x-claude-code-session-id"),
        last.header("x-claude-code-session-id"),
        "turn 2 did not resume the CLI's session"
    );
    let before = last.body["messages"].as_array().unwrap();
    let now = first.body["messages"].as_array().unwrap();
    assert!(now.len() > before.len(), "{now:#?}");
    let prompt = now.last().unwrap().to_string();
    assert!(prompt.contains("What is 6 times 8?"), "{prompt}");
    assert!(
        !prompt.contains("What is 6 times 7?"),
        "massgen resent turn 1 in its prompt: {prompt}"
    );
    turn::assert_logged(scenario).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_mid_turn_leaves_no_cli_process_behind() {
    let Some(_claude) = harness::peer("node_modules/.bin/claude") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(|_| Step::Call {
        tool: "Bash".into(),
        arguments: serde_json::json!({"command": "python3 -c \"import time; time.sleep(61.25)\""}),
    });
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: claude-sonnet-4-5\n      base_url: {}\n      api_key: sk-ant-test-0000",
        fake.base_url
    );
    let yaml = turn::config_yaml("claude_code", &extra, &everything);
    let scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    turn::cancel_while_running(scenario, "time.sleep(61.25)").await;
}

/// With `enable_mcp_command_line`, Claude Code's own Bash is off and its commands run
/// through massgen's `execute_command`, served on the bridge.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_mcp_command_line_commands_run_through_massgens_tool() {
    let Some(_claude) = harness::peer("node_modules/.bin/claude") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(|request| {
        let messages = request.body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        match turn::act(&turn::window_of(&messages), "execute_command", "command") {
            // massgen's command tool runs without a shell: no `>`.
            Act::Call(tool, _) if tool == "execute_command" => Step::Call {
                tool,
                arguments: serde_json::json!({"command": "mkdir shell-ok"}),
            },
            Act::Call(tool, arguments) => Step::Call { tool, arguments },
            Act::Say(text) => Step::Text(text),
        }
    });
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: claude-sonnet-4-5\n      base_url: {}\n      api_key: sk-ant-test-0000\n      enable_mcp_command_line: true",
        fake.base_url
    );
    let yaml = turn::config_yaml("claude_code", &extra, &everything);
    let project_dir = project.path().to_path_buf();
    let mut scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    let events = turn::ask(&mut scenario, "What is 6 times 7?").await;
    crate::support::assert_completed(&events);
    let first = &fake.conversation()[0];
    assert!(
        !first.tool_names().iter().any(|name| name == "Bash"),
        "Bash is still offered: {:?}",
        first.tool_names()
    );
    let ends: Vec<String> = events
        .iter()
        .filter_map(|event| match &event.msg {
            massgen::protocol::EventMsg::ToolCallEnd {
                tool, ok, output, ..
            } => Some(format!("{tool} {ok} {output}")),
            _ => None,
        })
        .collect();
    assert!(
        ends.iter()
            .any(|end| end.starts_with("mcp__command_line__execute_command true")),
        "{ends:#?} {:?}",
        first.tool_names()
    );
    let workspace = std::fs::read_dir(project_dir.join(".massgen/workspaces"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.to_string_lossy().contains("cli_workspace"))
        .unwrap();
    assert!(workspace.join("shell-ok").is_dir());
}

/// A CLI busy in its own tool past its round's limit and grace is stopped, process group
/// and all, and the turn goes on without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_round_time_limit_stops_a_busy_cli() {
    let Some(_claude) = harness::peer("node_modules/.bin/claude") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(|_| Step::Call {
        tool: "Bash".into(),
        arguments: serde_json::json!({"command": "python3 -c \"import time; time.sleep(63.5)\""}),
    });
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: claude-sonnet-4-5\n      base_url: {}\n      api_key: sk-ant-test-0000",
        fake.base_url
    );
    let yaml = format!(
        "{}timeout_settings:\n  initial_round_timeout_seconds: 3\n  \
         subsequent_round_timeout_seconds: 3\n  round_timeout_grace_seconds: 1\n",
        turn::config_yaml("claude_code", &extra, &everything)
    );
    let mut scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    let started = std::time::Instant::now();
    let events = turn::ask(&mut scenario, "Take your time.").await;
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    assert!(
        events.iter().any(|event| matches!(&event.msg,
            massgen::protocol::EventMsg::RoundTimeLimitReached {
                stage: massgen::protocol::RoundTimeStage::Blocked, ..
            } if event.agent.as_ref().is_some_and(|agent| agent.as_str() == "cli"))),
        "{:#?}",
        crate::support::transcript(&events)
    );
    assert_eq!(crate::support::winner(&events).as_deref(), Some("api"));
    assert!(
        turn::processes_running("time.sleep(63.5)").is_empty(),
        "the CLI's command outlived its round"
    );
}

/// The winner's check of its answer (post-evaluation), by a Claude Code agent: its
/// `submit` arrives through the bridge and counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claude_code_winner_submits_its_checked_answer_through_the_bridge() {
    let Some(_claude) = harness::peer("node_modules/.bin/claude") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(|request| {
        if request
            .tool_names()
            .iter()
            .any(|name| name == "mcp__massgen__submit")
        {
            return if request.tool_results() == 0 {
                Step::Call {
                    tool: "submit".into(),
                    arguments: serde_json::json!({"confirmed": true}),
                }
            } else {
                Step::Text("Checked.".into())
            };
        }
        step(request)
    });
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: claude-sonnet-4-5\n      base_url: {}\n      api_key: sk-ant-test-0000",
        fake.base_url
    );
    let yaml = turn::config_yaml("claude_code", &extra, &everything).replace(
        "orchestrator:\n",
        "orchestrator:\n  coordination: {max_orchestration_restarts: 1}\n",
    );
    let mut scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    let events = turn::ask(&mut scenario, "What is 6 times 7?").await;
    crate::support::assert_completed(&events);
    assert!(
        events.iter().any(|event| matches!(
            &event.msg,
            massgen::protocol::EventMsg::PostEvaluationFinished {
                outcome: massgen::protocol::PostEvaluationOutcome::Submitted
            }
        )),
        "{:#?}",
        crate::support::transcript(&events)
    );
}
