//! The Responses API's built-in tools: `web_search` and `code_interpreter` in the request
//! (with `parallel_tool_calls: false`), `web_search_call` and `code_interpreter_call`
//! items decoded into provider tool cards (query, sources and cited pages with links,
//! code and logs) and counted for the bill; xAI's Grok speaks this API for them.

use massgen::backend::{FinishReason, StreamEvent};
use massgen::config::BackendKind;
use massgen::protocol::Source;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::Reply;

use super::*;

const SEARCH_ID: &str = "ws_68b9f2a1c0e48190b5a0c7d1e2f3a4b50a1b2c3d4e5f6a7b";
const CODE_ID: &str = "ci_68b9f2a9d1f08190a1b2c3d4e5f6a7b80a1b2c3d4e5f6a7b";

impl Script {
    /// A search as OpenAI's web search guide shows it, its sources listed in its action.
    fn web_search(&mut self, query: &str, sources: &[&str]) -> &mut Self {
        let index = self.output.len();
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {"id": SEARCH_ID, "type": "web_search_call", "status": "in_progress"}}),
        );
        for stage in ["in_progress", "searching", "completed"] {
            self.event(
                &format!("response.web_search_call.{stage}"),
                json!({"output_index": index, "item_id": SEARCH_ID}),
            );
        }
        let sources: Vec<_> = sources
            .iter()
            .map(|url| json!({"type": "url", "url": url}))
            .collect();
        self.done(
            index,
            json!({"id": SEARCH_ID, "type": "web_search_call", "status": "completed",
                   "action": {"type": "search", "query": query, "sources": sources}}),
        )
    }

    fn code_interpreter(&mut self, code: &str, logs: &str) -> &mut Self {
        let index = self.output.len();
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {"id": CODE_ID, "type": "code_interpreter_call",
                   "status": "in_progress", "code": "", "container_id": "cntr_68b9f2", "outputs": null}}),
        );
        self.event(
            "response.code_interpreter_call.in_progress",
            json!({"output_index": index, "item_id": CODE_ID}),
        );
        self.event(
            "response.code_interpreter_call_code.delta",
            json!({"output_index": index, "item_id": CODE_ID, "delta": code}),
        );
        self.event(
            "response.code_interpreter_call_code.done",
            json!({"output_index": index, "item_id": CODE_ID, "code": code}),
        );
        self.event(
            "response.code_interpreter_call.completed",
            json!({"output_index": index, "item_id": CODE_ID}),
        );
        self.done(
            index,
            json!({"id": CODE_ID, "type": "code_interpreter_call", "status": "completed", "code": code,
                   "container_id": "cntr_68b9f2", "outputs": [{"type": "logs", "logs": logs}]}),
        )
    }

    /// A finished answer whose text cites a page.
    fn cited_message(&mut self, text: &str, url: &str, title: &str) -> &mut Self {
        let index = self.output.len();
        let part = json!({"type": "output_text", "text": text, "logprobs": [], "annotations": [
            {"type": "url_citation", "start_index": 0, "end_index": text.len(), "url": url, "title": title}
        ]});
        self.event(
            "response.output_text.delta",
            json!({"item_id": "msg_1", "output_index": index, "content_index": 0, "delta": text}),
        );
        self.done(
            index,
            json!({"id": "msg_1", "type": "message", "status": "completed", "role": "assistant", "content": [part]}),
        )
    }
}

fn searched_and_ran() -> Reply {
    Reply::sse(
        &Script::new()
            .web_search(
                "rust 2024 edition release",
                &["https://blog.rust-lang.org/2025/02/20/Rust-1.85.0.html"],
            )
            .code_interpreter("print(2024 - 2015)", "9\n")
            .cited_message(
                "Rust 2024 shipped with Rust 1.85.",
                "https://doc.rust-lang.org/edition-guide/rust-2024/index.html",
                "Rust 2024 - The Rust Edition Guide",
            )
            .completed(usage(900, 0, 60, 0)),
    )
}

