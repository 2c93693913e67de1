//! Anthropic's server tools: the web search and code execution tools and their beta header
//! in the request; `server_tool_use` blocks and their results decoded into provider tool
//! cards (query, pages with links, command and output), counted for the bill, and sent back
//! verbatim with the next request of the turn.

use massgen::backend::{FinishReason, Message, StreamEvent};
use massgen::protocol::Source;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::{Reply, typed};

use super::*;

/// A search for "rust 2024 edition" with two results, a `bash_code_execution` run, the
/// answer text, and a call of our own tool: the shapes of Anthropic's web search and code
/// execution tool documentation.
fn searched_and_ran() -> Reply {
    let mut events = vec![
        message_start(30, 0, 0),
        block_start(
            0,
            json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {}}),
        ),
        input(0, "{\"query\": \"rust "),
        input(0, "2024 edition\"}"),
        block_stop(0),
        block_start(
            1,
            json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [
                {"type": "web_search_result", "url": "https://blog.rust-lang.org/2025/02/20/Rust-1.85.0.html",
                 "title": "Announcing Rust 1.85.0 and Rust 2024", "encrypted_content": "EqgfCioIARgBIiQ3YTAw", "page_age": "February 20, 2025"},
                {"type": "web_search_result", "url": "https://doc.rust-lang.org/edition-guide/rust-2024/index.html",
                 "title": "Rust 2024 - The Rust Edition Guide", "encrypted_content": "EroeCioIARgBIiQ3YTAw", "page_age": null}
            ]}),
        ),
        block_stop(1),
        block_start(
            2,
            json!({"type": "server_tool_use", "id": "srvtoolu_02", "name": "bash_code_execution", "input": {}}),
        ),
        input(2, "{\"command\": \"python3 -c 'print(2024 - 2015)'\"}"),
        block_stop(2),
        block_start(
            3,
            json!({"type": "bash_code_execution_tool_result", "tool_use_id": "srvtoolu_02", "content": {
                "type": "bash_code_execution_result", "stdout": "9\n", "stderr": "", "return_code": 0, "content": []
            }}),
        ),
        block_stop(3),
        block_start(4, json!({"type": "text", "text": ""})),
        text(4, "Rust 2024 shipped with 1.85."),
        block_stop(4),
        tool_use(5, "toolu_01"),
        input(5, "{\"city\": \"Paris\"}"),
        block_stop(5),
    ];
    events.push(typed(&json!({"type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": null},
        "usage": {"output_tokens": 120, "server_tool_use": {"web_search_requests": 1}}})));
    events.push(typed(&json!({"type": "message_stop"})));
    Reply::sse(&events)
}

#[tokio::test]
async fn the_tools_and_their_beta_are_requested() {
    let (server, config) = CLAUDE.serve(vec![text_reply(&["hi"])]).await;
    let _ = turn(&backend(&with_server_tools(config)), with_tools()).await;
    let request = &server.requests()[0];
    assert_eq!(
        request.header("anthropic-beta"),
        Some("code-execution-2025-08-25")
    );
    let tools = request.body["tools"].as_array().unwrap();
    assert_eq!(tools[0]["name"], "get_weather");
    assert_eq!(
        tools[1..],
        [
            json!({"type": "web_search_20250305", "name": "web_search"}),
            json!({"type": "code_execution_20250825", "name": "code_execution"}),
        ]
    );
}

#[tokio::test]
async fn the_tools_beta_joins_the_configs_betas_once() {
    let (server, mut config) = CLAUDE.serve(vec![text_reply(&["hi"])]).await;
    config.betas = vec![
        "context-1m-2025-08-07".into(),
        "code-execution-2025-08-25".into(),
    ];
    let _ = turn(&backend(&with_server_tools(config)), question()).await;
    assert_eq!(
        server.requests()[0].header("anthropic-beta"),
        Some("context-1m-2025-08-07,code-execution-2025-08-25")
    );
}

