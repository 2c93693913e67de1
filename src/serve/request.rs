//! A `POST /v1/chat/completions` body read into one massgen turn: the last user message
//! is the question, earlier user/assistant pairs the conversation so far (system messages
//! are dropped, as MassGen drops them), and the options that change the reply.

use serde_json::Value;

use super::errors::ApiError;
use crate::orchestrator::prompts::HistoryEntry;

#[derive(Debug, PartialEq)]
pub struct ChatRequest {
    pub model: String,
    pub question: String,
    pub history: Vec<HistoryEntry>,
    pub stream: bool,
    /// Coordination progress (answers, votes, winner) streams as `reasoning_content`.
    pub include_reasoning: bool,
    /// The client wants a final usage chunk (`stream_options.include_usage`).
    pub include_usage: bool,
}

pub fn parse(body: &[u8]) -> Result<ChatRequest, ApiError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|error| ApiError::bad_request(format!("the body is not JSON: {error}"), None))?;
    let model = value["model"]
        .as_str()
        .filter(|model| !model.trim().is_empty())
        .ok_or_else(|| ApiError::bad_request("`model` is missing", Some("model")))?
        .to_string();
    let messages = value["messages"]
        .as_array()
        .filter(|messages| !messages.is_empty())
        .ok_or_else(|| {
            ApiError::bad_request("`messages` must be a non-empty array", Some("messages"))
        })?;
    let mut turns: Vec<(String, String)> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let role = message["role"].as_str().unwrap_or_default();
        let text = content_text(&message["content"]).ok_or_else(|| {
            ApiError::bad_request(
                format!("`messages[{index}].content` must be text or text parts"),
                Some("messages"),
            )
        })?;
        match role {
            "user" | "assistant" => turns.push((role.to_string(), text)),
            "system" | "developer" | "tool" => {}
            other => {
                return Err(ApiError::bad_request(
                    format!("`messages[{index}].role` `{other}` is not user, assistant or system"),
                    Some("messages"),
                ));
            }
        }
    }
    let Some((role, question)) = turns.pop() else {
        return Err(ApiError::bad_request(
            "`messages` holds no user message",
            Some("messages"),
        ));
    };
    if role != "user" || question.trim().is_empty() {
        return Err(ApiError::bad_request(
            "the last message must be a non-empty user message: it is the question",
            Some("messages"),
        ));
    }
    let mut history = Vec::new();
    let mut pending: Option<String> = None;
    for (role, text) in turns {
        if role == "user" {
            pending = Some(pending.map_or(text.clone(), |earlier| format!("{earlier}\n\n{text}")));
        } else if let Some(question) = pending.take() {
            history.push(HistoryEntry {
                question,
                answer: text,
            });
        }
    }
    Ok(ChatRequest {
        model,
        question,
        history,
        stream: value["stream"].as_bool().unwrap_or(false),
        include_reasoning: value["include_reasoning"].as_bool().unwrap_or(false),
        include_usage: value["stream_options"]["include_usage"]
            .as_bool()
            .unwrap_or(false),
    })
}

/// A message's text: a string, or the `text` of its text parts.
fn content_text(content: &Value) -> Option<String> {
    match content {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(|part| part["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        Value::Null => Some(String::new()),
        Value::Bool(_) | Value::Number(_) | Value::Object(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_user_message_is_the_question_and_pairs_before_it_the_history() {
        let body = serde_json::json!({
            "model": "massgen",
            "stream": true,
            "messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "Capital of France?"},
                {"role": "assistant", "content": "Paris."},
                {"role": "user", "content": [{"type": "text", "text": "And Germany?"}]},
            ],
        });
        let request = parse(body.to_string().as_bytes()).unwrap();
        assert_eq!(request.question, "And Germany?");
        assert_eq!(
            request.history,
            [HistoryEntry {
                question: "Capital of France?".into(),
                answer: "Paris.".into()
            }]
        );
        assert!(request.stream && !request.include_reasoning);
    }

    #[test]
    fn bad_bodies_name_what_is_wrong() {
        for (body, needle) in [
            ("not json", "not JSON"),
            (
                r#"{"messages": [{"role": "user", "content": "q"}]}"#,
                "`model`",
            ),
            (r#"{"model": "massgen", "messages": []}"#, "non-empty array"),
            (
                r#"{"model": "massgen", "messages": [{"role": "assistant", "content": "a"}]}"#,
                "last message",
            ),
            (
                r#"{"model": "massgen", "messages": [{"role": "wizard", "content": "a"}]}"#,
                "wizard",
            ),
        ] {
            let error = parse(body.as_bytes()).unwrap_err();
            assert!(error.message.contains(needle), "{body}: {}", error.message);
            assert_eq!(error.status, axum::http::StatusCode::BAD_REQUEST);
        }
    }
}
