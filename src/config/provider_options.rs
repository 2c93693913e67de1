//! Which backend keys are request options of the provider's API (sent), which are
//! MassGen's own (never sent), and which neither (never sent, with a warning). One list per
//! API, from the providers' API references and what MassGen 0.1.97 forwards.

use super::backend_kind::BackendKind;
use super::massgen_own::MASSGEN_OWN;
use super::providers::{self, Protocol};

/// The request format a backend type speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    Responses,
    Chat,
    Anthropic,
    Gemini,
}

impl Api {
    /// `None` for backends that are not HTTP model APIs.
    pub fn of(kind: BackendKind) -> Option<Self> {
        providers::row(kind)
            .http
            .map(|provider| match provider.protocol {
                Protocol::OpenaiResponses => Self::Responses,
                Protocol::OpenaiChat | Protocol::AzureChat => Self::Chat,
                Protocol::Anthropic => Self::Anthropic,
                Protocol::Gemini => Self::Gemini,
            })
    }

    /// For messages: "the OpenAI Responses API".
    pub fn name(self) -> &'static str {
        match self {
            Self::Responses => "the OpenAI Responses API",
            Self::Chat => "the Chat Completions API",
            Self::Anthropic => "the Anthropic Messages API",
            Self::Gemini => "the Gemini API",
        }
    }

    fn options(self) -> &'static [&'static str] {
        match self {
            Self::Responses => RESPONSES,
            Self::Chat => CHAT,
            Self::Anthropic => ANTHROPIC,
            Self::Gemini => GEMINI,
        }
    }

    /// Fields of the request that massgen itself fills in.
    fn owned(self) -> &'static [&'static str] {
        match self {
            Self::Responses => &[
                "model",
                "input",
                "instructions",
                "stream",
                "tools",
                "previous_response_id",
                "conversation",
            ],
            Self::Chat => &[
                "model",
                "messages",
                "stream",
                "stream_options",
                "tools",
                "functions",
                "function_call",
                "n",
            ],
            Self::Anthropic => &["model", "messages", "system", "stream", "tools"],
            Self::Gemini => &["contents", "system_instruction", "model"],
        }
    }
}

/// OpenAI `POST /responses` options a config may set.
const RESPONSES: &[&str] = &[
    "background",
    "include",
    "max_output_tokens",
    "max_tool_calls",
    "metadata",
    "parallel_tool_calls",
    "prompt",
    "prompt_cache_key",
    "prompt_cache_retention",
    "reasoning",
    "safety_identifier",
    "service_tier",
    "store",
    "text",
    "tool_choice",
    "top_logprobs",
    "top_p",
    "truncation",
    "user",
];

/// OpenAI `POST /chat/completions` options (xAI, Groq, Azure and the other compatible
/// servers take the same names).
const CHAT: &[&str] = &[
    "audio",
    "frequency_penalty",
    "logit_bias",
    "logprobs",
    "max_completion_tokens",
    "metadata",
    "modalities",
    "parallel_tool_calls",
    "prediction",
    "presence_penalty",
    "prompt_cache_key",
    "reasoning_effort",
    "response_format",
    "safety_identifier",
    "seed",
    "service_tier",
    "stop",
    "store",
    "tool_choice",
    "top_logprobs",
    "top_p",
    "user",
    "verbosity",
    "web_search_options",
];

/// Anthropic `POST /v1/messages` options (`max_tokens` and `temperature` are common keys;
/// `betas` becomes the `anthropic-beta` header).
const ANTHROPIC: &[&str] = &[
    "container",
    "context_management",
    "metadata",
    "service_tier",
    "stop_sequences",
    "thinking",
    "tool_choice",
    "top_k",
    "top_p",
];

/// Gemini `generateContent` options: `GenerationConfig` fields (sent under
/// `generationConfig`), the request's own `safety_settings`, `tool_config`,
/// `cached_content` and built-in `tools`, and MassGen's `thinking`, `include_thoughts` and
/// `function_calling_mode`. Written in snake_case; lowerCamelCase matches too.
const GEMINI: &[&str] = &[
    "top_p",
    "top_k",
    "candidate_count",
    "max_output_tokens",
    "stop_sequences",
    "response_logprobs",
    "logprobs",
    "presence_penalty",
    "frequency_penalty",
    "seed",
    "response_mime_type",
    "response_schema",
    "response_json_schema",
    "response_modalities",
    "media_resolution",
    "speech_config",
    "image_config",
    "routing_config",
    "model_selection_config",
    "audio_timestamp",
    "enable_enhanced_civic_answers",
    "thinking_config",
    "thinking_budget",
    "thinking",
    "include_thoughts",
    "function_calling_mode",
    "generation_config",
    "safety_settings",
    "tool_config",
    "cached_content",
    "tools",
];