#[tokio::test]
async fn without_the_tools_there_is_no_beta_header() {
    let (server, config) = CLAUDE.serve(vec![text_reply(&["hi"])]).await;
    let _ = turn(&backend(&config), question()).await;
    let request = &server.requests()[0];
    assert_eq!(request.header("anthropic-beta"), None);
    assert_eq!(request.body.get("tools"), None);
}

#[tokio::test]
async fn searches_and_code_runs_become_tool_cards_and_are_sent_back() {
    let (server, config) = CLAUDE
        .serve(vec![searched_and_ran(), text_reply(&["done"])])
        .await;
    let backend = backend(&with_server_tools(config));
    let (events, error) = collect(&backend, with_tools()).await;
    assert_eq!(error, None);
    let cards = provider_tools(&events);
    assert_eq!(cards.len(), 2, "{cards:?}");
    assert_eq!(
        (cards[0].call_id.as_str(), cards[0].tool.as_str()),
        ("srvtoolu_01", "web_search")
    );
    assert_eq!(cards[0].input, "rust 2024 edition");
    assert_eq!(
        cards[0].sources,
        [
            Source {
                title: "Announcing Rust 1.85.0 and Rust 2024".into(),
                url: "https://blog.rust-lang.org/2025/02/20/Rust-1.85.0.html".into(),
            },
            Source {
                title: "Rust 2024 - The Rust Edition Guide".into(),
                url: "https://doc.rust-lang.org/edition-guide/rust-2024/index.html".into(),
            },
        ]
    );
    assert!(cards[0].ok);
    assert_eq!(cards[1].tool, "bash_code_execution");
    assert_eq!(cards[1].input, "python3 -c 'print(2024 - 2015)'");
    assert_eq!((cards[1].output.as_str(), cards[1].ok), ("9", true));
    assert_eq!(usages(&events)[0].web_searches, 1);
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Finish(FinishReason::ToolCalls))
    );

    // Only our own tool is a call to run; the server's blocks go back before it.
    let turn = assemble(&events);
    // The code run is counted for the bill: its container's 5-minute minimum.
    assert_eq!(turn.usage.code_runs, 1);
    assert_eq!(
        tool_calls(&turn),
        [("toolu_01", "get_weather", "{\"city\": \"Paris\"}")]
    );
    let mut next = with_tools();
    std::sync::Arc::make_mut(&mut next.messages).push(Message::Assistant {
        content: turn.text.clone(),
        tool_calls: turn.tool_calls.clone(),
        reasoning: turn.reasoning_blocks.clone(),
    });
    std::sync::Arc::make_mut(&mut next.messages).push(Message::Tool {
        call_id: "toolu_01".into(),
        name: "get_weather".into(),
        content: "sunny".into(),
        is_error: false,
    });
    let _ = collect(&backend, next).await;
    let sent = &server.requests()[1].body["messages"][1];
    assert_eq!(sent["role"], "assistant");
    let kinds: Vec<&str> = sent["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| block["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "server_tool_use",
            "web_search_tool_result",
            "server_tool_use",
            "bash_code_execution_tool_result",
            "text",
            "tool_use",
        ]
    );
    assert_eq!(
        sent["content"][0],
        json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
               "input": {"query": "rust 2024 edition"}})
    );
    assert_eq!(
        sent["content"][1]["content"][0]["encrypted_content"],
        "EqgfCioIARgBIiQ3YTAw"
    );
}

#[tokio::test]
async fn a_failed_search_is_a_failed_card() {
    let mut events = vec![
        message_start(30, 0, 0),
        block_start(
            0,
            json!({"type": "server_tool_use", "id": "srvtoolu_09", "name": "web_search",
                   "input": {"query": "too many"}}),
        ),
        block_stop(0),
        block_start(
            1,
            json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_09",
                   "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}}),
        ),
        block_stop(1),
    ];
    events.extend(end("end_turn", 5));
    let (_server, config) = CLAUDE.serve(vec![Reply::sse(&events)]).await;
    let (events, _) = collect(&backend(&with_server_tools(config)), question()).await;
    let cards = provider_tools(&events);
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0].input, "too many");
    assert!(!cards[0].ok);
    assert_eq!(cards[0].output, "error: max_uses_exceeded");
}
