//! A Gemini agent with `enable_web_search` in a coordination round: the workflow tools go
//! as JSON text in the system instruction beside `google_search` (Gemini 2.x refuses
//! built-in tools beside function declarations), earlier workflow calls are replayed as
//! text, and the model's JSON reply comes back as the tool call; a call with any other
//! function is sent as before.

use massgen::backend::{ChatRequest, Message, ToolCall};
use massgen::protocol::{AgentId, AnonymousMapping};
use massgen::tools::post_evaluation::post_evaluation_tools;
use massgen::tools::workflow::workflow_tools;
use serde_json::{Value, json};

use crate::harness::*;
use crate::mock_llm::{MockLlm, Reply};

use super::*;

/// A config loaded as a user writes it: web search on, nothing else.
async fn searching(replies: Vec<Reply>) -> (MockLlm, massgen::config::BackendConfig) {
    let server = MockLlm::start(replies).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: gemini, model: gemini-2.5-flash, base_url: '{}', enable_web_search: true}}",
        server.base_url
    ));
    assert_eq!(warnings, Vec::<String>::new());
    (server, config)
}

/// A coordination round's request: `new_answer` and `vote` for agent1 and agent2.
fn round() -> ChatRequest {
    let ids = [AgentId::new("a"), AgentId::new("b")];
    let mapping = AnonymousMapping::new(&ids);
    let candidates: Vec<_> = mapping.pairs().map(|(anon, _)| anon.clone()).collect();
    ChatRequest {
        tools: workflow_tools(&candidates, false),
        ..question()
    }
}

/// A reply streamed in pieces: prose, then the action in a ```json fence.
fn json_reply(pieces: &[&str]) -> Reply {
    let mut events: Vec<String> = pieces
        .iter()
        .map(|piece| event(&response(json!([{ "text": piece }]), None, None)))
        .collect();
    events.push(event(&response(
        json!([{"text": ""}]),
        Some("STOP"),
        Some(usage(30, 20, 0, 0)),
    )));
    Reply::sse(&events)
}

fn system_text(body: &Value) -> String {
    body["systemInstruction"]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|part| part["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn a_round_with_only_workflow_tools_searches_and_asks_for_json() {
    let (server, config) = searching(vec![text_reply(&["hi"])]).await;
    let _ = turn(&backend(&config), round()).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["tools"], json!([{"google_search": {}}]));
    let system = system_text(body);
    assert!(system.starts_with("You are helpful."), "{system}");
    assert!(system.contains("\"action_type\": \"vote\""), "{system}");
    assert!(
        system.contains("\"action_type\": \"new_answer\""),
        "{system}"
    );
    assert!(
        system.contains("Allowed values: \"agent1\", \"agent2\""),
        "{system}"
    );
}

#[tokio::test]
async fn a_json_vote_after_prose_becomes_the_vote_call() {
    let (_server, config) = searching(vec![json_reply(&[
        "Agent 2 cites current sources.\n\n```json\n{\"action_type\": \"vote\", ",
        "\"vote_data\": {\"action\": \"vote\", \"agent_id\": \"agent2\", ",
        "\"reason\": \"current sources\"}}\n```",
    ])])
    .await;
    let (events, error) = collect(&backend(&config), round()).await;
    assert_eq!(error, None);
    let turn = assemble(&events);
    assert!(turn.text.starts_with("Agent 2 cites"), "{}", turn.text);
    assert_eq!(turn.tool_calls.len(), 1);
    assert_eq!(turn.tool_calls[0].name, "vote");
    assert_eq!(
        serde_json::from_str::<Value>(&turn.tool_calls[0].arguments).unwrap(),
        json!({"agent_id": "agent2", "reason": "current sources"})
    );
    assert!(matches!(
        events.last(),
        Some(massgen::backend::StreamEvent::Finish(
            massgen::backend::FinishReason::ToolCalls
        ))
    ));
}

