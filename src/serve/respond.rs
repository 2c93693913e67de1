//! A turn's chunks as OpenAI's chat completion: one JSON object, or server-sent
//! `chat.completion.chunk`s ending in `data: [DONE]`. Coordination progress goes out as
//! `reasoning_content` (streamed, or whole in the message) when the request asked for it
//! (`include_reasoning: true`).

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::{Body, Bytes};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, mpsc};

use super::errors::ApiError;
use super::request::ChatRequest;
use super::turn::{Chunk, Ending};
use crate::protocol::{TurnOutcome, Usage};

/// `chatcmpl-<time>-<n>`: unique within a server's life and sortable.
pub fn completion_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!(
        "chatcmpl-{}-{}",
        jiff::Timestamp::now().as_millisecond(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

fn usage_json(usage: &Usage) -> Value {
    json!({
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.input_tokens + usage.output_tokens,
    })
}

/// Why a turn that ended without an answer did.
fn no_answer(ending: &Ending) -> String {
    let how = match ending.outcome {
        Some(TurnOutcome::TimedOut) => "the turn timed out with no answer",
        Some(TurnOutcome::Cancelled) => "the turn was cancelled",
        Some(TurnOutcome::Failed | TurnOutcome::Completed) | None => "no agent produced an answer",
    };
    match &ending.problem {
        Some(problem) => format!("{how}: {problem}"),
        None => how.to_string(),
    }
}

/// Waits for the whole turn and answers with one `chat.completion`; with
/// `include_reasoning`, the coordination progress is its message's `reasoning_content`.
pub async fn whole(
    id: String,
    request: &ChatRequest,
    created: i64,
    mut chunks: mpsc::Receiver<Chunk>,
    permit: OwnedSemaphorePermit,
) -> Result<Response, ApiError> {
    let mut ending = None;
    let mut reasoning = String::new();
    while let Some(chunk) = chunks.recv().await {
        match chunk {
            Chunk::Done(done) => {
                ending = Some(done);
                break;
            }
            Chunk::Reasoning(text) if request.include_reasoning => reasoning.push_str(&text),
            Chunk::Reasoning(_) | Chunk::Content(_) => {}
        }
    }
    drop(permit);
    let ending = ending.unwrap_or_default();
    let Some(answer) = &ending.answer else {
        return Err(ApiError::internal(no_answer(&ending), &id));
    };
    let mut message = json!({"role": "assistant", "content": answer});
    if request.include_reasoning {
        message["reasoning_content"] = json!(reasoning);
    }
    let body = json!({
        "id": id,
        "object": "chat.completion",
        "created": created,
        "model": request.model,
        "choices": [{
            "index": 0,
            "message": message,
            "finish_reason": "stop",
        }],
        "usage": usage_json(&ending.usage),
    });
    Ok(axum::Json(body).into_response())
}

/// What the streamed response still has to say.
struct Streaming {
    id: String,
    model: String,
    created: i64,
    include_reasoning: bool,
    include_usage: bool,
    chunks: mpsc::Receiver<Chunk>,
    started: bool,
    /// Lines left to send after the turn ended.
    tail: Vec<String>,
    /// Held until the stream ends, so the turn counts against `--max-concurrent`.
    _permit: OwnedSemaphorePermit,
}

impl Streaming {
    fn chunk(&self, delta: &Value, finish: Option<&str>) -> String {
        let body = json!({
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        });
        format!("data: {body}\n\n")
    }

    fn ended(&self, ending: &Ending) -> Vec<String> {
        let mut lines = Vec::new();
        if ending.answer.is_some() {
            lines.push(self.chunk(&json!({}), Some("stop")));
        } else {
            let error = json!({"error": {
                "message": format!("{} (request {})", no_answer(ending), self.id),
                "type": "server_error",
                "param": null,
                "code": null,
            }});
            lines.push(format!("data: {error}\n\n"));
        }
        if self.include_usage {
            let body = json!({
                "id": self.id,
                "object": "chat.completion.chunk",
                "created": self.created,
                "model": self.model,
                "choices": [],
                "usage": usage_json(&ending.usage),
            });
            lines.push(format!("data: {body}\n\n"));
        }
        lines.push("data: [DONE]\n\n".to_string());
        lines.reverse();
        lines
    }

    /// The next piece of the body, `None` when everything is sent.
    async fn next(&mut self) -> Option<String> {
        if let Some(line) = self.tail.pop() {
            return Some(line);
        }
        if !self.started {
            self.started = true;
            return Some(self.chunk(&json!({"role": "assistant", "content": ""}), None));
        }
        loop {
            match self.chunks.recv().await? {
                Chunk::Reasoning(text) if self.include_reasoning => {
                    return Some(self.chunk(&json!({"reasoning_content": text}), None));
                }
                Chunk::Reasoning(_) => {}
                Chunk::Content(text) => return Some(self.chunk(&json!({"content": text}), None)),
                Chunk::Done(ending) => {
                    self.tail = self.ended(&ending);
                    return self.tail.pop();
                }
            }
        }
    }
}

/// Streams the turn as server-sent events. Dropping the body (the client went away) drops
/// the chunk receiver, which cancels the turn.
pub fn stream(
    id: String,
    request: &ChatRequest,
    created: i64,
    chunks: mpsc::Receiver<Chunk>,
    permit: OwnedSemaphorePermit,
) -> Response {
    let state = Streaming {
        id,
        model: request.model.clone(),
        created,
        include_reasoning: request.include_reasoning,
        include_usage: request.include_usage,
        chunks,
        started: false,
        tail: Vec::new(),
        _permit: permit,
    };
    let body = futures::stream::unfold(state, |mut state| async move {
        let line = state.next().await?;
        Some((Ok::<_, Infallible>(Bytes::from(line)), state))
    });
    Response::builder()
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(Body::from_stream(body))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}
