//! OpenAI Chat Completions (`/chat/completions`, `stream: true`), spoken by xAI, Groq,
//! Cerebras, Together, Fireworks, OpenRouter, vLLM, SGLang, LM Studio, Azure and many more.
//! Reads tool-call deltas split across chunks, parallel calls, the `reasoning_content` /
//! `reasoning` deltas of open-model servers, usage, and a whole JSON reply as a fallback.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{Auth, Few, First, WireOptions};
use crate::backend::http::status::from_stream_error;
use crate::backend::http::{CallSite, Flow, SseEvent, Wire, WireDecoder, parse_json};
use crate::backend::{BackendError, ChatRequest, FinishReason, Message, StreamEvent};
use crate::protocol::Usage;

pub struct ChatWire {
    site: CallSite,
    url: String,
    auth: Auth,
    options: WireOptions,
    /// `stream_options.include_usage`; old Azure API versions reject it.
    include_usage: bool,
}

impl ChatWire {
    /// Chat Completions at `{base_url}/chat/completions` with a bearer key.
    pub fn new(site: CallSite, base_url: &str, auth: Auth, options: WireOptions) -> Self {
        Self {
            site,
            url: format!("{base_url}/chat/completions"),
            auth,
            options,
            include_usage: true,
        }
    }

    /// Azure OpenAI: the deployment (named by `model`) under the resource endpoint, the
    /// `api-key` header and the `api-version` query parameter. A base that already is an
    /// `/openai/v1` or deployment URL is used as it is.
    pub fn azure(
        site: CallSite,
        base_url: &str,
        key: Option<crate::config::Secret>,
        api_version: &str,
        options: WireOptions,
    ) -> Self {
        let url = if base_url.contains("/openai/") {
            format!("{base_url}/chat/completions?api-version={api_version}")
        } else {
            format!(
                "{base_url}/openai/deployments/{}/chat/completions?api-version={api_version}",
                options.model
            )
        };
        Self {
            site,
            url,
            auth: key.map_or(Auth::None, |key| Auth::Header("api-key", key)),
            options,
            include_usage: api_version >= "2024-09-01",
        }
    }

    pub fn body(&self, request: &ChatRequest) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), json!(self.options.model));
        body.insert("messages".into(), messages(&request.messages));
        body.insert("stream".into(), json!(true));
        if self.include_usage {
            body.insert("stream_options".into(), json!({"include_usage": true}));
        }
        if !request.tools.is_empty() {
            let tools: Vec<Value> = request
                .tools
                .iter()
                .map(|tool| {
                    json!({
                        "type": "function",
                        "function": {
                            "name": tool.name,
                            "description": tool.description,
                            "parameters": tool.parameters,
                        }
                    })
                })
                .collect();
            body.insert("tools".into(), Value::Array(tools));
        }
        if let Some(temperature) = self.options.temperature {
            body.insert("temperature".into(), json!(temperature));
        }
        if let Some(max_tokens) = self.options.max_tokens {
            body.insert("max_tokens".into(), json!(max_tokens));
        }
        self.options.merge_passthrough(&mut body);
        Value::Object(body)
    }
}

fn messages(messages: &[Message]) -> Value {
    Value::Array(
        messages
            .iter()
            .map(|message| match message {
                Message::System { content } => json!({"role": "system", "content": content}),
                Message::User { content } => json!({"role": "user", "content": content}),
                Message::Assistant {
                    content,
                    tool_calls,
                    ..
                } => {
                    let mut item = json!({"role": "assistant", "content": content});
                    if !tool_calls.is_empty() {
                        if content.is_empty() {
                            item["content"] = Value::Null;
                        }
                        item["tool_calls"] = tool_calls
                            .iter()
                            .map(|call| {
                                json!({
                                    "id": call.id,
                                    "type": "function",
                                    "function": {"name": call.name, "arguments": call.arguments},
                                })
                            })
                            .collect();
                    }
                    item
                }
                Message::Tool {
                    call_id, content, ..
                } => json!({"role": "tool", "tool_call_id": call_id, "content": content}),
            })
            .collect(),
    )
}

impl Wire for ChatWire {
    fn site(&self) -> &CallSite {
        &self.site
    }

    fn request(&self, client: &reqwest::Client, request: &ChatRequest) -> reqwest::RequestBuilder {
        self.auth
            .apply(client.post(&self.url))
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .json(&self.body(request))
    }

    fn decoder(&self) -> Box<dyn WireDecoder> {
        Box::new(ChatDecoder::new(self.site.clone()))
    }
}

#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(default, borrow)]
    choices: First<Choice<'a>>,
    #[serde(default)]
    usage: Option<ChatUsage>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(default, borrow, alias = "message")]
    delta: Option<Delta<'a>>,
    #[serde(default, borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(default, borrow)]
    content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    reasoning_content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    reasoning: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    tool_calls: Few<ToolCallDelta<'a>>,
}

#[derive(Deserialize)]
struct ToolCallDelta<'a> {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    function: Option<FunctionDelta<'a>>,
}

#[derive(Deserialize)]
struct FunctionDelta<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ChatUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
    #[serde(default)]
    completion_tokens_details: Option<CompletionDetails>,
    /// DeepSeek's name for cached prompt tokens.
    #[serde(default)]
    prompt_cache_hit_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct CompletionDetails {
    #[serde(default)]
    reasoning_tokens: Option<u64>,
}

