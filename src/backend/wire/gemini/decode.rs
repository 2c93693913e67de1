//! Reads a `streamGenerateContent?alt=sse` response: each event is a whole
//! `GenerateContentResponse`. Text, thought parts, whole function calls with their thought
//! signatures, usage and the finish reason; there is no end marker, so a response is
//! complete when a candidate gave a `finishReason` and the connection then closed.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;

use crate::backend::http::status::from_stream_error;
use crate::backend::http::{CallSite, Flow, SseEvent, WireDecoder, parse_json};
use crate::backend::wire::{Few, First};
use crate::backend::{BackendError, FinishReason, StreamEvent};
use crate::protocol::Usage;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Chunk<'a> {
    #[serde(default, borrow)]
    candidates: First<Candidate<'a>>,
    #[serde(default)]
    usage_metadata: Option<GeminiUsage>,
    #[serde(default, borrow)]
    prompt_feedback: Option<PromptFeedback<'a>>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate<'a> {
    #[serde(default, borrow)]
    content: Option<Content<'a>>,
    #[serde(default, borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Content<'a> {
    #[serde(default, borrow)]
    parts: Few<Part<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Part<'a> {
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default)]
    thought: Option<bool>,
    #[serde(default, borrow)]
    thought_signature: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    function_call: Option<FunctionCall<'a>>,
}

#[derive(Deserialize)]
struct FunctionCall<'a> {
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    /// A whole call arrives at once, so a `Value` here costs nothing per token.
    #[serde(default)]
    args: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback<'a> {
    #[serde(default, borrow)]
    block_reason: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    block_reason_message: Option<Cow<'a, str>>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiUsage {
    #[serde(default)]
    prompt_token_count: u64,
    #[serde(default)]
    candidates_token_count: u64,
    #[serde(default)]
    thoughts_token_count: u64,
    #[serde(default)]
    cached_content_token_count: u64,
    /// The results of built-in tools (search, code execution), read as prompt.
    #[serde(default)]
    tool_use_prompt_token_count: u64,
}

impl GeminiUsage {
    /// `candidatesTokenCount` leaves the thoughts out; ours counts them as output.
    fn normalise(self) -> Usage {
        Usage {
            input_tokens: self.prompt_token_count + self.tool_use_prompt_token_count,
            output_tokens: self.candidates_token_count + self.thoughts_token_count,
            reasoning_tokens: self.thoughts_token_count,
            cached_input_tokens: self.cached_content_token_count,
            cache_creation_tokens: 0,
        }
    }
}

/// Reads one Gemini response.
pub struct GeminiDecoder {
    site: CallSite,
    /// Function calls seen so far: the next call's index.
    calls: usize,
    /// The latest usage report; Gemini repeats it, growing, in many chunks.
    usage: Option<Usage>,
    finish: Option<FinishReason>,
}

