//! Turns' lives under the server: the concurrency limit, a client that disconnects
//! mid-stream, SIGTERM with a turn running, and the API key rule for other machines.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::served::{HANG, PAIR, Served, post, question, terminate};
use crate::support::sandbox::Sandbox;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_max_concurrent_requests_get_429() {
    let served = Served::start(HANG, &["--max-concurrent", "2"]);
    let client = massgen::backend::http_client().unwrap();
    let url = served.url("/v1/chat/completions");
    let hanging: Vec<_> = (0..2)
        .map(|_| {
            let client = client.clone();
            let url = url.clone();
            tokio::spawn(async move { client.post(url).json(&question("q")).send().await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (status, body) = post(&client, &url, &question("q")).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (429, Some("rate_limit_exceeded"))
    );
    for request in hanging {
        request.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_gone_mid_stream_cancels_its_turn_which_is_saved() {
    let served = Served::start(HANG, &[]);
    let mut body = question("q");
    body["stream"] = json!(true);
    let response = massgen::backend::http_client()
        .unwrap()
        .post(served.url("/v1/chat/completions"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let mut stream = response.bytes_stream();
    use futures::StreamExt;
    assert!(stream.next().await.is_some(), "the first chunk arrives");
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(15);
    while served.turn_statuses() != ["incomplete"] || served.cancelled_turns() != 1 {
        assert!(
            Instant::now() < deadline,
            "the turn was not cancelled and saved"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_running_turns_end_within_the_grace_then_exits() {
    let mut served = Served::start(HANG, &["--grace", "1"]);
    let client = massgen::backend::http_client().unwrap();
    let url = served.url("/v1/chat/completions");
    let running = tokio::spawn({
        let client = client.clone();
        async move { client.post(url).json(&question("q")).send().await }
    });
    tokio::time::sleep(Duration::from_millis(800)).await;
    terminate(&served);
    let reply = running.await.unwrap().unwrap();
    assert_eq!(
        reply.status().as_u16(),
        500,
        "the cancelled turn has no answer"
    );
    let exit = tokio::task::block_in_place(|| served.wait_exit());
    assert_eq!(exit, Some(0));
    assert_eq!(served.cancelled_turns(), 1, "the running turn was saved");
    assert!(
        client.get(served.url("/health")).send().await.is_err(),
        "no longer accepting"
    );
}

#[test]
fn another_machine_may_connect_only_with_an_api_key() {
    let sandbox = Sandbox::new();
    sandbox.write("serve.yaml", PAIR);
    let output = sandbox
        .massgen()
        .args([
            "--config",
            "serve.yaml",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
        ])
        .env_remove("MASSGEN_SERVE_API_KEY")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("needs --api-key"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