#[tokio::test]
async fn the_built_in_tools_are_requested_without_parallel_calls() {
    let (server, config) = OPENAI.serve(vec![text_reply(&["hi"])]).await;
    let _ = turn(&backend(&with_server_tools(config)), with_tools()).await;
    let body = &server.requests()[0].body;
    let tools = body["tools"].as_array().unwrap();
    assert_eq!(tools[0]["name"], "get_weather");
    assert_eq!(
        tools[1..],
        [
            json!({"type": "web_search"}),
            json!({"type": "code_interpreter", "container": {"type": "auto"}}),
        ]
    );
    assert_eq!(body["parallel_tool_calls"], json!(false));
    // Without these OpenAI returns neither the code's logs nor the search's sources.
    assert_eq!(
        body["include"],
        json!([
            "web_search_call.action.sources",
            "code_interpreter_call.outputs"
        ])
    );
}

#[tokio::test]
async fn searches_and_code_become_tool_cards_with_their_sources() {
    let (_server, config) = OPENAI.serve(vec![searched_and_ran()]).await;
    let (events, error) = collect(&backend(&with_server_tools(config)), question()).await;
    assert_eq!(error, None);
    assert_eq!(texts(&events), ["Rust 2024 shipped with Rust 1.85."]);
    let cards = provider_tools(&events);
    assert_eq!(cards.len(), 2, "{cards:?}");
    assert_eq!(
        (
            cards[0].tool.as_str(),
            cards[0].input.as_str(),
            cards[0].output.as_str()
        ),
        ("code_interpreter", "print(2024 - 2015)", "9")
    );
    assert_eq!(cards[0].call_id, CODE_ID);
    let search = &cards[1];
    assert_eq!(
        (
            search.call_id.as_str(),
            search.tool.as_str(),
            search.input.as_str()
        ),
        (SEARCH_ID, "web_search", "rust 2024 edition release")
    );
    assert_eq!(
        search.sources,
        [
            Source {
                title: String::new(),
                url: "https://blog.rust-lang.org/2025/02/20/Rust-1.85.0.html".into(),
            },
            Source {
                title: "Rust 2024 - The Rust Edition Guide".into(),
                url: "https://doc.rust-lang.org/edition-guide/rust-2024/index.html".into(),
            },
        ]
    );
    assert_eq!(usages(&events)[0].web_searches, 1);
    // The provider ran both: nothing for massgen to run, one code run for the bill.
    let turn = assemble(&events);
    assert!(turn.tool_calls.is_empty());
    assert_eq!(turn.usage.code_runs, 1);
    assert!(turn.reasoning_blocks.is_empty());
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::Stop))
    );
}

#[tokio::test]
async fn grok_speaks_the_responses_api_for_its_server_tools() {
    let (server, config) = serve(
        BackendKind::Grok,
        "grok-4-1-fast-reasoning",
        "/v1",
        vec![text_reply(&["hi"]), text_reply(&["hi"])],
    )
    .await;
    let _ = turn(&backend(&with_server_tools(config.clone())), question()).await;
    let _ = collect(&backend(&config), question()).await;
    let requests = server.requests();
    assert_eq!(requests[0].path, "/v1/responses");
    assert_eq!(requests[0].body["tools"][0], json!({"type": "web_search"}));
    assert_eq!(
        requests[0].body["tools"][1],
        json!({"type": "code_interpreter", "container": {"type": "auto"}})
    );
    // xAI documents no `include` values for its tools' results.
    assert_eq!(requests[0].body.get("include"), None);
    // Without them, Grok stays on Chat Completions.
    assert_eq!(requests[1].path, "/v1/chat/completions");
}

#[tokio::test]
async fn groks_searches_and_code_become_tool_cards_too() {
    let (_server, config) = serve(
        BackendKind::Grok,
        "grok-4-1-fast-reasoning",
        "/v1",
        vec![searched_and_ran()],
    )
    .await;
    let (events, error) = collect(&backend(&with_server_tools(config)), question()).await;
    assert_eq!(error, None);
    let cards = provider_tools(&events);
    let summary: Vec<_> = cards
        .iter()
        .map(|card| {
            (
                card.tool.as_str(),
                card.input.as_str(),
                card.output.as_str(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("code_interpreter", "print(2024 - 2015)", "9"),
            ("web_search", "rust 2024 edition release", ""),
        ]
    );
    assert_eq!(cards[1].sources.len(), 2);
    assert_eq!(usages(&events)[0].web_searches, 1);
    assert_eq!(assemble(&events).usage.code_runs, 1);
}
