//! MassGen's `read_media` (`enable_multimodal_tools`) over real HTTP: an agent's call sends
//! the image from its workspace to its own model and the model's text comes back as the
//! tool result; paths outside the agent's reach, files that are no media and kinds its API
//! cannot take are refused before any request is sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use massgen::protocol::{EventMsg, Mode, TurnOptions, TurnOutcome};
use massgen::tools::PathPolicy;
use massgen::tools::read_media::ReadMedia;
use serde_json::{Value, json};

use crate::harness::backend;
use crate::mock_llm::{MockLlm, Recorded};
use crate::multi_protocol::{Wire, text, tool, vote_targets};
use crate::support::{Scenario, outcome};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\npixels";
const PNG_BASE64: &str = "iVBORw0KGgpwaXhlbHM=";
const SEEN: &str = "The screenshot shows a red square.";
/// Words of the reviewer's system prompt, which only `read_media`'s call carries.
const REVIEWER: &str = "reviewing this work critically";

/// A Claude that reads the screenshot first, then answers and votes; it describes the
/// image when asked by `read_media` and presents when no workflow tools are offered.
async fn claude() -> MockLlm {
    let read = AtomicBool::new(false);
    let calls = AtomicUsize::new(0);
    MockLlm::with_responder(move |request: &Recorded| {
        let body = request.body.to_string();
        if body.contains(REVIEWER) {
            return text(Wire::Anthropic, SEEN);
        }
        if !body.contains("\"new_answer\"") {
            return text(Wire::Anthropic, "A red square.");
        }
        if !read.swap(true, Ordering::SeqCst) {
            let arguments = json!({"inputs": [{"files": {"shot": "shot.png"}}],
                                   "prompt": "What colour is the shape?"});
            return tool(Wire::Anthropic, "read_media", &arguments);
        }
        let call = calls.fetch_add(1, Ordering::SeqCst);
        match vote_targets(&request.body).filter(|targets| call > 0 && !targets.is_empty()) {
            Some(targets) => tool(
                Wire::Anthropic,
                "vote",
                &json!({"agent_id": targets[0], "reason": "right"}),
            ),
            None => tool(
                Wire::Anthropic,
                "new_answer",
                &json!({"content": "It is a red square."}),
            ),
        }
    })
    .await
}

#[tokio::test]
async fn an_agents_read_media_call_sends_the_image_and_returns_the_models_text() {
    let claude = claude().await;
    let workspace = tempfile::tempdir().unwrap();
    std::fs::write(workspace.path().join("shot.png"), PNG).unwrap();
    std::fs::write(
        workspace.path().join("CONTEXT.md"),
        "A logo for a paint shop.",
    )
    .unwrap();
    let yaml = format!(
        "agents:\n  - id: beta\n    backend: {{type: claude, model: claude-sonnet-4-5, \
         api_key: sk-ant-test, base_url: \"{}\", cwd: \"{}\"}}\n\
         orchestrator:\n  enable_multimodal_tools: true\n",
        claude.base_url,
        workspace.path().display()
    );
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Check the logo.", Mode::Normal, TurnOptions::default())
        .await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);

    let requests = claude.requests();
    let first = &requests[0].body;
    let offered = first["tools"].to_string();
    assert!(offered.contains("\"read_media\""), "{offered}");
    assert!(
        first["system"]
            .to_string()
            .contains("evidence_based_verification"),
        "the agent is told about read_media"
    );
    let asked: Vec<&Value> = requests
        .iter()
        .map(|request| &request.body)
        .filter(|body| body.to_string().contains(REVIEWER))
        .collect();
    assert_eq!(asked.len(), 1, "one call for the one input");
    let content = &asked[0]["messages"][0]["content"];
    let image = json!({"type": "image", "source":
        {"type": "base64", "media_type": "image/png", "data": PNG_BASE64}});
    assert_eq!(content[0], image, "{content}");
    let prompt = content[1]["text"].as_str().unwrap_or_default();
    assert!(
        prompt.contains("[Task Context]\nA logo for a paint shop."),
        "{prompt}"
    );
    assert!(prompt.contains("What colour is the shape?"), "{prompt}");
    assert!(
        asked[0]
            .get("tools")
            .is_none_or(|tools| tools == &json!([]))
    );
    let answered = requests.iter().any(|request| {
        let body = request.body.to_string();
        !body.contains(REVIEWER) && body.contains("tool_result") && body.contains(SEEN)
    });
    assert!(answered, "the model's text comes back as the tool result");
    let metered = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::Usage { .. }))
        .count();
    assert_eq!(
        metered,
        requests.len(),
        "every model call, read_media's too, counts for the agent"
    );
}

/// A `read_media` over `workspace` against a Claude server that must not be called.
async fn tool_over(workspace: &std::path::Path) -> (ReadMedia, MockLlm) {
    let protocol = &crate::anthropic::CLAUDE;
    let (server, config) = protocol.serve(vec![(protocol.text_reply)(&["seen"])]).await;
    let policy = Arc::new(PathPolicy::new(
        workspace.to_path_buf(),
        Vec::new(),
        Vec::new(),
    ));
    (ReadMedia::new(backend(&config), policy), server)
}

async fn refused(workspace: &std::path::Path, path: &str) -> (String, bool) {
    let (read_media, server) = tool_over(workspace).await;
    let arguments = json!({"inputs": [{"files": {"image_0": path}}]}).to_string();
    let done = read_media.call(&arguments).await;
    let (outcome, refusal) = (done.outcome, done.refusal);
    assert!(done.usage.is_empty(), "no call, nothing spent");
    assert!(!outcome.ok, "{}", outcome.output);
    assert!(server.requests().is_empty(), "no request may be sent");
    let error: Value = serde_json::from_str(&outcome.output).unwrap();
    assert_eq!(error["success"], json!(false));
    assert_eq!(error["operation"], json!("read_media"));
    (
        error["error"].as_str().unwrap_or_default().to_string(),
        refusal.is_some(),
    )
}

#[tokio::test]
async fn a_path_outside_the_agents_paths_is_refused() {
    let workspace = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = elsewhere.path().join("secret.png");
    std::fs::write(&outside, PNG).unwrap();
    let (_, path_refused) = refused(workspace.path(), &outside.display().to_string()).await;
    assert!(path_refused, "the refusal is reported like the file tools'");
}

#[tokio::test]
async fn a_file_that_is_no_media_is_refused() {
    let workspace = tempfile::tempdir().unwrap();
    std::fs::write(workspace.path().join("notes.png"), "plain text").unwrap();
    let (error, path_refused) = refused(workspace.path(), "notes.png").await;
    assert!(
        error.contains("Unsupported file type: notes.png"),
        "{error}"
    );
    assert!(!path_refused);
}

#[tokio::test]
async fn a_kind_the_agents_api_cannot_take_names_what_would_work() {
    let workspace = tempfile::tempdir().unwrap();
    std::fs::write(workspace.path().join("voice.wav"), b"RIFF\0\0\0\0WAVEfmt ").unwrap();
    let (error, _) = refused(workspace.path(), "voice.wav").await;
    assert!(
        error.contains("voice.wav: the Anthropic Messages API does not take audio files"),
        "{error}"
    );
    assert!(
        error.contains("to the Chat Completions API and Gemini"),
        "{error}"
    );
}
