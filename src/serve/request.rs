//! A `POST /v1/chat/completions` body read into one massgen turn: the last user message
//! is the question, earlier user/assistant pairs the conversation so far (system messages
//! are dropped, as MassGen drops them), and the options that change the reply.

use super::errors::ApiError;
use super::wire::{self, Refusal};
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
    /// How the agents reach the answer; `None` keeps the config's.
    pub strategy: Option<crate::protocol::Strategy>,
}

pub fn parse(body: &[u8]) -> Result<ChatRequest, ApiError> {
    let body = wire::read(body).map_err(|refusal| match refusal {
        Refusal::NotJson(error) => {
            ApiError::bad_request(format!("the body is not JSON: {error}"), None)
        }
        Refusal::Field(name, error) => {
            ApiError::bad_request(format!("`{name}`: {error}"), Some(name))
        }
    })?;
    let model = body
        .model
        .filter(|model| !model.trim().is_empty())
        .ok_or_else(|| ApiError::bad_request("`model` is missing", Some("model")))?;
    let messages = body
        .messages
        .filter(|messages| !messages.is_empty())
        .ok_or_else(|| {
            ApiError::bad_request("`messages` must be a non-empty array", Some("messages"))
        })?;
    let mut turns: Vec<(String, String)> = Vec::new();
    for (index, message) in messages.into_iter().enumerate() {
        match message.role.as_str() {
            "user" | "assistant" => turns.push((message.role, message.text)),
            "system" | "developer" | "tool" => {}
            other => {
                return Err(ApiError::bad_request(
                    format!(
                        "`messages[{index}].role` `{}` is not user, assistant or system",
                        other.chars().take(40).collect::<String>()
                    ),
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
        stream: body.stream.unwrap_or(false),
        include_reasoning: body.include_reasoning.unwrap_or(false),
        include_usage: body.include_usage.unwrap_or(false),
        strategy: body.strategy,
    })
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
    fn a_strategy_field_picks_the_turn_s_strategy() {
        let body = serde_json::json!({
            "model": "massgen",
            "strategy": "council",
            "messages": [{"role": "user", "content": "q"}],
        });
        let request = parse(body.to_string().as_bytes()).unwrap();
        assert_eq!(request.strategy, Some(crate::protocol::Strategy::Council));
        let plain =
            serde_json::json!({"model": "m", "messages": [{"role": "user", "content": "q"}]});
        assert_eq!(parse(plain.to_string().as_bytes()).unwrap().strategy, None);
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
            (
                r#"{"model": "m", "strategy": "majority", "messages": [{"role": "user", "content": "q"}]}"#,
                "`strategy`: unknown variant `majority`, expected one of `vote`, `council`, `debate`",
            ),
        ] {
            let error = parse(body.as_bytes()).unwrap_err();
            assert!(error.message.contains(needle), "{body}: {}", error.message);
            assert_eq!(error.status, axum::http::StatusCode::BAD_REQUEST);
        }
    }

    #[test]
    fn messages_and_parts_are_capped_and_other_fields_skipped() {
        let message = serde_json::json!({"role": "user", "content": "q"});
        let at_cap = serde_json::json!({
            "model": "massgen",
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
            "temperature": 0.2,
            "messages": vec![message.clone(); super::wire::MAX_MESSAGES],
        });
        assert_eq!(parse(at_cap.to_string().as_bytes()).unwrap().question, "q");
        let over = serde_json::json!({
            "model": "massgen",
            "messages": vec![message; super::wire::MAX_MESSAGES + 1],
        });
        let error = parse(over.to_string().as_bytes()).unwrap_err();
        assert!(
            error.message.contains("more than 2048 messages"),
            "{}",
            error.message
        );
        assert_eq!(error.param, Some("messages"));
        let parts = serde_json::json!({"model": "massgen", "messages": [{"role": "user",
            "content": vec![serde_json::json!({"type": "text", "text": "p"}); 257]}]});
        let error = parse(parts.to_string().as_bytes()).unwrap_err();
        assert!(
            error.message.contains("more than 256 parts"),
            "{}",
            error.message
        );
    }

    #[test]
    fn content_is_text_or_text_parts() {
        let body = r#"{"model": "m", "messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": "data:,"}}, {"type": "text", "text": "a"},
            {"type": "text", "text": "b"}]}]}"#;
        assert_eq!(parse(body.as_bytes()).unwrap().question, "a\nb");
        for content in ["1", "true", "{}"] {
            let body = format!(
                r#"{{"model": "m", "messages": [{{"role": "user", "content": "q"}}, {{"role": "user", "content": {content}}}]}}"#
            );
            let error = parse(body.as_bytes()).unwrap_err();
            assert!(
                error.message.contains("`messages[1].content` must be text"),
                "{}",
                error.message
            );
        }
        let error = parse(br#"{"model": "m", "messages": [], "stream": "yes"}"#).unwrap_err();
        assert_eq!(error.param, Some("stream"));
        let error = parse(br#"{"model": "m", "messages": []} trailing"#).unwrap_err();
        assert!(error.message.contains("not JSON"), "{}", error.message);
    }
}
