//! A whole turn with a Codex agent (the real `codex`, through massgen's backend) beside a
//! scripted API agent, against the fake Responses server.

use crate::fake_codex::{FakeModel, ModelRequest, Step};
use crate::harness;
use crate::turn::{self, Act};

fn step(request: &ModelRequest) -> Step {
    let input = request.body["input"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    match turn::act(&turn::window_of(&input), "exec_command", "cmd") {
        Act::Call(tool, arguments) => Step::Call { tool, arguments },
        Act::Say(text) => Step::Text(text),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_codex_agent_answers_votes_and_presents_beside_an_api_agent() {
    let Some(_codex) = harness::peer("node_modules/.bin/codex") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(step).await;
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: gpt-4.1\n      base_url: {}\n      api_key: sk-test-codex-0000",
        fake.base_url
    );
    let yaml = turn::config_yaml("codex", &extra, &everything);
    let project_dir = project.path().to_path_buf();
    let mut scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    let events = turn::ask(&mut scenario, "What is 6 times 7?").await;
    turn::assert_whole_turn(&events, "shell", &project_dir);
    turn::assert_costed(&events);

    let turn_one = fake.requests().len();
    let events = turn::ask(&mut scenario, "What is 6 times 8?").await;
    crate::support::assert_completed(&events);
    let first = &fake.requests()[turn_one];
    let input = first.body["input"].as_array().unwrap();
    let prompt = input.last().unwrap().to_string();
    assert!(prompt.contains("What is 6 times 8?"), "{prompt}");
    assert!(
        !prompt.contains("What is 6 times 7?"),
        "massgen resent turn 1 in its prompt: {prompt}"
    );
    assert!(
        first.text().contains("What is 6 times 7?"),
        "turn 2 did not resume the session that holds turn 1"
    );
    turn::assert_logged(scenario).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_mid_turn_leaves_no_codex_process_behind() {
    let Some(_cli) = harness::peer("node_modules/.bin/codex") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(|_| Step::Call {
        tool: "exec_command".into(),
        arguments: serde_json::json!({"cmd": "python3 -c \"import time; time.sleep(62.75)\""}),
    })
    .await;
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: gpt-4.1\n      base_url: {}\n      api_key: sk-test-codex-0000",
        fake.base_url
    );
    let yaml = turn::config_yaml("codex", &extra, &everything);
    let scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    turn::cancel_while_running(scenario, "time.sleep(62.75)").await;
}
