//! The scripted backend over several calls: what it remembers between them.

use futures::StreamExt;
use serde_json::json;

use super::ScriptedBackend;
use crate::backend::{Backend, ChatRequest, Message, StreamEvent, ToolCall, ToolSpec};
use crate::config::ScriptedOptions;
use crate::protocol::{AgentId, AnonymousMapping};

async fn text_of(backend: &ScriptedBackend, request: ChatRequest) -> String {
    let events: Vec<_> = backend.stream(request).collect().await;
    events
        .into_iter()
        .filter_map(|event| {
            if let Ok(StreamEvent::TextDelta(text)) = event {
                Some(text)
            } else {
                None
            }
        })
        .collect()
}

#[tokio::test]
async fn the_reply_to_its_question_is_remembered_for_the_final_presentation() {
    let id = AgentId::new("a");
    let mapping = AnonymousMapping::new([&id]);
    let options = ScriptedOptions {
        tokens_per_second: 0.0,
        ask: Some(json!({"question": "Which colour?"})),
        final_answer: Some("We chose {reply}.".into()),
        ..ScriptedOptions::default()
    };
    let backend = ScriptedBackend::new(
        "scripted".into(),
        options,
        mapping.anon(&id).cloned(),
        mapping,
    );
    let presentation = ChatRequest {
        messages: vec![Message::user(
            "<ORIGINAL MESSAGE>q<END OF ORIGINAL MESSAGE>",
        )],
        tools: vec![],
    };
    assert_eq!(
        text_of(&backend, presentation.clone()).await,
        "We chose no reply."
    );
    let asked = ChatRequest {
        messages: vec![
            Message::user("<ORIGINAL MESSAGE>q<END OF ORIGINAL MESSAGE>"),
            Message::assistant(
                "",
                vec![ToolCall {
                    id: "c1".into(),
                    name: "ask_others".into(),
                    arguments: "{}".into(),
                    signature: None,
                }],
            ),
            Message::Tool {
                call_id: "c1".into(),
                name: "ask_others".into(),
                content: json!({"status": "complete", "responses": [
                    {"responder_id": "human", "content": "blue"}]})
                .to_string(),
                is_error: false,
            },
        ],
        tools: vec![ToolSpec {
            name: "vote".into(),
            description: String::new(),
            parameters: json!({"properties": {"agent_id": {"enum": []}}}),
        }],
    };
    text_of(&backend, asked).await;
    assert_eq!(text_of(&backend, presentation).await, "We chose blue.");
}
