//! The scripted backend over several calls: what it remembers between them.

use futures::StreamExt;
use serde_json::json;

use super::ScriptedBackend;
use crate::backend::{Backend, ChatRequest, Message, StreamEvent, ToolCall, ToolSpec};
use crate::config::{ScriptedOptions, ScriptedToolCall};
use crate::protocol::{AgentId, AnonymousMapping};

/// Plays `calls` back into the conversation, each answered with `answer(call)`:
/// the result's text and whether it is an error.
pub(super) fn reply_with(
    request: &mut ChatRequest,
    calls: &[ScriptedToolCall],
    answer: impl Fn(&ScriptedToolCall) -> (String, bool),
) {
    let n = request.messages.len();
    let tool_calls: Vec<ToolCall> = calls
        .iter()
        .enumerate()
        .map(|(index, call)| ToolCall {
            id: format!("c{n}_{index}"),
            name: call.name.clone(),
            arguments: call.arguments.to_string(),
            signature: None,
        })
        .collect();
    std::sync::Arc::make_mut(&mut request.messages)
        .push(Message::assistant("", tool_calls.clone()));
    for (tool_call, call) in tool_calls.into_iter().zip(calls) {
        let (content, is_error) = answer(call);
        std::sync::Arc::make_mut(&mut request.messages).push(Message::Tool {
            call_id: tool_call.id,
            name: tool_call.name,
            content,
            is_error,
        });
    }
}

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

/// A scripted backend for agent `a` with `options`, and a presentation request for
/// question `q` to ask it with.
fn asking(options: ScriptedOptions) -> (ScriptedBackend, ChatRequest) {
    let id = AgentId::new("a");
    let mapping = AnonymousMapping::new([&id]);
    let backend = ScriptedBackend::new(
        "scripted".into(),
        options,
        mapping.anon(&id).cloned(),
        mapping,
    );
    let presentation = ChatRequest {
        messages: vec![Message::user(
            "<ORIGINAL MESSAGE>q<END OF ORIGINAL MESSAGE>",
        )]
        .into(),
        tools: vec![],
    };
    (backend, presentation)
}

#[tokio::test]
async fn the_reply_to_its_question_is_remembered_for_the_final_presentation() {
    let options = ScriptedOptions {
        tokens_per_second: 0.0,
        ask: Some(json!({"question": "Which colour?"})),
        final_answer: Some("We chose {reply}.".into()),
        ..ScriptedOptions::default()
    };
    let (backend, presentation) = asking(options);
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
        ]
        .into(),
        tools: vec![ToolSpec {
            name: "vote".into(),
            description: String::new(),
            parameters: json!({"properties": {"agent_id": {"enum": []}}}),
        }],
    };
    text_of(&backend, asked).await;
    assert_eq!(
        text_of(&backend, presentation.clone()).await,
        "We chose blue."
    );
    let mut next_turn = presentation;
    next_turn.messages = vec![Message::user(
        "<ORIGINAL MESSAGE>another question<END OF ORIGINAL MESSAGE>",
    )]
    .into();
    assert_eq!(
        text_of(&backend, next_turn).await,
        "We chose no reply.",
        "a reply belongs to the question it was asked about"
    );
}

#[tokio::test]
async fn with_reply_is_added_to_the_final_answer_only_once_someone_replied() {
    let options = ScriptedOptions {
        tokens_per_second: 0.0,
        ask: Some(json!({"question": "Which colour?"})),
        final_answer: Some("The answer.".into()),
        with_reply: Some("Painted {reply}, as you chose.".into()),
        ..ScriptedOptions::default()
    };
    let (backend, presentation) = asking(options);
    assert_eq!(text_of(&backend, presentation.clone()).await, "The answer.");
    let mut asked = presentation.clone();
    reply_with(
        &mut asked,
        &[ScriptedToolCall {
            name: "ask_others".into(),
            arguments: json!({}),
        }],
        |_| {
            (
                json!({"status": "complete", "responses": [
                    {"responder_id": "human", "content": "blue"}]})
                .to_string(),
                false,
            )
        },
    );
    text_of(&backend, asked).await;
    assert_eq!(
        text_of(&backend, presentation).await,
        "The answer.\n\nPainted blue, as you chose."
    );
}
