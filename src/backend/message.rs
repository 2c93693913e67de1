//! Provider-neutral chat messages, tool specs and stream events.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::protocol::{Attachment, ProviderToolCall, Usage};

/// A tool offered to the model; `parameters` is a JSON schema.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// A complete tool call made by the model. `arguments` is the JSON text as sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
    /// Opaque provider state that must go back with the call in the next request
    /// (Gemini's thought signature).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// A block of model reasoning the provider signed, to be returned verbatim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReasoningBlock {
    Signed {
        text: String,
        signature: String,
    },
    /// Reasoning the provider encrypted; only `data` can be sent back.
    Redacted {
        data: String,
    },
    /// A call of the provider's own tool (web search, code execution) or its result, as
    /// the `wire` protocol wrote it, sent back verbatim by that protocol only.
    ProviderTool {
        wire: ProviderWire,
        item: serde_json::Value,
    },
}

/// The protocol a [`ReasoningBlock::ProviderTool`] item is written in. Only Anthropic's
/// server-tool blocks are sent back: a Responses `web_search_call` item would need the
/// reasoning item before it, which is not kept, and Gemini needs neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderWire {
    Anthropic,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    System {
        content: String,
    },
    User {
        content: String,
        /// Images and files sent with the text (the question's `@path`s, `upload_files`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        attachments: Vec<Attachment>,
    },
    Assistant {
        content: String,
        tool_calls: Vec<ToolCall>,
        /// Blocks that must precede the tool calls when they are sent back, in the order
        /// they streamed: signed reasoning (Anthropic's extended thinking) and the calls of
        /// the provider's own tools with their results.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reasoning: Vec<ReasoningBlock>,
    },
    /// The result of one tool call, linked to it by `call_id`.
    Tool {
        call_id: String,
        name: String,
        content: String,
        is_error: bool,
    },
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Self::System {
            content: content.into(),
        }
    }

    pub fn user(content: impl Into<String>) -> Self {
        Self::user_with(content, Vec::new())
    }

    /// A user message carrying images or files beside its text.
    pub fn user_with(content: impl Into<String>, attachments: Vec<Attachment>) -> Self {
        Self::User {
            content: content.into(),
            attachments,
        }
    }

    /// An assistant message with text and tool calls and no signed reasoning.
    pub fn assistant(content: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        Self::Assistant {
            content: content.into(),
            tool_calls,
            reasoning: Vec::new(),
        }
    }

    /// The text of the message, whatever its role.
    pub fn content(&self) -> &str {
        match self {
            Self::System { content }
            | Self::User { content, .. }
            | Self::Assistant { content, .. }
            | Self::Tool { content, .. } => content,
        }
    }
}

/// One model call's input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// Shared with the round that sends them, not copied: a coordination prompt carries
    /// every peer's answer, and all of a large team's rounds start at once.
    pub messages: Arc<Vec<Message>>,
    pub tools: Vec<ToolSpec>,
}

/// Why the model stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    Stop,
    ToolCalls,
    Length,
    ContentFilter,
    Other(String),
}

/// One piece of a streamed response, in provider-neutral form.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    TextDelta(String),
    ReasoningDelta(String),
    /// A tool call begins; `index` identifies it among parallel calls.
    ToolCallStart {
        index: usize,
        id: String,
        name: String,
    },
    /// A fragment of a tool call's JSON arguments.
    ToolCallArgsDelta {
        index: usize,
        fragment: String,
    },
    /// The reasoning streamed since the last signature forms one signed block.
    ReasoningSignature(String),
    /// An encrypted reasoning block, to be sent back as it is.
    RedactedReasoning(String),
    /// Opaque state to send back with the tool call (Gemini's `thoughtSignature`).
    ToolCallSignature {
        index: usize,
        signature: String,
    },
    /// The provider ran one of its own tools; shown as a tool card, never run here.
    ProviderTool(ProviderToolCall),
    /// Provider state to send back before the tool calls (a server tool's call or result).
    ProviderBlock {
        wire: ProviderWire,
        item: serde_json::Value,
    },
    Usage(Usage),
    /// What the call cost in US dollars, as the provider's own client computed it (an agent
    /// CLI's report); preferred to the price table's estimate.
    ReportedCost(f64),
    Finish(FinishReason),
    /// The call failed in a retryable way and starts again after `delay`; everything
    /// streamed so far by this call is void.
    Retry {
        attempt: u32,
        max_retries: u32,
        delay: std::time::Duration,
        reason: String,
    },
}