#[tokio::test]
async fn a_json_new_answer_becomes_the_new_answer_call_and_bad_json_is_no_call() {
    let (_server, config) = searching(vec![
        json_reply(&["{\"action_type\": \"new_answer\", \"answer_data\": {\"content\": \"4\"}}"]),
        json_reply(&["```json\n{\"action_type\": \"new_answer\", \"answer_data\": "]),
    ])
    .await;
    let backend = backend(&config);
    let answered = turn(&backend, round()).await;
    assert_eq!(answered.tool_calls.len(), 1);
    assert_eq!(answered.tool_calls[0].name, "new_answer");
    assert_eq!(
        serde_json::from_str::<Value>(&answered.tool_calls[0].arguments).unwrap(),
        json!({"content": "4"})
    );
    let broken = turn(&backend, round()).await;
    assert!(broken.tool_calls.is_empty());
}

#[tokio::test]
async fn post_evaluation_goes_as_text_and_submit_comes_back() {
    let (server, config) = searching(vec![json_reply(&[
        "Complete.\n{\"action_type\": \"submit\", \"submit_data\": {\"confirmed\": true}}",
    ])])
    .await;
    let request = ChatRequest {
        tools: post_evaluation_tools(),
        ..question()
    };
    let answered = turn(&backend(&config), request).await;
    let body = &server.requests()[0].body;
    assert_eq!(body["tools"], json!([{"google_search": {}}]));
    assert!(system_text(body).contains("\"restart_data\""));
    assert_eq!(answered.tool_calls.len(), 1);
    assert_eq!(answered.tool_calls[0].name, "submit");
}

#[tokio::test]
async fn earlier_workflow_calls_are_replayed_as_text() {
    let (server, config) = searching(vec![text_reply(&["hi"])]).await;
    let mut request = round();
    std::sync::Arc::make_mut(&mut request.messages).push(Message::Assistant {
        content: String::new(),
        tool_calls: vec![ToolCall {
            id: "c1".into(),
            name: "vote".into(),
            arguments: r#"{"agent_id":"agent3","reason":"r"}"#.into(),
            signature: None,
        }],
        reasoning: Vec::new(),
    });
    std::sync::Arc::make_mut(&mut request.messages).push(Message::Tool {
        call_id: "c1".into(),
        name: "vote".into(),
        content: "Invalid agent_id 'agent3'. Valid agents: agent1, agent2".into(),
        is_error: true,
    });
    let _ = turn(&backend(&config), request).await;
    let contents = server.requests()[0].body["contents"].clone();
    let text = contents.to_string();
    assert!(!text.contains("functionCall"), "{text}");
    assert!(!text.contains("functionResponse"), "{text}");
    let model = &contents[1];
    assert_eq!(model["role"], "model");
    assert!(
        model["parts"][0]["text"]
            .as_str()
            .unwrap()
            .contains(r#""action_type":"vote""#),
        "{model}"
    );
    assert_eq!(
        contents[2],
        json!({"role": "user", "parts": [{"text": "Result of `vote` (error): Invalid agent_id 'agent3'. Valid agents: agent1, agent2"}]})
    );
}

#[tokio::test]
async fn any_other_function_keeps_the_declarations_and_no_search() {
    let (server, config) = searching(vec![text_reply(&[
        "{\"action_type\": \"vote\", \"vote_data\": {\"agent_id\": \"agent1\", \"reason\": \"r\"}}",
    ])])
    .await;
    let mut request = round();
    request.tools.extend(with_tools().tools);
    let answered = turn(&backend(&config), request).await;
    let body = &server.requests()[0].body;
    let tools = body["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1, "{tools:?}");
    let names: Vec<&str> = tools[0]["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|declaration| declaration["name"].as_str())
        .collect();
    assert_eq!(names, ["new_answer", "vote", "get_weather"]);
    assert!(!system_text(body).contains("action_type"));
    assert!(
        answered.tool_calls.is_empty(),
        "text is not turned into calls"
    );
}
