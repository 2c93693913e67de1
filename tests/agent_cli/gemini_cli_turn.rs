//! A whole turn with a Gemini CLI agent (the real `gemini`, through massgen's backend)
//! beside a scripted API agent, against the fake Gemini API.

use crate::fake_gemini_cli::{FakeModel, ModelRequest, Step};
use crate::harness;
use crate::turn::{self, Act};

fn step(request: &ModelRequest) -> Step {
    let contents = request.body["contents"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    match turn::act(&turn::window_of(&contents), "run_shell_command", "command") {
        Act::Call(tool, arguments) => Step::Call { tool, arguments },
        Act::Say(text) => Step::Text(text),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gemini_cli_agent_answers_votes_and_presents_beside_an_api_agent() {
    let Some(_gemini) = harness::peer("node_modules/.bin/gemini") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(step).await;
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: gemini-2.5-flash\n      base_url: {}\n      api_key: test-gemini-key-0000",
        fake.base_url
    );
    let yaml = turn::config_yaml("gemini_cli", &extra, &everything);
    let project_dir = project.path().to_path_buf();
    let mut scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    let events = turn::ask(&mut scenario, "What is 6 times 7?").await;
    turn::assert_whole_turn(&events, "run_shell_command", &project_dir);
    turn::assert_costed(&events);

    let turn_one = fake.requests().len();
    let events = turn::ask(&mut scenario, "What is 6 times 8?").await;
    crate::support::assert_completed(&events);
    let first = &fake.requests()[turn_one];
    let users = first.user_texts();
    let prompt = users.last().unwrap();
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
async fn cancelling_mid_turn_leaves_no_gemini_cli_process_behind() {
    let Some(_cli) = harness::peer("node_modules/.bin/gemini") else {
        return;
    };
    let Some(everything) = harness::peer("node_modules/.bin/mcp-server-everything") else {
        return;
    };
    let fake = FakeModel::with_policy(|_| Step::Call {
        tool: "run_shell_command".into(),
        arguments: serde_json::json!({"command": "python3 -c \"import time; time.sleep(62.75)\""}),
    })
    .await;
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = format!(
        "      model: gemini-2.5-flash\n      base_url: {}\n      api_key: test-gemini-key-0000",
        fake.base_url
    );
    let yaml = turn::config_yaml("gemini_cli", &extra, &everything);
    let scenario = turn::start(project, &yaml, &turn::env_for(home.path()));
    turn::cancel_while_running(scenario, "time.sleep(62.75)").await;
}
