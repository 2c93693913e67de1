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
use massgen::protocol::Usage;

use crate::mock_llm::{MockLlm, Reply};

pub const KEY: &str = "sk-test-key-123";

pub fn config(kind: BackendKind, model: &str, base_url: &str) -> BackendConfig {
    BackendConfig {
        base_url: Some(base_url.into()),
        max_retries: Some(0),
        timeout: Some(Duration::from_secs(5)),
        ..BackendConfig::new(kind, model)
    }
}

/// One protocol as the tests drive it: the backend type and model of its config, what
/// follows the server's address in `base_url`, and how it streams a plain answer.
pub struct Protocol {
    pub kind: BackendKind,
    pub model: &'static str,
    pub path: &'static str,
    pub text_reply: fn(&[&str]) -> Reply,
}

impl Protocol {
    /// A server that answers with `replies`, and the config that calls it.
    pub async fn serve(&self, replies: Vec<Reply>) -> (MockLlm, BackendConfig) {
        serve(self.kind, self.model, self.path, replies).await
    }

    /// A server that answers `first`, then streams the text "4".
    pub async fn serve_then_four(&self, first: Reply) -> (MockLlm, BackendConfig) {
        self.serve(vec![first, (self.text_reply)(&["4"])]).await
    }
}

/// A server that answers with `replies`, and a `kind` config for `model` whose base URL is
/// the server's followed by `path` (`/v1`, or empty).
pub async fn serve(
    kind: BackendKind,
    model: &str,
    path: &str,
    replies: Vec<Reply>,
) -> (MockLlm, BackendConfig) {
    let server = MockLlm::start(replies).await;
    let config = config(kind, model, &format!("{}{path}", server.base_url));
    (server, config)
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
        ]
        .into(),
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
    std::sync::Arc::make_mut(&mut request.messages).push(Message::Assistant {
        content: "Let me check.".into(),
        tool_calls: vec![massgen::backend::ToolCall {
            id: "call_1".into(),
            name: "get_weather".into(),
            arguments: r#"{"city":"Paris"}"#.into(),
            signature: None,
        }],
        reasoning: Vec::new(),
    });
    std::sync::Arc::make_mut(&mut request.messages).push(Message::Tool {
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
    assemble(&events)
}

/// The turn that complete events make up.
pub fn assemble(events: &[StreamEvent]) -> AssistantTurn {
    let mut builder = TurnBuilder::default();
    for event in events {
        builder.push(event);
    }
    builder.finish().unwrap()
}

/// Each tool call's id and arguments, in order.
pub fn ids_and_arguments(turn: &AssistantTurn) -> Vec<(&str, &str)> {
    turn.tool_calls
        .iter()
        .map(|call| (call.id.as_str(), call.arguments.as_str()))
        .collect()
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

pub fn usages(events: &[StreamEvent]) -> Vec<Usage> {
    events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Usage(usage) => Some(*usage),
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

/// The first agent's backend of a config whose only agent has `backend` (a YAML flow
/// mapping), as the config load reads it, with every warning's message; retries off.
pub fn load_backend(backend: &str) -> (BackendConfig, Vec<String>) {
    let text = format!("agents:\n  - id: a\n    backend: {backend}\n");
    let loaded = massgen::config::from_text(&text, "wire.yaml", &Env::default()).unwrap();
    let warnings = loaded
        .warnings
        .iter()
        .map(|warning| warning.message.clone())
        .collect();
    let mut config = loaded.config.agents[0].backend.clone();
    config.max_retries = Some(0);
    config.timeout = Some(Duration::from_secs(5));
    (config, warnings)
}

/// The provider-run tool calls (web search, code execution) the stream reported.
pub fn provider_tools(events: &[StreamEvent]) -> Vec<massgen::protocol::ProviderToolCall> {
    events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::ProviderTool(call) => Some(call.clone()),
            _ => None,
        })
        .collect()
}

/// `config` with the provider's web search and code execution turned on.
pub fn with_server_tools(mut config: BackendConfig) -> BackendConfig {
    config.server_tools = massgen::config::ServerTools {
        web_search: true,
        x_search: false,
        code_execution: true,
    };
    config
}
