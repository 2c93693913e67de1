//! The wire protocols, each a thin layer of serde types over HTTP + SSE, and what they
//! share: request options, authentication headers, borrowed JSON helpers.

pub mod anthropic;
pub mod gemini;
pub mod openai_chat;
pub mod openai_responses;

use std::fmt;
use std::marker::PhantomData;

use reqwest::header::{HeaderName, HeaderValue};
use serde::de::{Deserialize, Deserializer, IgnoredAny, SeqAccess, Visitor};

#[cfg(test)]
use crate::backend::http::{Flow, SseEvent, WireDecoder};
#[cfg(test)]
use crate::backend::{BackendError, StreamEvent};
use crate::config::{Secret, ServerTools, StrictTools};

/// The per-agent request settings every protocol maps into its own body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WireOptions {
    pub model: String,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u64>,
    /// The provider's documented request options the config sets (`reasoning`, `text`,
    /// `top_p`, …); the config load keeps every other key out.
    pub passthrough: serde_json::Map<String, serde_json::Value>,
    /// Fields merged into the top level of the body last, as the provider SDKs' `extra_body`.
    pub extra_body: serde_json::Map<String, serde_json::Value>,
    /// Anthropic beta names for the `anthropic-beta` header.
    pub betas: Vec<String>,
    /// The provider's own tools to offer (web search, code execution).
    pub server_tools: ServerTools,
    /// Whether a Responses request asks for the built-in tools' results with `include`
    /// (`code_interpreter_call.outputs`, `web_search_call.action.sources`): OpenAI returns
    /// code output and a search's sources only when asked; xAI documents no such values.
    pub include_tool_results: bool,
    /// The `OpenAI-Organization` header (the config reads it for OpenAI and Grok).
    pub organization: Option<String>,
    /// The web search's tuning: OpenRouter's plugin settings and `search_context_size`.
    pub search_options: serde_json::Map<String, serde_json::Value>,
    /// Claude's strict tool use (`enable_strict_tool_use`).
    pub strict_tools: StrictTools,
}

impl WireOptions {
    /// Options for `model` with nothing else set.
    pub fn new(model: impl Into<String>) -> Self {
        Self {
            model: model.into(),
            ..Self::default()
        }
    }

    /// Adds the `OpenAI-Organization` header when the config names an organization.
    pub fn organization_header(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match self
            .organization
            .as_deref()
            .and_then(|id| HeaderValue::from_str(id).ok())
        {
            Some(value) => builder.header("OpenAI-Organization", value),
            None => builder,
        }
    }

    /// Adds the passthrough options to `body` without overwriting what the protocol set.
    pub fn merge_passthrough(&self, body: &mut serde_json::Map<String, serde_json::Value>) {
        for (key, value) in &self.passthrough {
            body.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }

    /// Merges `extra_body` into the top level of `body`, its keys replacing ours as the
    /// OpenAI and Anthropic SDKs do with `extra_body` (MassGen sends it through them). The
    /// last step of every body.
    pub fn merge_extra_body(&self, body: &mut serde_json::Map<String, serde_json::Value>) {
        for (key, value) in &self.extra_body {
            body.insert(key.clone(), value.clone());
        }
    }
}

/// How a request proves who it is.
#[derive(Clone, Debug, PartialEq)]
pub enum Auth {
    None,
    /// `Authorization: Bearer KEY`.
    Bearer(Secret),
    /// The key in a named header (`x-api-key`, `api-key`, `x-goog-api-key`).
    Header(&'static str, Secret),
}

impl Auth {
    pub fn apply(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match self {
            Self::None => builder,
            Self::Bearer(key) => match sensitive(&format!("Bearer {}", key.expose())) {
                Some(value) => builder.header(reqwest::header::AUTHORIZATION, value),
                None => builder,
            },
            Self::Header(name, key) => match sensitive(key.expose()) {
                Some(value) => builder.header(HeaderName::from_static(name), value),
                None => builder,
            },
        }
    }
}

/// A streaming model call: the key, `Accept: text/event-stream` and the JSON body.
pub fn sse_post(
    client: &reqwest::Client,
    url: &str,
    auth: &Auth,
    body: &serde_json::Value,
) -> reqwest::RequestBuilder {
    auth.apply(client.post(url))
        .header(reqwest::header::ACCEPT, "text/event-stream")
        .json(body)
}

/// A header value marked sensitive, so it never shows in debug output.
fn sensitive(text: &str) -> Option<HeaderValue> {
    let mut value = HeaderValue::from_str(text).ok()?;
    value.set_sensitive(true);
    Some(value)
}

/// The first element of a JSON array and how many there were, without allocating: a
/// streamed chunk carries one choice, and only the first one is read.
#[derive(Debug)]
pub struct First<T>(pub Option<T>);

impl<T> Default for First<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for First<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FirstVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for FirstVisitor<T> {
            type Value = First<T>;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an array")
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(First(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let first = seq.next_element::<T>()?;
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(First(first))
            }
        }
        deserializer.deserialize_any(FirstVisitor(PhantomData))
    }
}

/// Every element of a JSON array, allocating only from the second one on: tool-call deltas
/// almost always come one per chunk.
#[derive(Debug)]
pub struct Few<T> {
    pub first: Option<T>,
    pub rest: Vec<T>,
}

impl<T> Default for Few<T> {
    fn default() -> Self {
        Self {
            first: None,
            rest: Vec::new(),
        }
    }
}

impl<T> Few<T> {
    pub fn items(self) -> impl Iterator<Item = T> {
        self.first.into_iter().chain(self.rest)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Few<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FewVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for FewVisitor<T> {
            type Value = Few<T>;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an array")
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Few::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let first = seq.next_element::<T>()?;
                let mut rest = Vec::new();
                while let Some(item) = seq.next_element::<T>()? {
                    rest.push(item);
                }
                Ok(Few { first, rest })
            }
        }
        deserializer.deserialize_any(FewVisitor(PhantomData))
    }
}

/// A JSON-schema copy with the keys some providers reject removed (Gemini refuses
/// `$schema` and `additionalProperties` in function declarations).
pub fn strip_schema_keys(schema: &serde_json::Value, keys: &[&str]) -> serde_json::Value {
    match schema {
        serde_json::Value::Object(map) => serde_json::Value::Object(
            map.iter()
                .filter(|(key, _)| !keys.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), strip_schema_keys(value, keys)))
                .collect(),
        ),
        serde_json::Value::Array(items) => serde_json::Value::Array(
            items
                .iter()
                .map(|item| strip_schema_keys(item, keys))
                .collect(),
        ),
        serde_json::Value::Null
        | serde_json::Value::Bool(_)
        | serde_json::Value::Number(_)
        | serde_json::Value::String(_) => schema.clone(),
    }
}

/// Feeds `(event name, data)` pairs to `decoder` until one fails: the last flow, or the error.
#[cfg(test)]
fn feed<'a>(
    decoder: &mut dyn WireDecoder,
    events: impl IntoIterator<Item = (&'a str, &'a str)>,
    out: &mut std::collections::VecDeque<StreamEvent>,
) -> Result<Flow, BackendError> {
    let mut flow = Ok(Flow::Continue);
    for (event, data) in events {
        flow = decoder.event(SseEvent { event, data }, out);
        if flow.is_err() {
            break;
        }
    }
    flow
}
