//! Whole turns with a Gemini CLI agent (the real `gemini`, through massgen's backend)
//! beside a scripted API agent, against the fake Gemini API: the turn, the next turn
//! resuming its session, cancel.

use crate::fake_gemini_cli::{FakeModel, ModelRequest, Step};
use crate::turn::{self, Act, Extra, GEMINI_CLI, Project};

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
    let fake = FakeModel::with_policy(step).await;
    let Some(mut project) = Project::start(&GEMINI_CLI, &fake.base_url, &Extra::default()) else {
        return;
    };
    let events = project.ask("What is 6 times 7?").await;
    turn::assert_whole_turn(&events, "run_shell_command", &project.dir);
    turn::assert_costed(&events);

    let turn_one = fake.requests().len();
    let events = project.ask("What is 6 times 8?").await;
    crate::support::assert_completed(&events);
    let first = &fake.requests()[turn_one];
    turn::assert_new_prompt_only(first.user_texts().last().unwrap());
    assert!(
        first.text().contains("What is 6 times 7?"),
        "turn 2 did not resume the session that holds turn 1"
    );
    turn::assert_logged(project.scenario).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_mid_turn_leaves_no_gemini_cli_process_behind() {
    let fake = FakeModel::with_policy(|_| Step::Call {
        tool: "run_shell_command".into(),
        arguments: serde_json::json!({"command": "python3 -c \"import time; time.sleep(62.5)\""}),
    })
    .await;
    turn::cancel_test(&GEMINI_CLI, &fake.base_url, "time.sleep(62.5)").await;
}