impl ChatUsage {
    fn normalise(&self) -> Usage {
        Usage {
            input_tokens: self.prompt_tokens,
            output_tokens: self.completion_tokens,
            reasoning_tokens: self
                .completion_tokens_details
                .as_ref()
                .and_then(|details| details.reasoning_tokens)
                .unwrap_or(0),
            cached_input_tokens: self
                .prompt_tokens_details
                .as_ref()
                .and_then(|details| details.cached_tokens)
                .or(self.prompt_cache_hit_tokens)
                .unwrap_or(0),
            cache_creation_tokens: 0,
        }
    }
}

/// Reads one Chat Completions response.
pub struct ChatDecoder {
    site: CallSite,
    /// One entry per tool call seen: the server's `index` and the call's id.
    slots: Vec<(usize, String)>,
    finish: Option<FinishReason>,
}

impl ChatDecoder {
    pub fn new(site: CallSite) -> Self {
        Self {
            site,
            slots: Vec::new(),
            finish: None,
        }
    }

    fn chunk(
        &mut self,
        chunk: Chunk<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<(), BackendError> {
        if let Some(error) = chunk.error {
            return Err(stream_error(&self.site, &error));
        }
        if let Some(choice) = chunk.choices.0 {
            if let Some(delta) = choice.delta {
                self.delta(delta, out);
            }
            if let Some(reason) = choice.finish_reason {
                self.finish = Some(finish_reason(&reason));
            }
        }
        if let Some(usage) = chunk.usage {
            out.push_back(StreamEvent::Usage(usage.normalise()));
        }
        Ok(())
    }

    fn delta(&mut self, delta: Delta<'_>, out: &mut VecDeque<StreamEvent>) {
        if let Some(reasoning) = delta.reasoning_content.or(delta.reasoning)
            && !reasoning.is_empty()
        {
            out.push_back(StreamEvent::ReasoningDelta(reasoning.into_owned()));
        }
        if let Some(content) = delta.content
            && !content.is_empty()
        {
            out.push_back(StreamEvent::TextDelta(content.into_owned()));
        }
        for (position, call) in delta.tool_calls.items().enumerate() {
            let wire_index = call.index.unwrap_or(position);
            let id = call.id.filter(|id| !id.is_empty());
            let (name, arguments) = call
                .function
                .map_or((None, None), |function| (function.name, function.arguments));
            let slot = self.slot(wire_index, id.as_deref());
            if id.is_some() || name.is_some() {
                out.push_back(StreamEvent::ToolCallStart {
                    index: slot,
                    id: id.map(Cow::into_owned).unwrap_or_default(),
                    name: name.map(Cow::into_owned).unwrap_or_default(),
                });
            }
            if let Some(arguments) = arguments
                && !arguments.is_empty()
            {
                out.push_back(StreamEvent::ToolCallArgsDelta {
                    index: slot,
                    fragment: arguments.into_owned(),
                });
            }
        }
    }

    /// Our index for a tool-call delta. A new id under an index already in use is a new
    /// call: some servers send every parallel call with index 0.
    fn slot(&mut self, wire_index: usize, id: Option<&str>) -> usize {
        let latest = self
            .slots
            .iter()
            .rposition(|(index, _)| *index == wire_index);
        match (latest, id) {
            (Some(slot), None) => slot,
            (Some(slot), Some(id)) if self.slots[slot].1.is_empty() || self.slots[slot].1 == id => {
                if self.slots[slot].1.is_empty() {
                    self.slots[slot].1 = id.to_string();
                }
                slot
            }
            (Some(_) | None, id) => {
                self.slots
                    .push((wire_index, id.map(str::to_string).unwrap_or_default()));
                self.slots.len() - 1
            }
        }
    }
}

impl WireDecoder for ChatDecoder {
    fn event(
        &mut self,
        event: SseEvent<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            out.push_back(StreamEvent::Finish(
                self.finish.take().unwrap_or(FinishReason::Stop),
            ));
            return Ok(Flow::Finished);
        }
        if event.event == "error" {
            let value: Value = parse_json(&self.site, data)?;
            return Err(stream_error(&self.site, &value));
        }
        let chunk: Chunk<'_> = parse_json(&self.site, data)?;
        self.chunk(chunk, out)?;
        Ok(Flow::Continue)
    }

    /// Some servers close the stream after the finish reason without `[DONE]`.
    fn end(&mut self, out: &mut VecDeque<StreamEvent>) -> Result<Flow, BackendError> {
        match self.finish.take() {
            Some(reason) => {
                out.push_back(StreamEvent::Finish(reason));
                Ok(Flow::Finished)
            }
            None => Ok(Flow::Continue),
        }
    }

    fn whole_body(
        &mut self,
        body: &[u8],
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let text = String::from_utf8_lossy(body);
        let chunk: Chunk<'_> = parse_json(&self.site, &text)?;
        self.chunk(chunk, out)?;
        out.push_back(StreamEvent::Finish(
            self.finish.take().unwrap_or(FinishReason::Stop),
        ));
        Ok(Flow::Finished)
    }
}

fn stream_error(site: &CallSite, error: &Value) -> BackendError {
    let error = error.get("error").unwrap_or(error);
    let kind = error
        .get("type")
        .or_else(|| error.get("code"))
        .map(|kind| match kind {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
        .unwrap_or_default();
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the provider reported an error");
    from_stream_error(site, &kind, message)
}

pub fn finish_reason(reason: &str) -> FinishReason {
    match reason {
        "stop" | "end_turn" | "eos" => FinishReason::Stop,
        "tool_calls" | "function_call" => FinishReason::ToolCalls,
        "length" => FinishReason::Length,
        "content_filter" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_string()),
    }
}
