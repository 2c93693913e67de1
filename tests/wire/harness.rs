//! Builds real HTTP backends pointed at a mock server and collects what they stream.

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use massgen::backend::provider;
use massgen::backend::{
    AssistantTurn, Backend, BackendError, ChatRequest, Message, StreamEvent, ToolSpec, TurnBuilder,
    http_backend, http_client,
};
use massgen::config::{BackendConfig, BackendKind, Env};

pub const KEY: &str = "sk-test-key-123";

pub fn config(kind: BackendKind, model: &str, base_url: &str) -> BackendConfig {
    BackendConfig {
        base_url: Some(base_url.into()),
        max_retries: Some(0),
        timeout: Some(Duration::from_secs(5)),
        ..BackendConfig::new(kind, model)
    }
}

/// The backend for `config`, its key taken from the provider's variable (set to [`KEY`]).
pub fn backend(config: &BackendConfig) -> Arc<dyn Backend> {
    let env = Env::from_pairs([
        ("OPENAI_API_KEY", KEY),
        ("ANTHROPIC_API_KEY", KEY),
        ("GOOGLE_API_KEY", KEY),
        ("XAI_API_KEY", KEY),
        ("AZURE_OPENAI_API_KEY", KEY),
    ]);
    let endpoint = provider::resolve(config, &env).unwrap();
    http_backend(config, &endpoint, http_client().unwrap())
}

/// The backend for `config` with no key anywhere (a local server).
pub fn keyless_backend(config: &BackendConfig) -> Arc<dyn Backend> {
    let endpoint = provider::resolve(config, &Env::default()).unwrap();
    http_backend(config, &endpoint, http_client().unwrap())
}

pub fn question() -> ChatRequest {
    ChatRequest {
        messages: vec![
            Message::system("You are helpful."),
            Message::user("What is 2+2?"),
        ],
        tools: Vec::new(),
    }
}

pub fn with_tools() -> ChatRequest {
    ChatRequest {
        tools: vec![ToolSpec {
            name: "get_weather".into(),
            description: "Weather for a city".into(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": false
            }),
        }],
        ..question()
    }
}

/// A conversation that already went through one tool round-trip.
pub fn after_tool_call() -> ChatRequest {
    let mut request = with_tools();
    request.messages.push(Message::Assistant {
        content: "Let me check.".into(),
        tool_calls: vec![massgen::backend::ToolCall {
            id: "call_1".into(),
            name: "get_weather".into(),
            arguments: r#"{"city":"Paris"}"#.into(),
            signature: None,
        }],
        reasoning: Vec::new(),
    });
    request.messages.push(Message::Tool {
        call_id: "call_1".into(),
        name: "get_weather".into(),
        content: "sunny, 21 C".into(),
        is_error: false,
    });
    request
}

/// Every event of one call, and the error that ended it, if any.
pub async fn collect(
    backend: &Arc<dyn Backend>,
    request: ChatRequest,
) -> (Vec<StreamEvent>, Option<BackendError>) {
    let mut stream = backend.stream(request);
    let mut events = Vec::new();
    while let Some(item) = stream.next().await {
        match item {
            Ok(event) => events.push(event),
            Err(error) => return (events, Some(error)),
        }
    }
    (events, None)
}

/// The assembled turn of a call that must succeed.
pub async fn turn(backend: &Arc<dyn Backend>, request: ChatRequest) -> AssistantTurn {
    let (events, error) = collect(backend, request).await;
    assert_eq!(error, None, "events so far: {events:?}");
    let mut builder = TurnBuilder::default();
    for event in &events {
        builder.push(event);
    }
    builder.finish().unwrap()
}

pub fn texts(events: &[StreamEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::TextDelta(text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

pub fn reasoning(events: &[StreamEvent]) -> String {
    events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::ReasoningDelta(text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

pub fn retries(events: &[StreamEvent]) -> Vec<(u32, Duration, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Retry {
                attempt,
                delay,
                reason,
                ..
            } => Some((*attempt, *delay, reason.clone())),
            _ => None,
        })
        .collect()
}

/// `config` allowing `retries` retries.
pub fn retrying(mut config: BackendConfig, retries: u32) -> BackendConfig {
    config.max_retries = Some(retries);
    config
}

/// `config` giving up after `millis` of silence.
pub fn impatient(mut config: BackendConfig, millis: u64) -> BackendConfig {
    config.timeout = Some(Duration::from_millis(millis));
    config
}
