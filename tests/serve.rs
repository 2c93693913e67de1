//! `massgen serve` over real HTTP: completions whole and streamed, models, a conversation's
//! history reaching the agents, an OpenAI-shaped error for each status, the concurrency
//! limit, a client that disconnects mid-stream, and SIGTERM with a turn running.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

#[path = "support/mock_llm.rs"]
mod mock_llm;

#[allow(dead_code)]
#[path = "peers/harness.rs"]
mod harness;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::sandbox::Sandbox;

const PAIR: &str = "\
agents:
  - id: alpha
    backend: {type: scripted, tokens_per_second: 0, answers: [\"Four.\"], final_answer: \"The answer is 4.\"}
  - id: beta
    backend: {type: scripted, tokens_per_second: 0, answers: [\"4\"], vote_for: alpha}
";

const HANG: &str =
    "agent:\n  id: stuck\n  backend: {type: scripted, tokens_per_second: 0, fail: hang}\n";

/// A running `massgen serve` on a free port; killed when dropped.
struct Served {
    child: Child,
    base: String,
    sandbox: Sandbox,
}

impl Served {
    fn start(config: &str, extra: &[&str]) -> Self {
        Self::start_with(&[("serve.yaml", config)], extra)
    }

    /// Writes `files` into the sandbox first (the first is the `--config` before `serve`).
    fn start_with(files: &[(&str, &str)], extra: &[&str]) -> Self {
        let sandbox = Sandbox::new();
        for (name, text) in files {
            sandbox.write(name, text);
        }
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("massgen"))
            .args(["--config", "serve.yaml", "serve", "--port", "0"])
            .args(extra)
            .current_dir(&sandbox.root)
            .env("HOME", sandbox.root.join("home"))
            .env_remove("MASSGEN_SERVE_API_KEY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let address = line
            .split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        std::thread::spawn(move || {
            let mut rest = String::new();
            while stderr.read_line(&mut rest).unwrap_or(0) > 0 {}
        });
        Self {
            child,
            base: address,
            sandbox,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The status of the session's only turn (`complete`, `incomplete`).
    fn turn_statuses(&self) -> Vec<String> {
        let sessions = self.sandbox.massgen_dir().join("sessions");
        let mut statuses = Vec::new();
        for session in std::fs::read_dir(sessions).into_iter().flatten().flatten() {
            let metadata = session.path().join("turn_1/metadata.json");
            if let Ok(bytes) = std::fs::read(metadata) {
                let value: Value = serde_json::from_slice(&bytes).unwrap();
                statuses.push(value["status"].as_str().unwrap_or_default().to_string());
            }
        }
        statuses
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn question(text: &str) -> Value {
    json!({"model": "massgen", "messages": [{"role": "user", "content": text}]})
}

async fn post(client: &reqwest::Client, url: &str, body: &Value) -> (u16, Value) {
    let response = client.post(url).json(body).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completions_whole_and_streamed_and_the_model_list() {
    let served = Served::start(PAIR, &[]);
    let client = reqwest::Client::new();
    let (status, body) = post(
        &client,
        &served.url("/v1/chat/completions"),
        &question("2+2?"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["object"], "chat.completion");
    assert_eq!(body["choices"][0]["message"]["content"], "The answer is 4.");
    assert_eq!(body["choices"][0]["finish_reason"], "stop");
    assert!(
        body["usage"]["total_tokens"].as_u64().unwrap() > 0,
        "{body}"
    );

    let mut streamed = question("2+2?");
    streamed["stream"] = json!(true);
    streamed["include_reasoning"] = json!(true);
    streamed["stream_options"] = json!({"include_usage": true});
    let text = client
        .post(served.url("/v1/chat/completions"))
        .json(&streamed)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let events: Vec<&str> = text
        .split("\n\n")
        .filter_map(|event| event.strip_prefix("data: "))
        .collect();
    assert_eq!(events.last(), Some(&"[DONE]"), "{text}");
    let chunks: Vec<Value> = events[..events.len() - 1]
        .iter()
        .map(|event| serde_json::from_str(event).unwrap())
        .collect();
    let content: String = chunks
        .iter()
        .filter_map(|chunk| chunk["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(content, "The answer is 4.");
    let reasoning: String = chunks
        .iter()
        .filter_map(|chunk| chunk["choices"][0]["delta"]["reasoning_content"].as_str())
        .collect();
    assert!(reasoning.contains("alpha is chosen"), "{reasoning}");
    assert!(
        chunks
            .iter()
            .any(|chunk| chunk["choices"][0]["finish_reason"] == "stop")
    );
    assert!(
        chunks.last().unwrap()["usage"]["total_tokens"]
            .as_u64()
            .unwrap()
            > 0
    );

    let models: Value = client
        .get(served.url("/v1/models"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids: Vec<&str> = models["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|model| model["id"].as_str())
        .collect();
    assert_eq!(ids[0], "massgen");
    assert!(ids.contains(&"massgen/demo/three_agents"), "{ids:?}");
    let health = client.get(served.url("/health")).send().await.unwrap();
    assert_eq!(health.status().as_u16(), 200);
}

/// A model that answers, votes, then presents; every request body is kept.
async fn conversational_model() -> mock_llm::MockLlm {
    use mock_llm::{Reply, data};
    let calls = Arc::new(AtomicUsize::new(0));
    mock_llm::MockLlm::with_responder(move |request: &mock_llm::Recorded| {
        let call = calls.fetch_add(1, Ordering::SeqCst);
        let workflow = request.body.to_string().contains("\"new_answer\"");
        let (name, arguments) = match (workflow, call) {
            (false, _) => {
                return Reply::sse(&[
                    data(&json!({"choices": [{"index": 0, "delta": {"content": "Berlin."}, "finish_reason": "stop"}]}).to_string()),
                    "data: [DONE]\n\n".to_string(),
                ]);
            }
            (true, 0) => ("new_answer", json!({"content": "Berlin."})),
            (true, _) => ("vote", json!({"agent_id": "agent1", "reason": "right"})),
        };
        Reply::sse(&[
            data(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 0, "id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}
            ]}}]}).to_string()),
            data(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}).to_string()),
            "data: [DONE]\n\n".to_string(),
        ])
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conversation_so_far_reaches_the_agents() {
    let model = conversational_model().await;
    let config = format!(
        "agent:\n  id: solo\n  backend: {{type: chatcompletion, model: m, api_key: sk-test-0123456789, \
         base_url: \"{}/v1\"}}\n",
        model.base_url
    );
    let served = Served::start(&config, &[]);
    let body = json!({"model": "massgen", "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Capital of France?"},
        {"role": "assistant", "content": "Paris, of course."},
        {"role": "user", "content": "And of Germany?"},
    ]});
    let (status, reply) = post(
        &reqwest::Client::new(),
        &served.url("/v1/chat/completions"),
        &body,
    )
    .await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["choices"][0]["message"]["content"], "Berlin.");
    let first = model.requests()[0].body.to_string();
    for needle in ["Capital of France?", "Paris, of course.", "And of Germany?"] {
        assert!(
            first.contains(needle),
            "{needle} reaches the agent: {first}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_shaped_like_openais() {
    let served = Served::start(PAIR, &["--api-key", "sk-serve-0123456789"]);
    let client = reqwest::Client::new();
    let url = served.url("/v1/chat/completions");
    let send = |body: reqwest::Body, key: Option<&'static str>| {
        let mut request = client
            .post(&url)
            .body(body)
            .header("content-type", "application/json");
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let body: Value = response.json().await.unwrap();
            (status, body)
        }
    };
    let key = Some("sk-serve-0123456789");
    let good = question("q").to_string();
    let (status, body) = send(good.clone().into(), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("invalid_api_key"))
    );
    let (status, _) = send(good.clone().into(), Some("sk-wrong-0123456789")).await;
    assert_eq!(status, 401);
    let (status, body) = send("{not json".into(), key).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["type"], "invalid_request_error");
    let (status, body) = send(
        json!({"model": "massgen", "messages": "q"})
            .to_string()
            .into(),
        key,
    )
    .await;
    assert_eq!(
        (status, body["error"]["param"].as_str()),
        (400, Some("messages"))
    );
    let (status, body) = send(
        json!({"model": "gpt-9", "messages": [{"role": "user", "content": "q"}]})
            .to_string()
            .into(),
        key,
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("model_not_found"))
    );
    let huge =
        json!({"model": "massgen", "messages": [{"role": "user", "content": "x".repeat(5 << 20)}]});
    let (status, body) = send(huge.to_string().into(), key).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (413, Some("request_too_large"))
    );
    let response = client.get(served.url("/nowhere")).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 404);
    let (status, body) = send(good.into(), key).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_without_an_answer_is_a_500_with_a_request_id() {
    let served = Served::start(
        "agent:\n  id: broken\n  backend: {type: scripted, tokens_per_second: 0, fail: error}\n",
        &[],
    );
    let (status, body) = post(
        &reqwest::Client::new(),
        &served.url("/v1/chat/completions"),
        &question("q"),
    )
    .await;
    assert_eq!(status, 500, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("no agent produced an answer") && message.contains("(request chatcmpl-"),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_max_concurrent_requests_get_429() {
    let served = Served::start(HANG, &["--max-concurrent", "2"]);
    let client = reqwest::Client::new();
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
    let response = reqwest::Client::new()
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
    while served.turn_statuses() != ["incomplete"] || !saved_as_cancelled(&served) {
        assert!(
            Instant::now() < deadline,
            "the turn was not cancelled and saved"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The turn's event log ends with a cancelled `turn_finished`.
fn saved_as_cancelled(served: &Served) -> bool {
    let logs = served.sandbox.massgen_dir().join("massgen_logs");
    std::fs::read_dir(logs)
        .into_iter()
        .flatten()
        .flatten()
        .any(|run| {
            std::fs::read_to_string(run.path().join("turn_1/attempt_1/events.jsonl"))
                .is_ok_and(|events| events.contains("\"outcome\":\"cancelled\""))
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_running_turns_end_within_the_grace_then_exits() {
    let mut served = Served::start(HANG, &["--grace", "1"]);
    let client = reqwest::Client::new();
    let url = served.url("/v1/chat/completions");
    let running = tokio::spawn({
        let client = client.clone();
        async move { client.post(url).json(&question("q")).send().await }
    });
    tokio::time::sleep(Duration::from_millis(800)).await;
    Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status()
        .unwrap();
    let started = Instant::now();
    let reply = running.await.unwrap().unwrap();
    assert_eq!(
        reply.status().as_u16(),
        500,
        "the cancelled turn has no answer"
    );
    let status = loop {
        if let Some(status) = served.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "serve did not exit"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(status.code(), Some(0));
    assert!(saved_as_cancelled(&served), "the running turn was saved");
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

/// The real `openai` package (tests/peers' venv) as the client: whole and streamed
/// completions, the model list, a conversation, an error for each status (400, 401, 404,
/// 413, 500 here; 429 below), and 16 requests at once against `--max-concurrent 4`.
#[test]
fn the_openai_python_client_works_against_serve() {
    let Some(python) = harness::peer(".venv/bin/python") else {
        return;
    };
    let slow_pair = PAIR.replace("tokens_per_second: 0", "tokens_per_second: 30");
    let broken =
        "agent:\n  id: broken\n  backend: {type: scripted, tokens_per_second: 0, fail: error}\n";
    let served = Served::start_with(
        &[("serve.yaml", &slow_pair), ("broken.yaml", broken)],
        &[
            "--config",
            "broken.yaml",
            "--api-key",
            "sk-serve-0123456789",
            "--max-concurrent",
            "4",
        ],
    );
    let output = Command::new(python)
        .arg(harness::peers().join("openai_client.py"))
        .args([&served.base, "sk-serve-0123456789"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(seen["whole"]["content"], "The answer is 4.", "{seen}");
    assert_eq!(seen["whole"]["finish_reason"], "stop");
    assert!(seen["whole"]["total_tokens"].as_u64().unwrap() > 0);
    assert_eq!(seen["stream"]["content"], "The answer is 4.", "{seen}");
    assert_eq!(seen["stream"]["finish_reason"], "stop");
    assert!(
        seen["stream"]["reasoning"]
            .as_str()
            .unwrap()
            .contains("alpha is chosen")
    );
    assert!(seen["stream"]["usage"].as_u64().unwrap() > 0);
    assert_eq!(seen["models"][0], "massgen");
    assert_eq!(seen["history"], "The answer is 4.");
    assert_eq!(
        seen["errors"],
        json!({"bad_messages": 400, "unknown_model": 404, "wrong_key": 401, "no_answer": 500,
               "too_large": 413})
    );
    let statuses: Vec<u64> = seen["concurrent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|status| status.as_u64().unwrap())
        .collect();
    assert_eq!(statuses.len(), 16);
    let ok = statuses.iter().filter(|status| **status == 200).count();
    let busy = statuses.iter().filter(|status| **status == 429).count();
    assert_eq!(ok + busy, 16, "{statuses:?}");
    assert!(
        ok >= 4 && busy >= 1,
        "4 run at once, the rest are told to retry: {statuses:?}"
    );
}

/// The `openai` client hangs up mid-stream, then the server is sent SIGTERM while another
/// `openai` request waits on a turn: both turns end cancelled and saved, the waiting client
/// gets its 500, and the server exits 0.
#[test]
fn openai_clients_that_hang_up_or_outlive_the_server_leave_saved_turns() {
    let Some(python) = harness::peer(".venv/bin/python") else {
        return;
    };
    let script = harness::peers().join("openai_client.py");
    let mut served = Served::start(HANG, &["--grace", "1"]);
    let output = Command::new(&python)
        .arg(&script)
        .args([served.base.as_str(), "unused", "disconnect"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("closed"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let deadline = Instant::now() + Duration::from_secs(15);
    while !saved_as_cancelled(&served) {
        assert!(Instant::now() < deadline, "the hung-up turn was not saved");
        std::thread::sleep(Duration::from_millis(100));
    }

    let mut waiting = Command::new(&python)
        .arg(&script)
        .args([served.base.as_str(), "unused", "wait"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = BufReader::new(waiting.stdout.take().unwrap());
    let mut line = String::new();
    said.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "sending");
    std::thread::sleep(Duration::from_millis(800));
    Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status()
        .unwrap();
    line.clear();
    said.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "500", "the cancelled turn has no answer");
    let _ = waiting.wait();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = served.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "serve did not exit"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(status.code(), Some(0));
    let logs = served.sandbox.massgen_dir().join("massgen_logs");
    let cancelled = std::fs::read_dir(logs)
        .unwrap()
        .flatten()
        .filter(|run| {
            std::fs::read_to_string(run.path().join("turn_1/attempt_1/events.jsonl"))
                .is_ok_and(|events| events.contains("\"outcome\":\"cancelled\""))
        })
        .count();
    assert_eq!(cancelled, 2, "both turns were saved as cancelled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configs_served_by_name_are_models_too() {
    let coding = "agent:\n  id: coder\n  backend: {type: scripted, tokens_per_second: 0, answers: [\"Use a loop.\"]}\n";
    let served = Served::start_with(
        &[("serve.yaml", PAIR), ("coding.yaml", coding)],
        &["--config", "coding.yaml"],
    );
    let client = reqwest::Client::new();
    let models: Value = client
        .get(served.url("/v1/models"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids: Vec<&str> = models["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|model| model["id"].as_str())
        .collect();
    assert_eq!(&ids[..2], ["massgen", "coding"]);
    let mut body = question("How do I repeat?");
    body["model"] = json!("coding");
    let (status, reply) = post(&client, &served.url("/v1/chat/completions"), &body).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["choices"][0]["message"]["content"], "Use a loop.");
    assert_eq!(reply["model"], "coding");
    let (_, reply) = post(
        &client,
        &served.url("/v1/chat/completions"),
        &question("2+2?"),
    )
    .await;
    assert_eq!(
        reply["choices"][0]["message"]["content"],
        "The answer is 4."
    );
}
