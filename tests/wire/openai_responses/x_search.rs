//! xAI's X search (`enable_x_search: true` on a `grok` backend): `{"type": "x_search"}` in
//! the Responses request, and the X search steps xAI streams back, both as the
//! `custom_tool_call` items it sends today (`x_keyword_search`, `x_thread_fetch`, their
//! call ids starting `xs_`) and as the `x_search_call` items it sent before, decoded into
//! `x_search` tool cards with their query and the posts the answer cites, and counted for
//! the bill.

use massgen::backend::{FinishReason, StreamEvent};
use massgen::config::BackendKind;
use massgen::protocol::Source;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::Reply;

use super::*;

const MODEL: &str = "grok-4-1-fast-reasoning";
const KEYWORD_ID: &str = "ctc_b7b464ea-cc85-d44a-0f2f-1f7320e703c3_xs_call_24148162";
const THREAD_ID: &str = "ctc_b7b464ea-cc85-d44a-0f2f-1f7320e703c3_xs_call_14963218";
const LEGACY_ID: &str = "fc_84c1a8ea-1f29-4a33-1049-0ed3561b0f64_us-east-1_0";
const POST: &str = "https://x.com/i/status/1982033415697514642";

impl Script {
    /// One X search step as xAI streams it: a `custom_tool_call` announced with an empty
    /// input, its JSON input streamed and repeated, then the finished item.
    fn x_step(&mut self, id: &str, call_id: &str, name: &str, input: &str) -> &mut Self {
        let index = self.output.len();
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {"call_id": call_id, "input": "", "name": name,
                   "type": "custom_tool_call", "id": id, "status": "in_progress"}}),
        );
        self.event(
            "response.custom_tool_call_input.delta",
            json!({"item_id": id, "output_index": index, "delta": input}),
        );
        self.event(
            "response.custom_tool_call_input.done",
            json!({"item_id": id, "output_index": index, "input": input}),
        );
        self.done(
            index,
            json!({"call_id": call_id, "input": input, "name": name, "type": "custom_tool_call",
                   "id": id, "status": "completed"}),
        )
    }

    /// An answer whose text cites an X post (xAI's citations carry no title).
    fn citing(&mut self, text: &str, url: &str) -> &mut Self {
        let index = self.output.len();
        let part = json!({"type": "output_text", "text": text, "logprobs": [],
                          "annotations": [{"type": "url_citation", "url": url}]});
        self.event(
            "response.output_text.delta",
            json!({"item_id": "msg_x", "output_index": index, "content_index": 0, "delta": text}),
        );
        self.done(
            index,
            json!({"id": "msg_x", "type": "message", "status": "completed", "role": "assistant",
                   "content": [part]}),
        )
    }
}

fn searched_x() -> Reply {
    Reply::sse(
        &Script::new()
            .x_step(
                KEYWORD_ID,
                "xs_call_24148162",
                "x_keyword_search",
                r#"{"query":"from:xai filter:media","limit":20,"mode":"Latest"}"#,
            )
            .x_step(
                THREAD_ID,
                "xs_call_14963218",
                "x_thread_fetch",
                r#"{"post_id":"1982033415697514642"}"#,
            )
            .citing("xAI posted a new video.", POST)
            .completed(usage(8397, 608, 1805, 580)),
    )
}

/// A grok backend with X search on, loaded from YAML as a user writes it.
fn x_search_backend(base_url: &str) -> massgen::config::BackendConfig {
    let (config, warnings) = load_backend(&format!(
        "{{type: grok, model: {MODEL}, base_url: '{base_url}', enable_x_search: true}}"
    ));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(config.server_tools.x_search);
    config
}

#[tokio::test]
async fn enable_x_search_sends_the_x_search_tool_over_the_responses_api() {
    let (server, config) = serve(BackendKind::Grok, MODEL, "/v1", vec![text_reply(&["hi"])]).await;
    let config = x_search_backend(config.base_url.as_deref().unwrap());
    let _ = turn(&backend(&config), with_tools()).await;
    let request = &server.requests()[0];
    // X search exists only in xAI's Responses API, as web search and code execution do.
    assert_eq!(request.path, "/v1/responses");
    let tools = request.body["tools"].as_array().unwrap();
    assert_eq!(tools[0]["name"], "get_weather");
    assert_eq!(tools[1..], [json!({"type": "x_search"})]);
    assert_eq!(request.body["parallel_tool_calls"], json!(false));
    assert_eq!(request.body.get("include"), None);
    assert_eq!(request.body.get("enable_x_search"), None);
}

#[tokio::test]
async fn x_search_steps_become_x_search_cards_with_the_cited_posts() {
    let (_server, config) = serve(BackendKind::Grok, MODEL, "/v1", vec![searched_x()]).await;
    let config = x_search_backend(config.base_url.as_deref().unwrap());
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    assert_eq!(texts(&events), ["xAI posted a new video."]);
    let cards = provider_tools(&events);
    let summary: Vec<_> = cards
        .iter()
        .map(|card| {
            (
                card.call_id.as_str(),
                card.tool.as_str(),
                card.input.as_str(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (KEYWORD_ID, "x_search", "from:xai filter:media"),
            (THREAD_ID, "x_search", "x_thread_fetch 1982033415697514642"),
        ]
    );
    assert!(cards.iter().all(|card| card.ok));
    assert!(cards[0].sources.is_empty());
    assert_eq!(
        cards[1].sources,
        [Source {
            title: String::new(),
            url: POST.into(),
        }]
    );
    // xAI ran them: nothing for massgen to run, and both are billed as X searches.
    let turn = assemble(&events);
    assert!(turn.tool_calls.is_empty());
    assert_eq!(turn.usage.x_searches, 2);
    assert_eq!(turn.usage.web_searches, 0);
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::Stop))
    );
}

#[tokio::test]
async fn the_older_x_search_call_items_are_read_too() {
    let arguments = r#"{"query":"AI artificial intelligence","limit":20,"from_date":"2025-10-01"}"#;
    let reply = Reply::sse(
        &Script::new()
            .done(
                0,
                json!({"arguments": arguments, "call_id": "", "name": "x_semantic_search",
                       "type": "x_search_call", "id": LEGACY_ID, "status": "completed"}),
            )
            .message("msg_1", &["People are talking about AGI."])
            .completed(usage(900, 0, 60, 0)),
    );
    let (_server, config) = serve(BackendKind::Grok, MODEL, "/v1", vec![reply]).await;
    let config = x_search_backend(config.base_url.as_deref().unwrap());
    let (events, error) = collect(&backend(&config), question()).await;
    assert_eq!(error, None);
    let cards = provider_tools(&events);
    assert_eq!(cards.len(), 1, "{cards:?}");
    assert_eq!(
        (
            cards[0].call_id.as_str(),
            cards[0].tool.as_str(),
            cards[0].input.as_str()
        ),
        (LEGACY_ID, "x_search", "AI artificial intelligence")
    );
    assert_eq!(assemble(&events).usage.x_searches, 1);
}

#[tokio::test]
async fn x_search_on_another_backend_type_is_refused_before_any_request() {
    let error = massgen::config::from_text(
        "agents:\n  - id: a\n    backend: {type: openai, model: gpt-5, enable_x_search: true}\n",
        "wire.yaml",
        &massgen::config::Env::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("backend type `openai` does not have"),
        "{error}"
    );
    assert!(error.contains("available on grok"), "{error}");
}
