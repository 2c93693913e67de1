//! Reads a `streamGenerateContent?alt=sse` response: each event is a whole
//! `GenerateContentResponse`. Text, thought parts, whole function calls with their thought
//! signatures, usage and the finish reason; there is no end marker, so a response is
//! complete when a candidate gave a `finishReason` and the connection then closed. The
//! built-in tools' code, results and grounding are read in `builtin`. When the request
//! offered the workflow tools as JSON text (`text_workflow`), a reply without a function
//! call whose text ends in such an action becomes that tool call at the finish.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;

use crate::backend::http::status::from_error_value;
use crate::backend::http::{CallSite, Flow, SseEvent, WireDecoder, parse_json};
use crate::backend::wire::{Few, First};
use crate::backend::{BackendError, FinishReason, StreamEvent};
use crate::protocol::Usage;

mod builtin;

use super::text_reply;

use builtin::BuiltinTools;

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
    /// Google Search's queries and pages.
    #[serde(default)]
    grounding_metadata: Option<Value>,
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
    /// The code execution tool's code and its result.
    #[serde(default)]
    executable_code: Option<Value>,
    #[serde(default)]
    code_execution_result: Option<Value>,
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
            estimated: false,
            web_searches: 0,
            x_searches: 0,
            code_runs: 0,
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
    /// Google Search and code execution, run by Gemini.
    builtin: BuiltinTools,
    /// The workflow tools offered as JSON text, if any, and the reply's text so far.
    text_workflow: Option<(Vec<String>, String)>,
}

impl GeminiDecoder {
    pub fn new(site: CallSite) -> Self {
        Self {
            site,
            calls: 0,
            usage: None,
            finish: None,
            builtin: BuiltinTools::default(),
            text_workflow: None,
        }
    }

    /// A decoder for a call that offered the workflow tools `offered` as JSON text.
    pub fn with_text_workflow(mut self, offered: Vec<String>) -> Self {
        self.text_workflow = Some((offered, String::new()));
        self
    }

    fn chunk(
        &mut self,
        chunk: Chunk<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<(), BackendError> {
        if let Some(error) = chunk.error {
            return Err(from_error_value(&self.site, &error, &["status", "code"]));
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
            for part in content.parts.items() {
                self.part(part, out);
            }
        }
        if let Some(metadata) = &candidate.grounding_metadata {
            self.builtin.grounding(metadata);
        }
        if let Some(reason) = candidate.finish_reason.filter(|reason| !reason.is_empty()) {
            self.finish = Some(finish_reason(&reason));
        }
        Ok(())
    }

    fn part(&mut self, part: Part<'_>, out: &mut VecDeque<StreamEvent>) {
        if let Some(code) = &part.executable_code {
            self.builtin.code(code, out);
        }
        if let Some(result) = &part.code_execution_result {
            self.builtin.result(result, out);
        }
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
                if let Some((_, reply)) = &mut self.text_workflow {
                    reply.push_str(&text);
                }
                StreamEvent::TextDelta(text.into_owned())
            });
        }
    }

    /// The workflow action written as text, as the call a function call would have given.
    fn text_action(&mut self, out: &mut VecDeque<StreamEvent>) {
        let Some((offered, reply)) = self.text_workflow.take() else {
            return;
        };
        if self.calls > 0 {
            return;
        }
        let accepts = |tool: &str| offered.iter().any(|name| name == tool);
        if let Some((name, arguments)) = text_reply::parse(&reply, accepts) {
            let index = self.calls;
            self.calls += 1;
            out.push_back(StreamEvent::ToolCallStart {
                index,
                id: String::new(),
                name: name.to_string(),
            });
            out.push_back(StreamEvent::ToolCallArgsDelta {
                index,
                fragment: arguments.to_string(),
            });
        }
    }

    /// The usage and finish events, once a finish reason has been seen.
    fn finish(&mut self, out: &mut VecDeque<StreamEvent>) -> Flow {
        let Some(reason) = self.finish.take() else {
            return Flow::Continue;
        };
        self.text_action(out);
        let searches = self.builtin.searches();
        self.builtin.flush(out);
        if let Some(mut usage) = self.usage.take() {
            usage.web_searches = searches;
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
        text: &str,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
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
mod tests;
