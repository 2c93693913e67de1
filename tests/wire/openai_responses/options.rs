//! What a config's backend keys put in a Responses request: documented options (reasoning
//! and verbosity as OpenAI documents them), `extra_body` merged at the top, nothing else.

use serde_json::json;

use super::text_reply;
use crate::harness::{backend, load_backend, question, turn};
use crate::mock_llm::MockLlm;

#[tokio::test]
async fn only_documented_options_are_sent_and_extra_body_is_merged_at_the_top() {
    let server = MockLlm::start(vec![text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: openai, model: gpt-5, base_url: '{}/v1', \
          reasoning: {{effort: high, summary: detailed}}, text: {{verbosity: low}}, \
          truncation: auto, foo: 1, enable_tool_search: true, \
          extra_body: {{store: false, text: {{verbosity: high}}, vendor_flag: [1, 2]}}}}",
        server.base_url
    ));
    assert_eq!(
        warnings,
        [
            "ignored: agents[0].backend.foo — not an option of the OpenAI Responses API; to \
             send it anyway, put it under `extra_body`",
            "ignored: agents[0].backend.enable_tool_search — MassGen would let Claude search a \
             deferred tool list instead of loading every tool; massgen sends every tool with \
             each request",
        ]
    );
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(
        body["reasoning"],
        json!({"effort": "high", "summary": "detailed"})
    );
    assert_eq!(body["truncation"], "auto");
    // extra_body wins where it names the same field, as in OpenAI's SDK.
    assert_eq!(body["text"], json!({"verbosity": "high"}));
    assert_eq!(body["store"], false);
    assert_eq!(body["vendor_flag"], json!([1, 2]));
    for absent in ["foo", "enable_tool_search", "extra_body"] {
        assert!(body.get(absent).is_none(), "{absent} was sent: {body}");
    }
    assert_eq!(body["model"], "gpt-5");
    assert_eq!(body["stream"], true);
}

#[tokio::test]
async fn text_verbosity_and_reasoning_effort_go_as_written() {
    let server = MockLlm::start(vec![text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: openai, model: gpt-5-mini, base_url: '{}/v1', \
          reasoning: {{effort: minimal}}, text: {{verbosity: low}}}}",
        server.base_url
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["text"], json!({"verbosity": "low"}));
    // MassGen asks reasoning models for summaries where the config says nothing of them.
    assert_eq!(
        body["reasoning"],
        json!({"effort": "minimal", "summary": "auto"})
    );
}

#[tokio::test]
async fn organization_becomes_the_openai_organization_header() {
    let server = MockLlm::start(vec![text_reply(&["hi"]), text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: openai, model: gpt-5, base_url: '{}/v1', organization: org-AbC123}}",
        server.base_url
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    let _ = turn(&backend(&config), question()).await;
    let (plain, _) = load_backend(&format!(
        "{{type: openai, model: gpt-5, base_url: '{}/v1'}}",
        server.base_url
    ));
    let _ = turn(&backend(&plain), question()).await;
    let requests = server.requests();
    assert_eq!(
        requests[0].header("openai-organization"),
        Some("org-AbC123")
    );
    assert!(requests[0].body.get("organization").is_none());
    assert_eq!(requests[1].header("openai-organization"), None);
}

#[tokio::test]
async fn search_context_size_sizes_openais_web_search_tool() {
    let server = MockLlm::start(vec![text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: openai, model: gpt-5, base_url: '{}/v1', enable_web_search: true, \
          search_context_size: high}}",
        server.base_url
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(
        body["tools"],
        json!([{"type": "web_search", "search_context_size": "high"}])
    );
    // Not as a request field, which OpenAI refuses.
    assert!(body.get("search_context_size").is_none(), "{body}");
}