/// What becomes of one backend key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A request option of the backend's API: sent.
    Send,
    /// A key MassGen itself reads (tools, filesystem, coordination): never sent.
    MassGen,
    /// A request field massgen fills in itself: never taken from the config.
    Owned(Api),
    /// Not an option of the API: never sent.
    Unknown(Api),
}

/// Decides for `key` of a `kind` backend whose `base_url` (if any) is given.
pub fn classify(kind: BackendKind, base_url: Option<&str>, key: &str) -> Verdict {
    if MASSGEN_OWN.contains(&key) || key.starts_with('_') {
        return Verdict::MassGen;
    }
    let Some(api) = Api::of(kind) else {
        return Verdict::MassGen;
    };
    let wanted = normalized(key);
    let listed = |list: &[&str]| list.iter().any(|name| normalized(name) == wanted);
    // A `chatcompletion` server at OpenRouter takes OpenRouter's extras.
    let extra = if kind == BackendKind::Chatcompletion
        && base_url.is_some_and(|url| url.to_ascii_lowercase().contains("openrouter.ai"))
    {
        providers::row(BackendKind::Openrouter).extra_options
    } else {
        providers::row(kind).extra_options
    };
    // Gemini accepts lowerCamelCase as well; the others only their own spelling.
    let matches = |list: &[&str]| {
        if api == Api::Gemini {
            listed(list)
        } else {
            list.contains(&key)
        }
    };
    if matches(api.owned()) {
        Verdict::Owned(api)
    } else if matches(api.options()) || matches(extra) {
        Verdict::Send
    } else {
        Verdict::Unknown(api)
    }
}

/// The options a `kind` backend accepts, for suggestions.
pub fn options_of(kind: BackendKind) -> &'static [&'static str] {
    Api::of(kind).map_or(&[], Api::options)
}

/// `top_p`, `topP` and `TOP_P` alike.
fn normalized(name: &str) -> String {
    name.chars()
        .filter(|character| *character != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_options_are_sent_and_others_are_not() {
        let verdict = |kind, key| classify(kind, None, key);
        assert_eq!(verdict(BackendKind::Openai, "reasoning"), Verdict::Send);
        assert_eq!(verdict(BackendKind::Openai, "text"), Verdict::Send);
        assert_eq!(
            verdict(BackendKind::Openai, "reasoning_effort"),
            Verdict::Unknown(Api::Responses)
        );
        assert_eq!(
            verdict(BackendKind::Grok, "reasoning_effort"),
            Verdict::Send
        );
        assert_eq!(
            verdict(BackendKind::Grok, "reasoning"),
            Verdict::Unknown(Api::Chat)
        );
        assert_eq!(verdict(BackendKind::Openrouter, "reasoning"), Verdict::Send);
        assert_eq!(
            classify(
                BackendKind::Chatcompletion,
                Some("https://openrouter.ai/api/v1"),
                "reasoning"
            ),
            Verdict::Send
        );
        assert_eq!(verdict(BackendKind::Claude, "thinking"), Verdict::Send);
        assert_eq!(
            verdict(BackendKind::Claude, "frequency_penalty"),
            Verdict::Unknown(Api::Anthropic)
        );
        assert_eq!(verdict(BackendKind::Gemini, "topP"), Verdict::Send);
        assert_eq!(
            verdict(BackendKind::Gemini, "thinking_config"),
            Verdict::Send
        );
        assert_eq!(
            verdict(BackendKind::Gemini, "systemInstruction"),
            Verdict::Owned(Api::Gemini)
        );
        assert_eq!(
            verdict(BackendKind::Zai, "top_k"),
            Verdict::Unknown(Api::Chat)
        );
        assert_eq!(verdict(BackendKind::Vllm, "top_k"), Verdict::Send);
        assert_eq!(
            verdict(BackendKind::Vllm, "separate_reasoning"),
            Verdict::Unknown(Api::Chat)
        );
        assert_eq!(
            verdict(BackendKind::Sglang, "separate_reasoning"),
            Verdict::Send
        );
        assert_eq!(
            verdict(BackendKind::Chatcompletion, "n"),
            Verdict::Owned(Api::Chat)
        );
    }

    #[test]
    fn massgen_keys_are_never_sent() {
        for key in ["websocket_mode", "enable_tool_search", "_internal"] {
            assert_eq!(classify(BackendKind::Claude, None, key), Verdict::MassGen);
        }
    }
}