impl GeminiDecoder {
    pub fn new(site: CallSite) -> Self {
        Self {
            site,
            calls: 0,
            usage: None,
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
        if let Some(usage) = chunk.usage_metadata {
            self.usage = Some(usage.normalise());
        }
        let Some(candidate) = chunk.candidates.0 else {
            return match chunk.prompt_feedback.and_then(blocked) {
                Some(reason) => Err(BackendError::Failed {
                    message: format!("{} blocked the prompt: {reason}", self.site.provider),
                }),
                None => Ok(()),
            };
        };
        if let Some(content) = candidate.content {
            let Few { first, rest } = content.parts;
            for part in first.into_iter().chain(rest) {
                self.part(part, out);
            }
        }
        if let Some(reason) = candidate.finish_reason.filter(|reason| !reason.is_empty()) {
            self.finish = Some(finish_reason(&reason));
        }
        Ok(())
    }

    fn part(&mut self, part: Part<'_>, out: &mut VecDeque<StreamEvent>) {
        if let Some(call) = part.function_call {
            let index = self.calls;
            self.calls += 1;
            out.push_back(StreamEvent::ToolCallStart {
                index,
                id: call.id.map(Cow::into_owned).unwrap_or_default(),
                name: call.name.map(Cow::into_owned).unwrap_or_default(),
            });
            let fragment = match call.args {
                None | Some(Value::Null) => "{}".to_string(),
                Some(args) => args.to_string(),
            };
            out.push_back(StreamEvent::ToolCallArgsDelta { index, fragment });
            if let Some(signature) = part.thought_signature.filter(|text| !text.is_empty()) {
                out.push_back(StreamEvent::ToolCallSignature {
                    index,
                    signature: signature.into_owned(),
                });
            }
            return;
        }
        if let Some(text) = part.text.filter(|text| !text.is_empty()) {
            out.push_back(if part.thought == Some(true) {
                StreamEvent::ReasoningDelta(text.into_owned())
            } else {
                StreamEvent::TextDelta(text.into_owned())
            });
        }
    }

    /// The usage and finish events, once a finish reason has been seen.
    fn finish(&mut self, out: &mut VecDeque<StreamEvent>) -> Flow {
        let Some(reason) = self.finish.take() else {
            return Flow::Continue;
        };
        if let Some(usage) = self.usage.take() {
            out.push_back(StreamEvent::Usage(usage));
        }
        let reason = match reason {
            FinishReason::Stop if self.calls > 0 => FinishReason::ToolCalls,
            other @ (FinishReason::Stop
            | FinishReason::ToolCalls
            | FinishReason::Length
            | FinishReason::ContentFilter
            | FinishReason::Other(_)) => other,
        };
        out.push_back(StreamEvent::Finish(reason));
        Flow::Finished
    }
}

impl WireDecoder for GeminiDecoder {
    fn event(
        &mut self,
        event: SseEvent<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let data = event.data.trim();
        if data.is_empty() {
            return Ok(Flow::Continue);
        }
        let chunk: Chunk<'_> = parse_json(&self.site, data)?;
        self.chunk(chunk, out)?;
        Ok(Flow::Continue)
    }

    /// Gemini has no end marker: a closed stream after a finish reason is complete.
    fn end(&mut self, out: &mut VecDeque<StreamEvent>) -> Result<Flow, BackendError> {
        Ok(self.finish(out))
    }

    /// Without `alt=sse` (a proxy dropping it) the same responses come as one JSON array.
    fn whole_body(
        &mut self,
        body: &[u8],
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let text = String::from_utf8_lossy(body);
        let text = text.trim();
        if text.starts_with('[') {
            let chunks: Vec<Chunk<'_>> = parse_json(&self.site, text)?;
            for chunk in chunks {
                self.chunk(chunk, out)?;
            }
        } else {
            let chunk: Chunk<'_> = parse_json(&self.site, text)?;
            self.chunk(chunk, out)?;
        }
        self.finish.get_or_insert(FinishReason::Stop);
        Ok(self.finish(out))
    }
}

fn blocked(feedback: PromptFeedback<'_>) -> Option<String> {
    let reason = feedback.block_reason?;
    Some(match feedback.block_reason_message {
        Some(message) if !message.is_empty() => format!("{reason} ({message})"),
        Some(_) | None => reason.into_owned(),
    })
}

/// `{"error": {"code": 429, "message": "…", "status": "RESOURCE_EXHAUSTED"}}`.
fn stream_error(site: &CallSite, error: &Value) -> BackendError {
    let kind = error
        .get("status")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| error.get("code").map(Value::to_string))
        .unwrap_or_default();
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .or_else(|| error.as_str())
        .unwrap_or("the provider reported an error");
    from_stream_error(site, &kind, message)
}

