//! Whole turns with a Claude Code agent (the real `claude`, through massgen's backend)
//! beside a scripted API agent, against the fake Anthropic server: the turn, the next turn
//! resuming its session, cancel, the round limit, massgen's command tool, the check.

use crate::fake_claude_code::{FakeModel, ModelRequest, Step};
use crate::turn::{self, Act, CLAUDE_CODE, Extra, Project};
use massgen::protocol::EventMsg;

fn window(request: &ModelRequest) -> String {
    let messages = request.body["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    turn::window_of(&messages)
}

fn step_with(request: &ModelRequest, shell_tool: &str) -> Step {
    match turn::act(&window(request), shell_tool, "command") {
        // massgen's command tool runs without a shell: no `>`.
        Act::Call(tool, _) if tool == "execute_command" => Step::Call {
            tool,
            arguments: serde_json::json!({"command": "mkdir shell-ok"}),
        },
        Act::Call(tool, arguments) => Step::Call { tool, arguments },
        Act::Say(text) => Step::Text(text),
    }
}

fn step(request: &ModelRequest) -> Step {
    step_with(request, "Bash")
}

/// A model whose shell command never ends.
fn busy(seconds: &str) -> FakeModel {
    let command = format!("python3 -c \"import time; time.sleep({seconds})\"");
    FakeModel::with_policy(move |_| Step::Call {
        tool: "Bash".into(),
        arguments: serde_json::json!({ "command": command }),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claude_code_agent_answers_votes_and_presents_beside_an_api_agent() {
    let fake = FakeModel::with_policy(step);
    let Some(mut project) = Project::start(&CLAUDE_CODE, &fake.base_url, &Extra::default()) else {
        return;
    };
    let events = project.ask("What is 6 times 7?").await;
    turn::assert_whole_turn(&events, "Bash", &project.dir);
    turn::assert_costed(&events);

    // Turn 2 resumes the session the CLI last ran in (its presentation's): the request
    // continues that conversation, and massgen's new prompt carries no turn-1 history.
    let turn_one = fake.conversation();
    let last = turn_one.last().unwrap();
    let events = project.ask("What is 6 times 8?").await;
    crate::support::assert_completed(&events);
    let first = &fake.conversation()[turn_one.len()];
    assert_eq!(
        first.header("x-claude-code-session-id"),
        last.header("x-claude-code-session-id"),
        "turn 2 did not resume the CLI's session"
    );
    let before = last.body["messages"].as_array().unwrap();
    let now = first.body["messages"].as_array().unwrap();
    assert!(now.len() > before.len(), "{now:#?}");
    turn::assert_new_prompt_only(&now.last().unwrap().to_string());
    turn::assert_logged(project.scenario).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_mid_turn_leaves_no_cli_process_behind() {
    let fake = busy("61.25");
    turn::cancel_test(&CLAUDE_CODE, &fake.base_url, "time.sleep(61.25)").await;
}

/// A CLI busy in its own tool past its round's limit and grace is stopped, process group
/// and all, and the turn goes on without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_round_time_limit_stops_a_busy_cli() {
    let fake = busy("63.5");
    let limits = "timeout_settings:\n  initial_round_timeout_seconds: 3\n  \
                  subsequent_round_timeout_seconds: 3\n  round_timeout_grace_seconds: 1\n";
    let extra = Extra {
        top: limits,
        ..Extra::default()
    };
    let Some(mut project) = Project::start(&CLAUDE_CODE, &fake.base_url, &extra) else {
        return;
    };
    let started = std::time::Instant::now();
    let events = project.ask("Take your time.").await;
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    assert!(
        events.iter().any(|event| matches!(&event.msg,
            EventMsg::RoundTimeLimitReached {
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

/// With `enable_mcp_command_line`, Claude Code's own Bash is off and its commands run
/// through massgen's `execute_command`, served on the bridge.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_mcp_command_line_commands_run_through_massgens_tool() {
    let fake = FakeModel::with_policy(|request| step_with(request, "execute_command"));
    let extra = Extra {
        backend: "enable_mcp_command_line: true",
        ..Extra::default()
    };
    let Some(mut project) = Project::start(&CLAUDE_CODE, &fake.base_url, &extra) else {
        return;
    };
    let events = project.ask("What is 6 times 7?").await;
    crate::support::assert_completed(&events);
    let first = &fake.conversation()[0];
    assert!(
        !first.tool_names().iter().any(|name| name == "Bash"),
        "Bash is still offered: {:?}",
        first.tool_names()
    );
    assert!(
        events.iter().any(|event| matches!(&event.msg,
            EventMsg::ToolCallEnd { tool, ok: true, .. }
                if tool == "mcp__command_line__execute_command")),
        "{:#?}",
        crate::support::transcript(&events)
    );
    assert!(turn::cli_workspace(&project.dir).join("shell-ok").is_dir());
}

/// The winner's check of its answer (post-evaluation), by a Claude Code agent: its
/// `submit` arrives through the bridge and counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claude_code_winner_submits_its_checked_answer_through_the_bridge() {
    let fake = FakeModel::with_policy(|request| {
        if !request
            .tool_names()
            .iter()
            .any(|name| name == "mcp__massgen__submit")
        {
            step(request)
        } else if request.tool_results() == 0 {
            Step::Call {
                tool: "submit".into(),
                arguments: serde_json::json!({"confirmed": true}),
            }
        } else {
            Step::Text("Checked.".into())
        }
    });
    let extra = Extra {
        orchestrator: "  coordination: {max_orchestration_restarts: 1}\n",
        ..Extra::default()
    };
    let Some(mut project) = Project::start(&CLAUDE_CODE, &fake.base_url, &extra) else {
        return;
    };
    let events = project.ask("What is 6 times 7?").await;
    crate::support::assert_completed(&events);
    assert!(
        events.iter().any(|event| matches!(
            &event.msg,
            EventMsg::PostEvaluationFinished {
                outcome: massgen::protocol::PostEvaluationOutcome::Submitted
            }
        )),
        "{:#?}",
        crate::support::transcript(&events)
    );
}
