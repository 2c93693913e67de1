//! OpenRouter's web search over Chat Completions: the `web` plugin in the request, with
//! MassGen's defaults or the config's `engine`, `max_results`, `search_prompt` and
//! `search_context_size`, and the pages the answer cites (`url_citation` annotations) as a
//! provider tool card; Grok's `organization` header over Chat Completions.

use massgen::config::{BackendKind, ServerTools};
use massgen::protocol::Source;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::Reply;

use super::*;

#[tokio::test]
async fn the_web_plugin_is_requested_and_cited_pages_become_a_card() {
    let reply = Reply::sse(&[
        chunk(
            json!({"role": "assistant", "content": "Rust 2024 shipped with 1.85."}),
            None,
        ),
        chunk(
            json!({"annotations": [{"type": "url_citation", "url_citation": {
                "url": "https://blog.rust-lang.org/2025/02/20/Rust-1.85.0.html",
                "title": "Announcing Rust 1.85.0 and Rust 2024",
                "content": "…", "start_index": 0, "end_index": 28}}]}),
            Some("stop"),
        ),
        usage_chunk(40, 12, 0, 0),
        DONE.into(),
    ]);
    let (server, mut config) = serve(
        BackendKind::Openrouter,
        "openai/gpt-4o",
        "/api/v1",
        vec![reply],
    )
    .await;
    config.server_tools = ServerTools {
        web_search: true,
        x_search: false,
        code_execution: false,
    };
    config.api_key = Some(massgen::config::Secret::new(KEY));
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(
        server.requests()[0].body["plugins"],
        json!([{"id": "web", "engine": "exa", "max_results": 5}])
    );
    let cards = provider_tools(&events);
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0].tool, "web_search");
    assert_eq!(
        cards[0].sources,
        [Source {
            title: "Announcing Rust 1.85.0 and Rust 2024".into(),
            url: "https://blog.rust-lang.org/2025/02/20/Rust-1.85.0.html".into(),
        }]
    );
}

#[tokio::test]
async fn the_configs_tuning_keys_shape_the_plugin() {
    let (server, config) = serve(
        BackendKind::Openrouter,
        "openai/gpt-4o",
        "/api/v1",
        vec![text_reply(&["hi"])],
    )
    .await;
    let (mut tuned, warnings) = load_backend(&format!(
        "{{type: openrouter, model: openai/gpt-4o, base_url: '{}', enable_web_search: true, \
          engine: native, max_results: 3, search_prompt: 'Sources:', search_context_size: low}}",
        config.base_url.as_deref().unwrap()
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    tuned.api_key = Some(massgen::config::Secret::new(KEY));
    let _ = turn(&backend(&tuned), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(
        body["plugins"],
        json!([{"id": "web", "engine": "native", "max_results": 3, "search_prompt": "Sources:"}])
    );
    assert_eq!(
        body["web_search_options"],
        json!({"search_context_size": "low"})
    );
    for absent in [
        "engine",
        "max_results",
        "search_prompt",
        "search_context_size",
    ] {
        assert!(body.get(absent).is_none(), "{absent} was sent: {body}");
    }
}

#[tokio::test]
async fn grok_sends_its_organization_over_chat_completions_too() {
    let (server, config) = serve(
        BackendKind::Grok,
        "grok-4",
        "/v1",
        vec![text_reply(&["hi"])],
    )
    .await;
    let (grok, warnings) = load_backend(&format!(
        "{{type: grok, model: grok-4, base_url: '{}', organization: org-xyz}}",
        config.base_url.as_deref().unwrap()
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    let _ = turn(&backend(&grok), question()).await;
    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.header("openai-organization"), Some("org-xyz"));
}
