//! Gemini's built-in tools: `google_search` and `code_execution` in a request without
//! function declarations (never beside them, which Gemini 2.x refuses); `executableCode` /
//! `codeExecutionResult` parts and `groundingMetadata` decoded into provider tool cards
//! (code and output, queries and pages with links) and counted for the bill.

use massgen::protocol::Source;
use serde_json::json;

use crate::harness::*;
use crate::mock_llm::Reply;

use super::*;

/// Code run, then a grounded answer, in the shapes of Gemini's code execution and
/// grounding guides.
fn ran_and_grounded() -> Reply {
    Reply::sse(&[
        event(&response(
            json!([
                {"executableCode": {"language": "PYTHON", "code": "print(2024 - 2015)\n"}},
                {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "9\n"}}
            ]),
            None,
            None,
        )),
        event(&response(
            json!([{"text": "Rust 2024 shipped with 1.85."}]),
            None,
            None,
        )),
        {
            let mut last = response(
                json!([{"text": ""}]),
                Some("STOP"),
                Some(usage(40, 20, 0, 0)),
            );
            last["candidates"][0]["groundingMetadata"] = json!({
                "webSearchQueries": ["rust 2024 edition release"],
                "searchEntryPoint": {"renderedContent": "<style>…</style>"},
                "groundingChunks": [
                    {"web": {"uri": "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ1", "title": "rust-lang.org"}},
                    {"web": {"uri": "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ2", "title": "doc.rust-lang.org"}}
                ],
                "groundingSupports": [{"segment": {"startIndex": 0, "endIndex": 28, "text": "Rust 2024 shipped with 1.85."}, "groundingChunkIndices": [0, 1]}]
            });
            event(&last)
        },
    ])
}

#[tokio::test]
async fn the_built_in_tools_go_only_on_calls_without_functions() {
    let (server, config) = GEMINI
        .serve(vec![text_reply(&["hi"]), text_reply(&["hi"])])
        .await;
    let backend = backend(&with_server_tools(config));
    let _ = turn(&backend, question()).await;
    let _ = turn(&backend, with_tools()).await;
    let requests = server.requests();
    assert_eq!(
        requests[0].body["tools"],
        json!([{"google_search": {}}, {"code_execution": {}}])
    );
    let tools = requests[1].body["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert!(tools[0].get("functionDeclarations").is_some());
}

#[tokio::test]
async fn code_runs_and_grounding_become_tool_cards() {
    let (_server, config) = GEMINI.serve(vec![ran_and_grounded()]).await;
    let (events, error) = collect(&backend(&with_server_tools(config)), question()).await;
    assert_eq!(error, None);
    assert_eq!(texts(&events), ["Rust 2024 shipped with 1.85."]);
    let cards = provider_tools(&events);
    assert_eq!(cards.len(), 2, "{cards:?}");
    assert_eq!(
        (
            cards[0].tool.as_str(),
            cards[0].input.as_str(),
            cards[0].output.as_str()
        ),
        ("code_execution", "print(2024 - 2015)\n", "9")
    );
    assert!(cards[0].ok);
    assert_eq!(
        (cards[1].tool.as_str(), cards[1].input.as_str()),
        ("google_search", "rust 2024 edition release")
    );
    assert_eq!(
        cards[1].sources,
        [
            Source {
                title: "rust-lang.org".into(),
                url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ1"
                    .into(),
            },
            Source {
                title: "doc.rust-lang.org".into(),
                url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ2"
                    .into(),
            },
        ]
    );
    assert_eq!(usages(&events)[0].web_searches, 1);
    assert!(assemble(&events).tool_calls.is_empty());
}

#[tokio::test]
async fn failed_code_is_a_failed_card() {
    let reply = Reply::sse(&[event(&response(
        json!([
            {"executableCode": {"language": "PYTHON", "code": "1/0"}},
            {"codeExecutionResult": {"outcome": "OUTCOME_FAILED", "output": "ZeroDivisionError: division by zero"}},
            {"text": "It failed."}
        ]),
        Some("STOP"),
        Some(usage(10, 5, 0, 0)),
    ))]);
    let (_server, config) = GEMINI.serve(vec![reply]).await;
    let (events, _) = collect(&backend(&with_server_tools(config)), question()).await;
    let cards = provider_tools(&events);
    assert_eq!(cards.len(), 1);
    assert!(!cards[0].ok);
    assert_eq!(cards[0].output, "ZeroDivisionError: division by zero");
    assert_eq!(usages(&events)[0].web_searches, 0);
    // Counted like any code run (Gemini charges only its tokens for it).
    assert_eq!(assemble(&events).usage.code_runs, 1);
}
