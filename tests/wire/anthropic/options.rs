//! What a config's backend keys put in a Messages request: documented options, extended
//! thinking as Anthropic documents it, `betas` as the `anthropic-beta` header.

use serde_json::json;

use super::text_reply;
use crate::harness::{backend, load_backend, question, turn, with_tools};
use crate::mock_llm::MockLlm;

#[tokio::test]
async fn betas_become_the_header_and_never_a_body_key() {
    let server = MockLlm::start(vec![text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: claude, model: claude-sonnet-4-5, base_url: '{}', \
          betas: [computer-use-2025-01-24, context-1m-2025-08-07], stop_sequences: [END], \
          frequency_penalty: 1, extra_body: {{metadata: {{user_id: u1}}}}}}",
        server.base_url
    ));
    assert_eq!(
        warnings,
        [
            "ignored: agents[0].backend.frequency_penalty — not an option of the Anthropic \
          Messages API; to send it anyway, put it under `extra_body`"
        ]
    );
    let _ = turn(&backend(&config), question()).await;
    let request = &server.requests()[0];
    assert_eq!(
        request.header("anthropic-beta"),
        Some("computer-use-2025-01-24,context-1m-2025-08-07")
    );
    assert_eq!(request.body["stop_sequences"], json!(["END"]));
    assert_eq!(request.body["metadata"], json!({"user_id": "u1"}));
    for absent in ["betas", "frequency_penalty", "extra_body"] {
        assert!(request.body.get(absent).is_none(), "{absent} was sent");
    }
}

#[tokio::test]
async fn thinking_is_sent_as_documented_without_temperature_or_top_k() {
    let server = MockLlm::start(vec![text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: claude, model: claude-sonnet-4-5, base_url: '{}', temperature: 0.3, \
          top_k: 10, max_tokens: 4096, thinking: {{type: enabled, budget_tokens: 8000}}}}",
        server.base_url
    ));
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    let _ = turn(&backend(&config), question()).await;
    let request = &server.requests()[0];
    assert_eq!(
        request.body["thinking"],
        json!({"type": "enabled", "budget_tokens": 8000})
    );
    assert_eq!(request.body["max_tokens"], 12096);
    assert!(request.body.get("temperature").is_none());
    assert!(request.body.get("top_k").is_none());
    assert_eq!(request.header("anthropic-beta"), None);
}

#[tokio::test]
async fn strict_tool_use_marks_tools_strict_with_closed_schemas_under_its_beta() {
    let server = MockLlm::start(vec![text_reply(&["hi"]), text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: claude, model: claude-sonnet-4-5-20250929, base_url: '{}', \
          enable_strict_tool_use: true, betas: [context-1m-2025-08-07]}}",
        server.base_url
    ));
    assert_eq!(warnings, Vec::<String>::new());
    let _ = turn(&backend(&config), with_tools()).await;
    let request = &server.requests()[0];
    assert_eq!(
        request.header("anthropic-beta"),
        Some("context-1m-2025-08-07,structured-outputs-2025-11-13")
    );
    let tool = &request.body["tools"][0];
    assert_eq!(tool["strict"], json!(true));
    assert_eq!(tool["input_schema"]["additionalProperties"], json!(false));

    // A model MassGen does not turn it on for gets its tools as they are.
    let (config, _) = load_backend(&format!(
        "{{type: claude, model: claude-haiku-4-5, base_url: '{}', enable_strict_tool_use: true}}",
        server.base_url
    ));
    let _ = turn(&backend(&config), with_tools()).await;
    let request = &server.requests()[1];
    assert_eq!(request.header("anthropic-beta"), None);
    assert!(request.body["tools"][0].get("strict").is_none());
}