fn finish_reason(reason: &str) -> FinishReason {
    match reason {
        "STOP" => FinishReason::Stop,
        "MAX_TOKENS" => FinishReason::Length,
        "SAFETY"
        | "RECITATION"
        | "BLOCKLIST"
        | "PROHIBITED_CONTENT"
        | "SPII"
        | "IMAGE_SAFETY"
        | "IMAGE_PROHIBITED_CONTENT"
        | "IMAGE_RECITATION" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> CallSite {
        CallSite {
            provider: "Gemini".into(),
            model: "gemini-2.5-flash".into(),
            key_fix: "set GOOGLE_API_KEY or GEMINI_API_KEY".into(),
        }
    }

    fn decode(events: &[&str]) -> (Vec<StreamEvent>, Result<Flow, BackendError>) {
        let mut decoder = GeminiDecoder::new(site());
        let mut out = VecDeque::new();
        for data in events {
            if let Err(error) = decoder.event(SseEvent { event: "", data }, &mut out) {
                return (out.into(), Err(error));
            }
        }
        let flow = decoder.end(&mut out);
        (out.into(), flow)
    }

    #[test]
    fn finish_reasons_map_to_ours() {
        assert_eq!(finish_reason("STOP"), FinishReason::Stop);
        assert_eq!(finish_reason("MAX_TOKENS"), FinishReason::Length);
        for filtered in [
            "SAFETY",
            "RECITATION",
            "BLOCKLIST",
            "PROHIBITED_CONTENT",
            "SPII",
        ] {
            assert_eq!(finish_reason(filtered), FinishReason::ContentFilter);
        }
        assert_eq!(
            finish_reason("MALFORMED_FUNCTION_CALL"),
            FinishReason::Other("MALFORMED_FUNCTION_CALL".into())
        );
    }

    #[test]
    fn a_stream_without_a_finish_reason_is_incomplete() {
        let (events, flow) = decode(&[
            r#"{"candidates":[{"content":{"parts":[{"text":"Hal"}],"role":"model"},"index":0}]}"#,
        ]);
        assert_eq!(events, [StreamEvent::TextDelta("Hal".into())]);
        assert_eq!(flow, Ok(Flow::Continue));
    }

    #[test]
    fn only_the_last_usage_is_reported_once() {
        let (events, flow) = decode(&[
            r#"{"candidates":[{"content":{"parts":[{"text":"4"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9}}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":1,"totalTokenCount":10}}"#,
        ]);
        assert_eq!(flow, Ok(Flow::Finished));
        assert_eq!(
            events,
            [
                StreamEvent::TextDelta("4".into()),
                StreamEvent::Usage(Usage {
                    input_tokens: 9,
                    output_tokens: 1,
                    ..Usage::default()
                }),
                StreamEvent::Finish(FinishReason::Stop),
            ]
        );
    }

    #[test]
    fn a_blocked_prompt_is_an_error_naming_the_reason() {
        let (_, flow) = decode(&[
            r#"{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":12,"totalTokenCount":12}}"#,
        ]);
        assert_eq!(
            flow,
            Err(BackendError::Failed {
                message: "Gemini blocked the prompt: PROHIBITED_CONTENT".into()
            })
        );
    }

    #[test]
    fn a_reply_without_alt_sse_is_read_as_a_json_array() {
        let body = br#"[{"candidates":[{"content":{"parts":[{"text":"Two"}],"role":"model"},"index":0}]},
            {"candidates":[{"content":{"parts":[{"functionCall":{"name":"vote","args":{"agent_id":"agent1"}}}],"role":"model"},"finishReason":"STOP","index":0}],
             "usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":3,"totalTokenCount":8}}]"#;
        let mut decoder = GeminiDecoder::new(site());
        let mut out = VecDeque::new();
        assert_eq!(decoder.whole_body(body, &mut out), Ok(Flow::Finished));
        let events: Vec<StreamEvent> = out.into();
        assert_eq!(events[0], StreamEvent::TextDelta("Two".into()));
        assert_eq!(
            events[2],
            StreamEvent::ToolCallArgsDelta {
                index: 0,
                fragment: r#"{"agent_id":"agent1"}"#.into()
            }
        );
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Finish(FinishReason::ToolCalls))
        );
    }
}
