//! Whole turns with a Codex agent (the real `codex`, through massgen's backend) beside a
//! scripted API agent, against the fake Responses server: the turn, the next turn resuming
//! its session, cancel.

use crate::fake_codex::{FakeModel, ModelRequest, Step};
use crate::turn::{self, Act, CODEX, Extra, Project};

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
    let fake = FakeModel::with_policy(step).await;
    let Some(mut project) = Project::start(&CODEX, &fake.base_url, &Extra::default()) else {
        return;
    };
    let events = project.ask("What is 6 times 7?").await;
    turn::assert_whole_turn(&events, "shell", &project.dir);
    turn::assert_costed(&events);

    let turn_one = fake.requests().len();
    let events = project.ask("What is 6 times 8?").await;
    crate::support::assert_completed(&events);
    let first = &fake.requests()[turn_one];
    let input = first.body["input"].as_array().unwrap();
    turn::assert_new_prompt_only(&input.last().unwrap().to_string());
    assert!(
        first.text().contains("What is 6 times 7?"),
        "turn 2 did not resume the session that holds turn 1"
    );
    turn::assert_logged(project.scenario).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_mid_turn_leaves_no_codex_process_behind() {
    let fake = FakeModel::with_policy(|_| Step::Call {
        tool: "exec_command".into(),
        arguments: serde_json::json!({"cmd": "python3 -c \"import time; time.sleep(62.75)\""}),
    })
    .await;
    turn::cancel_test(&CODEX, &fake.base_url, "time.sleep(62.75)").await;
}
