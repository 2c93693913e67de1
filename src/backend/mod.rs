//! Model backends: one trait with one required method, `stream()`, and the offline
//! `scripted` stand-in. Real provider wire protocols plug in behind the same trait.

pub mod agent_cli;
pub mod catalog;
pub mod compression;
mod error;
mod factory;
pub mod http;
pub mod local_discovery;
mod message;
pub mod models;
mod o200k;
pub mod provider;
mod redacting;
pub mod scripted;
pub mod secrets;
pub mod tls;
pub mod tokens;
mod turn;
pub mod wire;

use futures::stream::BoxStream;

use crate::config::BackendKind;

pub use error::BackendError;
pub use factory::{
    BackendUnavailable, build_backends, http_backend, http_backend_limited, http_client,
};
pub use message::{
    ChatRequest, FinishReason, Message, ProviderWire, ReasoningBlock, StreamEvent, ToolCall,
    ToolSpec,
};
pub use turn::{AssistantTurn, TurnBuilder};

/// What a backend yields: events as they arrive, or an error that ends the stream.
pub type EventStream = BoxStream<'static, Result<StreamEvent, BackendError>>;

/// A backend whose model runs its own loop of tool calls, reaching massgen's tools
/// through a bridge (see `mcp::bridge`).
pub trait AgentLoop: Send + Sync {
    /// What the next calls use; `None` detaches it.
    fn attach(&self, context: Option<LoopContext>);
}

/// What an agent's own loop is given for a call: the bridge to massgen's tools, and where
/// it runs and what it may touch (`None`: an agent without a workspace).
#[derive(Clone, Debug)]
pub struct LoopContext {
    pub bridge: agent_cli::dialect::BridgeAddress,
    pub confinement: Option<crate::sandbox::Plan>,
}

pub trait Backend: Send + Sync {
    /// The backend type from the config, which decides pricing.
    fn kind(&self) -> BackendKind;

    /// The provider name shown to users (`openai`, `scripted`, …).
    fn provider(&self) -> &str;

    /// The model name as configured.
    fn model(&self) -> &str;

    /// Whether the model runs on the user's own machine or network, and so costs nothing.
    fn is_local(&self) -> bool {
        false
    }

    /// For a backend that runs its own agent loop (an agent CLI): how the orchestrator
    /// hands it the bridge to the agent's tools. `None` for model APIs.
    fn agent_loop(&self) -> Option<&dyn AgentLoop> {
        None
    }

    /// Starts one model call. Events arrive as the provider sends them; the stream ends
    /// after a [`StreamEvent::Finish`], or with an error.
    fn stream(&self, request: ChatRequest) -> EventStream;
}
