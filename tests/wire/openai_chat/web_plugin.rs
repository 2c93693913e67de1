//! OpenRouter's web search over Chat Completions: the `web` plugin in the request, with
//! MassGen's defaults, and the pages the answer cites (`url_citation` annotations) as a
//! provider tool card.

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
