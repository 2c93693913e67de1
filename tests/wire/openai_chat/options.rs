//! What a config's backend keys put in a Chat Completions request, for hosted providers,
//! inference servers and OpenRouter; Azure's endpoint and version from the environment.

use massgen::backend::{http_backend, http_client, provider};
use massgen::config::{BackendKind, Env};
use serde_json::json;

use super::text_reply;
use crate::harness::{KEY, backend, keyless_backend, load_backend, question, serve, turn};
use crate::mock_llm::MockLlm;

#[tokio::test]
async fn only_documented_options_are_sent_and_extra_body_is_merged_at_the_top() {
    let server = MockLlm::start(vec![text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: grok, model: grok-4, base_url: '{}/v1', reasoning_effort: low, top_p: 0.9, \
          seed: 7, reasoning: {{effort: low}}, top_k: 5, extra_body: {{search_mode: auto}}}}",
        server.base_url
    ));
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].starts_with(
        "ignored: agents[0].backend.reasoning — not an option of the Chat Completions API"
    ));
    assert!(warnings[1].starts_with("ignored: agents[0].backend.top_k — not an option"));
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["reasoning_effort"], "low");
    assert_eq!(body["top_p"], 0.9);
    assert_eq!(body["seed"], 7);
    assert_eq!(body["search_mode"], "auto");
    for absent in ["reasoning", "top_k", "extra_body"] {
        assert!(body.get(absent).is_none(), "{absent} was sent: {body}");
    }
}

#[tokio::test]
async fn inference_servers_take_their_sampling_extras_and_openrouter_its_reasoning() {
    let server = MockLlm::start(vec![text_reply(&["a"]), text_reply(&["b"])]).await;
    let (vllm, warnings) = load_backend(&format!(
        "{{type: vllm, model: Qwen/Qwen3-4B, base_url: '{}/v1', top_k: 50, \
          chat_template_kwargs: {{enable_thinking: true}}}}",
        server.base_url
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    let _ = turn(&keyless_backend(&vllm), question()).await;
    let (openrouter, warnings) = load_backend(&format!(
        "{{type: chatcompletion, model: x/y, base_url: '{}/openrouter.ai/v1', \
          api_key: k, reasoning: {{effort: high}}}}",
        server.base_url
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    let _ = turn(&backend(&openrouter), question()).await;
    let requests = server.requests();
    assert_eq!(requests[0].body["top_k"], 50);
    assert_eq!(
        requests[0].body["chat_template_kwargs"],
        json!({"enable_thinking": true})
    );
    assert_eq!(requests[1].body["reasoning"], json!({"effort": "high"}));
}

/// The backend for `config` with `env` as the environment.
fn backend_in(
    config: &massgen::config::BackendConfig,
    env: &Env,
) -> std::sync::Arc<dyn massgen::backend::Backend> {
    let endpoint = provider::resolve(config, env).unwrap();
    http_backend(config, &endpoint, http_client().unwrap())
}

#[tokio::test]
async fn azure_reads_endpoint_and_version_from_the_environment_and_base_url_wins() {
    let (server, mut config) = serve(
        BackendKind::AzureOpenai,
        "my-gpt4o",
        "",
        vec![text_reply(&["a"]), text_reply(&["b"]), text_reply(&["c"])],
    )
    .await;
    let env = Env::from_pairs([
        ("AZURE_OPENAI_API_KEY", KEY),
        ("AZURE_OPENAI_ENDPOINT", server.base_url.as_str()),
        ("AZURE_OPENAI_API_VERSION", "2025-03-01-preview"),
    ]);
    let from_config = config.base_url.take();
    let _ = turn(&backend_in(&config, &env), question()).await;
    // `base_url` wins over the variable; a v1 endpoint takes no version.
    config.base_url = from_config.map(|base| format!("{base}/custom/openai/v1"));
    let _ = turn(&backend_in(&config, &env), question()).await;
    config.api_version = Some("2024-10-21".into());
    config.base_url = Some(format!("{}/", server.base_url));
    let _ = turn(&backend_in(&config, &env), question()).await;
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        paths,
        [
            "/openai/deployments/my-gpt4o/chat/completions?api-version=2025-03-01-preview",
            "/custom/openai/v1/chat/completions",
            "/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21",
        ]
    );
    assert_eq!(server.requests()[1].header("api-key"), Some(KEY));
}
