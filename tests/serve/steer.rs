//! Steering a running API turn: `POST /v1/chat/completions/{id}/steer` with the id a
//! client chose in `X-MassGen-Run-Id`, and the errors around it.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::served::{HANG, Served, post, question};

/// Steers `id` until a running turn takes it (at most 15 s): its status and body.
async fn steer_when_running(client: &reqwest::Client, url: &str, body: &Value) -> (u16, Value) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (status, reply) = post(client, url, body).await;
        if status != 404 || Instant::now() > deadline {
            return (status, reply);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The text of every `events.jsonl` of the server's runs.
fn all_events(served: &Served) -> String {
    let logs = served.sandbox.massgen_dir().join("massgen_logs");
    std::fs::read_dir(logs)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|run| {
            std::fs::read_to_string(run.path().join("turn_1/attempt_1/events.jsonl")).ok()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_with_a_chosen_id_takes_steering_input() {
    let served = Served::start(HANG, &[]);
    let client = massgen::backend::http_client().unwrap();
    let running = tokio::spawn({
        let request = client
            .post(served.url("/v1/chat/completions"))
            .header("X-MassGen-Run-Id", "run-1")
            .json(&question("q"));
        async move { request.send().await }
    });
    let steer_url = served.url("/v1/chat/completions/run-1/steer");
    let (status, reply) = steer_when_running(
        &client,
        &steer_url,
        &json!({"content": "look at the tests"}),
    )
    .await;
    assert_eq!(
        (status, &reply),
        (202, &json!({"queued": true, "targets": ["stuck"]}))
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while !all_events(&served).contains("look at the tests") {
        assert!(
            Instant::now() < deadline,
            "the input was not queued in the turn"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(all_events(&served).contains("human_input_queued"));

    let targeted = json!({"content": "x", "target_agents": ["nobody"]});
    let (status, reply) = post(&client, &steer_url, &targeted).await;
    assert_eq!(status, 400);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("stuck"),
        "{reply}"
    );
    let (status, _) = post(&client, &steer_url, &json!({"text": "wrong key"})).await;
    assert_eq!(status, 400);

    let duplicate = client
        .post(served.url("/v1/chat/completions"))
        .header("X-MassGen-Run-Id", "run-1")
        .json(&question("q"))
        .send()
        .await
        .unwrap();
    assert_eq!(duplicate.status().as_u16(), 409);
    running.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_turn_is_404_and_a_bad_id_400() {
    let served = Served::start(HANG, &[]);
    let client = massgen::backend::http_client().unwrap();
    let (status, reply) = post(
        &client,
        &served.url("/v1/chat/completions/chatcmpl-none/steer"),
        &json!({"content": "hello"}),
    )
    .await;
    assert_eq!(
        (status, reply["error"]["code"].as_str()),
        (404, Some("turn_not_found"))
    );
    let bad = client
        .post(served.url("/v1/chat/completions"))
        .header("X-MassGen-Run-Id", "no spaces allowed")
        .json(&question("q"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status().as_u16(), 400);
}
