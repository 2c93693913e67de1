//! Whether a provider's refusal means the conversation no longer fits the model's context
//! window, recognised the way MassGen's `_context_errors.py` does: by HTTP status and the
//! provider's own words (OpenAI, Anthropic, Gemini, Groq, Mistral, OpenRouter, Cohere,
//! LiteLLM, vLLM, LM Studio, llama.cpp).

/// Phrases providers use when a request is longer than the model's window (MassGen's list,
/// plus the ones of local servers MassGen's list misses).
const MARKERS: &[&str] = &[
    // OpenAI, Azure OpenAI, Groq, vLLM: `code: context_length_exceeded`, "This model's
    // maximum context length is N tokens"; Responses: "Your input exceeds the context window".
    "context_length_exceeded",
    "maximum context length",
    "context length exceeded",
    "exceeds the context window",
    "input exceeds the context",
    // Anthropic: "prompt is too long: N tokens > M maximum", "input length and `max_tokens`
    // exceed context limit: A + B > C", 413 `request_too_large`.
    "exceed context limit",
    "exceeds context limit",
    "input length and max_tokens",
    "input length and `max_tokens`",
    "prompt is too long",
    "request_too_large",
    "request too large",
    // Gemini: "The input token count (N) exceeds the maximum number of tokens allowed (M)".
    "input context is too long",
    "context is too long",
    "prompt (or context) is too large",
    "exceeds the maximum number of tokens",
    "input token count",
    // LiteLLM's normalised names.
    "contextwindowexceedederror",
    "context_length",
    "input too long",
    "input is too long",
    "token budget",
    // Groq and vLLM: "Please reduce the length of the messages or completion".
    "reduce the length of the messages",
    // Mistral: "exceeds the model's maximum context length of N".
    "number of tokens in the prompt exceeds",
    // OpenRouter: "This endpoint's maximum context length is N tokens … use the
    // 'middle-out' transform".
    "endpoint's maximum context length",
    "endpoints maximum context length",
    "middle-out",
    // Cohere: "Too many tokens: the total number of tokens in the prompt …".
    "too many tokens",
    // LM Studio: "the model is loaded with context length of only N tokens".
    "context length",
    // llama.cpp server: `exceed_context_size_error`, "the request exceeds the available
    // context size".
    "exceed_context_size",
    "available context size",
    // The generic phrases MassGen also accepts.
    "maximum tokens",
    "token limit",
    "exceeds the maximum",
    "context window",
    "context limit",
    "max_tokens exceed",
];

/// Whether a refused request (its HTTP status, its error text in lower case) failed for
/// being longer than the model's context window.
///
/// Only a refusal counts: a 429 that talks of "too many tokens" is a rate limit. Like
/// MassGen, a 413 always counts (Anthropic's and Groq's "request too large"); a Gemini 500
/// counts when it says the context is too long, and a 504 when it says the prompt was too
/// large to process in time — a bare "deadline exceeded" stays a timeout that is retried.
pub fn is_context_length(status: u16, lower: &str) -> bool {
    match status {
        413 => true,
        400 | 422 => MARKERS.iter().any(|marker| lower.contains(marker)),
        500 => {
            lower.contains("context is too long")
                || (lower.contains("internal") && lower.contains("context"))
        }
        504 => ["too large", "context", "prompt"]
            .iter()
            .any(|marker| lower.contains(marker)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_context_length;

    fn recognised(status: u16, message: &str) -> bool {
        is_context_length(status, &message.to_ascii_lowercase())
    }

    #[test]
    fn openai_shapes() {
        assert!(recognised(
            400,
            "context_length_exceeded: This model's maximum context length is 128000 tokens. \
             However, your messages resulted in 130000 tokens."
        ));
        assert!(recognised(
            400,
            "Your input exceeds the context window of this model. Please adjust your input and try again."
        ));
    }

    #[test]
    fn anthropic_shapes() {
        assert!(recognised(
            400,
            "invalid_request_error: prompt is too long: 210000 tokens > 200000 maximum"
        ));
        assert!(recognised(
            400,
            "input length and `max_tokens` exceed context limit: 187254 + 20000 > 200000"
        ));
        assert!(recognised(
            413,
            "request_too_large: Request exceeds the maximum size"
        ));
    }

    #[test]
    fn gemini_shapes() {
        assert!(recognised(
            400,
            "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."
        ));
        assert!(recognised(500, "INTERNAL: The input context is too long."));
        assert!(recognised(
            504,
            "DEADLINE_EXCEEDED: The prompt is too large to process in time."
        ));
        assert!(!recognised(504, "DEADLINE_EXCEEDED: Deadline exceeded"));
        assert!(!recognised(
            500,
            "INTERNAL: An internal error has occurred."
        ));
    }

    #[test]
    fn local_server_shapes() {
        // vLLM
        assert!(recognised(
            400,
            "This model's maximum context length is 4096 tokens. However, you requested 5000 \
             tokens (4000 in the messages, 1000 in the completion). Please reduce the length \
             of the messages or completion."
        ));
        // LM Studio
        assert!(recognised(
            400,
            "Trying to keep the first 5000 tokens when context the overflows. However, the \
             model is loaded with context length of only 4096 tokens, which is not enough."
        ));
        // llama.cpp
        assert!(recognised(
            400,
            "exceed_context_size_error: the request exceeds the available context size, try increasing it"
        ));
    }

    #[test]
    fn other_providers_shapes() {
        assert!(recognised(
            400,
            "Prompt contains 40000 tokens, which exceeds the model's maximum context length of 32768"
        ));
        assert!(recognised(
            400,
            "This endpoint's maximum context length is 131072 tokens. However, you requested \
             about 138956 tokens. Please reduce the length of either one, or use the \
             \"middle-out\" transform to compress your prompt automatically."
        ));
        assert!(recognised(
            400,
            "too many tokens: the total number of tokens in the prompt cannot exceed 4081"
        ));
    }

    #[test]
    fn rate_limits_and_other_refusals_are_not_context_errors() {
        assert!(!recognised(429, "Too many tokens processed this minute"));
        assert!(!recognised(429, "RESOURCE_EXHAUSTED: context is too long"));
        assert!(!recognised(400, "Invalid value for 'temperature'"));
        assert!(!recognised(401, "prompt is too long"));
    }
}
