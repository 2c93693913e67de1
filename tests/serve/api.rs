//! The API's answers: completions whole and streamed, models, health, a conversation's
//! history reaching the agents, configs served by name, and an OpenAI-shaped error for
//! each status.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::mock_llm;
use crate::served::{PAIR, Served, post, question};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completions_whole_and_streamed_and_the_model_list() {
    let served = Served::start(PAIR, &["--allow-examples"]);
    let client = massgen::backend::http_client().unwrap();
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
        &massgen::backend::http_client().unwrap(),
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
    let client = massgen::backend::http_client().unwrap();
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
        &massgen::backend::http_client().unwrap(),
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
async fn configs_served_by_name_are_models_too() {
    let coding = "agent:\n  id: coder\n  backend: {type: scripted, tokens_per_second: 0, answers: [\"Use a loop.\"]}\n";
    let served = Served::start_with(
        &[("serve.yaml", PAIR), ("coding.yaml", coding)],
        &["--config", "coding.yaml"],
    );
    let client = massgen::backend::http_client().unwrap();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strategy_field_runs_the_turn_as_a_council() {
    let served = Served::start(PAIR, &[]);
    let client = massgen::backend::http_client().unwrap();
    let mut body = question("2+2?");
    body["strategy"] = json!("council");
    let (status, reply) = post(&client, &served.url("/v1/chat/completions"), &body).await;
    assert_eq!(status, 200, "{reply}");
    let content = reply["choices"][0]["message"]["content"].as_str().unwrap();
    assert_eq!(
        content, "Response A ranked first.\nFour.",
        "the chairman's synthesis of the top-ranked answer, not the voted winner's final answer"
    );

    body["strategy"] = json!("majority");
    let (status, reply) = post(&client, &served.url("/v1/chat/completions"), &body).await;
    assert_eq!(status, 400, "{reply}");
    assert_eq!(reply["error"]["param"], "strategy", "{reply}");
}
