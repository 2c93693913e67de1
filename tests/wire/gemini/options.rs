//! What a config's backend keys put in a `generateContent` request: options under
//! `generationConfig` as MassGen maps them, thinking settings, `extra_body` at the top.

use serde_json::json;

use super::text_reply;
use crate::harness::{backend, load_backend, question, turn};
use crate::mock_llm::MockLlm;

#[tokio::test]
async fn options_go_where_gemini_wants_them_and_unknown_keys_stay_out() {
    let server = MockLlm::start(vec![text_reply(&["hi"])]).await;
    let (config, warnings) = load_backend(&format!(
        "{{type: gemini, model: gemini-2.5-pro, base_url: '{}', top_k: 20, \
          thinking_config: {{thinking_budget: 2048, include_thoughts: true}}, \
          function_calling_mode: any, reasoning_effort: high, \
          extra_body: {{labels: {{team: a}}}}}}",
        server.base_url
    ));
    assert_eq!(
        warnings,
        [
            "ignored: agents[0].backend.reasoning_effort — not an option of the Gemini API; to \
          send it anyway, put it under `extra_body`"
        ]
    );
    let _ = turn(&backend(&config), question()).await;
    let body = &server.requests()[0].body;
    assert_eq!(
        body["generationConfig"],
        json!({
            "topK": 20,
            "thinkingConfig": {"thinkingBudget": 2048, "includeThoughts": true}
        })
    );
    assert_eq!(
        body["toolConfig"],
        json!({"functionCallingConfig": {"mode": "ANY"}})
    );
    assert_eq!(body["labels"], json!({"team": "a"}));
    let text = body.to_string();
    assert!(
        !text.contains("reasoning_effort") && !text.contains("extra_body"),
        "{text}"
    );
}
