//! OpenAI Chat Completions (`/chat/completions`, `stream: true`), spoken by xAI, Groq,
//! Cerebras, Together, Fireworks, OpenRouter, vLLM, SGLang, LM Studio, Azure and many more.
//! Reads tool-call deltas split across chunks, parallel calls, the `reasoning_content` /
//! `reasoning` deltas of open-model servers, usage, and a whole JSON reply as a fallback.

use serde_json::{Map, Value, json};

mod decode;
mod web_plugin;

pub use decode::{ChatDecoder, finish_reason};

use super::{Auth, WireOptions, sse_post};
use crate::backend::http::{CallSite, Misroute, Wire, WireDecoder};
use crate::backend::{ChatRequest, Message};
use crate::protocol::{Attachment, MediaKind, sendable};

pub struct ChatWire {
    site: CallSite,
    url: String,
    auth: Auth,
    options: WireOptions,
    /// `stream_options.include_usage`; old Azure API versions reject it.
    include_usage: bool,
    /// `max_completion_tokens` (OpenAI's and Azure's name, required by reasoning models)
    /// or `max_tokens` (everyone else's).
    max_tokens_key: &'static str,
    /// Set when the base names no API version (see [`Misroute`]).
    misroute: Option<Misroute>,
}

impl ChatWire {
    /// Chat Completions at `{base_url}/chat/completions` with a bearer key.
    pub fn new(site: CallSite, base_url: &str, auth: Auth, options: WireOptions) -> Self {
        let url = format!("{base_url}/chat/completions");
        Self {
            site,
            misroute: Misroute::for_base(base_url, &url),
            url,
            auth,
            options,
            include_usage: true,
            max_tokens_key: if base_url.contains("api.openai.com") {
                "max_completion_tokens"
            } else {
                "max_tokens"
            },
        }
    }

    /// Azure OpenAI: the deployment (named by `model`) under the resource endpoint, the
    /// `api-key` header and the `api-version` query parameter. A deployment URL is used as
    /// it is; an `/openai/v1` base is the version-less v1 API, called as MassGen does
    /// (with the OpenAI client), without `api-version`.
    pub fn azure(
        site: CallSite,
        base_url: &str,
        key: Option<crate::config::Secret>,
        api_version: &str,
        options: WireOptions,
    ) -> Self {
        // Both streamed usage and `max_completion_tokens` need 2024-09-01 or later.
        let modern = base_url.contains("/openai/v1") || api_version >= "2024-09-01";
        let url = if base_url.contains("/openai/v1") {
            format!("{base_url}/chat/completions")
        } else if base_url.contains("/openai/") {
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
            include_usage: modern,
            max_tokens_key: if modern {
                "max_completion_tokens"
            } else {
                "max_tokens"
            },
            misroute: None,
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
            body.insert(self.max_tokens_key.into(), json!(max_tokens));
        }
        self.options.merge_passthrough(&mut body);
        web_plugin::add(&mut body, &self.options);
        self.options.merge_extra_body(&mut body);
        Value::Object(body)
    }
}

fn messages(messages: &[Message]) -> Value {
    Value::Array(
        messages
            .iter()
            .map(|message| match message {
                Message::System { content } => json!({"role": "system", "content": content}),
                Message::User {
                    content,
                    attachments,
                } if !attachments.is_empty() => json!({
                    "role": "user",
                    "content": std::iter::once(json!({"type": "text", "text": content}))
                        .chain(sendable(attachments).map(attachment_part))
                        .collect::<Vec<_>>(),
                }),
                Message::User { content, .. } => json!({"role": "user", "content": content}),
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

/// One attachment as a content part: `image_url` (data URL or URL), a PDF as `file`,
/// WAV or MP3 as `input_audio`.
fn attachment_part(attachment: &Attachment) -> Value {
    match attachment.kind {
        MediaKind::Pdf => json!({"type": "file", "file": {
            "filename": attachment.name,
            "file_data": attachment.data_url_or_url(),
        }}),
        MediaKind::Audio => json!({"type": "input_audio", "input_audio": {
            "data": attachment.base64().unwrap_or_default(),
            "format": if attachment.media_type == "audio/wav" { "wav" } else { "mp3" },
        }}),
        MediaKind::Image | MediaKind::Video => json!({
            "type": "image_url",
            "image_url": {"url": attachment.data_url_or_url()},
        }),
    }
}

impl Wire for ChatWire {
    fn site(&self) -> &CallSite {
        &self.site
    }

    fn api(&self) -> crate::config::provider_options::Api {
        crate::config::provider_options::Api::Chat
    }

    fn request(&self, client: &reqwest::Client, request: &ChatRequest) -> reqwest::RequestBuilder {
        self.options.organization_header(sse_post(
            client,
            &self.url,
            &self.auth,
            &self.body(request),
        ))
    }

    fn decoder(&self) -> Box<dyn WireDecoder> {
        Box::new(ChatDecoder::new(self.site.clone()))
    }

    fn misroute(&self) -> Option<&Misroute> {
        self.misroute.as_ref()
    }
}
