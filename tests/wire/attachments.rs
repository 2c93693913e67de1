//! Images and PDFs attached to the question reach each wire protocol in its documented
//! shape — Chat Completions `image_url` / `file`, Responses `input_image` / `input_file`,
//! Anthropic `image` / `document` blocks, Gemini `inline_data` / `file_data` — and a file
//! over the provider's limit is refused before any request is sent.

use massgen::backend::{ChatRequest, Message};
use massgen::protocol::{Attachment, MediaKind, Mode, Op, TurnOptions, TurnOutcome};
use massgen::workspace::parse_prompt;
use serde_json::{Value, json};

use crate::harness::{Protocol, backend, collect, turn};
use crate::support::{Scenario, outcome};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\npixels";
const PDF: &[u8] = b"%PDF-1.7\nreport";
/// `PNG` and `PDF` base64-encoded.
const PNG_BASE64: &str = "iVBORw0KGgpwaXhlbHM=";
const PDF_BASE64: &str = "JVBERi0xLjcKcmVwb3J0";

fn attached(attachments: Vec<Attachment>) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::user_with("What is shown?", attachments)].into(),
        tools: Vec::new(),
    }
}

fn photo_and_report() -> Vec<Attachment> {
    vec![
        Attachment::inline("photo.png", PNG.to_vec()).unwrap(),
        Attachment::inline("report.pdf", PDF.to_vec()).unwrap(),
    ]
}

/// The body of the one request `protocol`'s server saw for `attachments`.
async fn sent(protocol: &Protocol, attachments: Vec<Attachment>) -> Value {
    let (server, config) = protocol.serve(vec![(protocol.text_reply)(&["seen"])]).await;
    turn(&backend(&config), attached(attachments)).await;
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    requests[0].body.clone()
}

#[tokio::test]
async fn chat_completions_gets_image_url_and_file_parts() {
    let body = sent(&crate::openai_chat::GROK, photo_and_report()).await;
    assert_eq!(
        body["messages"][0]["content"],
        json!([
            {"type": "text", "text": "What is shown?"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG_BASE64}")}},
            {"type": "file", "file": {"filename": "report.pdf",
                "file_data": format!("data:application/pdf;base64,{PDF_BASE64}")}},
        ])
    );
}

#[tokio::test]
async fn responses_gets_input_image_and_input_file() {
    let mut attachments = photo_and_report();
    attachments.push(Attachment::url(
        "https://files.test/brief.pdf",
        MediaKind::Pdf,
        "application/pdf",
    ));
    let body = sent(&crate::openai_responses::OPENAI, attachments).await;
    assert_eq!(
        body["input"][0]["content"],
        json!([
            {"type": "input_text", "text": "What is shown?"},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG_BASE64}")},
            {"type": "input_file", "filename": "report.pdf",
                "file_data": format!("data:application/pdf;base64,{PDF_BASE64}")},
            {"type": "input_file", "file_url": "https://files.test/brief.pdf"},
        ])
    );
}

#[tokio::test]
async fn anthropic_gets_image_and_document_blocks() {
    let mut attachments = photo_and_report();
    attachments.push(Attachment::url(
        "https://img.test/cat.jpg",
        MediaKind::Image,
        "image/jpeg",
    ));
    let body = sent(&crate::anthropic::CLAUDE, attachments).await;
    assert_eq!(
        body["messages"][0]["content"],
        json!([
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_BASE64}},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF_BASE64}},
            {"type": "image", "source": {"type": "url", "url": "https://img.test/cat.jpg"}},
            {"type": "text", "text": "What is shown?"},
        ])
    );
}

#[tokio::test]
async fn gemini_gets_inline_data_parts() {
    let mut attachments = photo_and_report();
    attachments.push(Attachment::url(
        "https://img.test/cat.webp",
        MediaKind::Image,
        "image/jpeg",
    ));
    let body = sent(&crate::gemini::GEMINI, attachments).await;
    assert_eq!(
        body["contents"][0]["parts"],
        json!([
            {"text": "What is shown?"},
            {"inline_data": {"mime_type": "image/png", "data": PNG_BASE64}},
            {"inline_data": {"mime_type": "application/pdf", "data": PDF_BASE64}},
            {"file_data": {"mime_type": "image/webp", "file_uri": "https://img.test/cat.webp"}},
        ])
    );
}

#[tokio::test]
async fn an_image_over_the_providers_limit_is_refused_before_sending() {
    let mut big = PNG.to_vec();
    big.resize(6 * 1024 * 1024, 0);
    let protocol = &crate::anthropic::CLAUDE;
    let (server, config) = protocol.serve(vec![(protocol.text_reply)(&["seen"])]).await;
    let request = attached(vec![Attachment::inline("huge.png", big).unwrap()]);
    let (_, error) = collect(&backend(&config), request).await;
    let error = error.map(|error| error.to_string()).unwrap_or_default();
    assert!(error.contains("huge.png is 6.0 MB"), "{error}");
    assert!(error.contains("up to 5.0 MB"), "{error}");
    assert!(server.requests().is_empty(), "no request may be sent");
}

#[tokio::test]
async fn an_at_path_image_and_the_configs_upload_files_reach_the_model() {
    let claude =
        crate::multi_protocol::model(crate::multi_protocol::Wire::Anthropic, "claude").await;
    let uploads = tempfile::tempdir().unwrap();
    std::fs::write(uploads.path().join("report.pdf"), PDF).unwrap();
    let yaml = format!(
        "agents:\n  - id: beta\n    backend: {{type: claude, model: claude-sonnet-4-5, \
         api_key: sk-ant-test, base_url: \"{}\", cwd: \"{}\", \
         upload_files: [{{file_path: report.pdf}}]}}\n",
        claude.base_url,
        uploads.path().display()
    );
    let mut scenario = Scenario::start(&yaml);
    std::fs::write(scenario.dir.path().join("pic.png"), PNG).unwrap();
    let parsed = parse_prompt("What is in @pic.png?", scenario.dir.path());
    assert_eq!(parsed.paths.len(), 1);
    let submit = Op::Submit {
        text: parsed.text,
        mode: Mode::Normal,
        context_paths: parsed.paths,
        options: TurnOptions::default(),
    };
    scenario.handle.ops.send(submit).await.unwrap();
    let events = scenario.handle.finish_turn().await;

    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let image = json!({"type": "image", "source":
        {"type": "base64", "media_type": "image/png", "data": PNG_BASE64}});
    let document = json!({"type": "document", "source":
        {"type": "base64", "media_type": "application/pdf", "data": PDF_BASE64}});
    let requests = claude.requests();
    assert!(!requests.is_empty());
    for request in requests {
        let user = &request.body["messages"][0];
        assert_eq!(
            user["content"][0], image,
            "every call carries the image: {user}"
        );
        assert_eq!(user["content"][1], document, "and the uploaded PDF: {user}");
    }
}

#[tokio::test]
async fn an_at_path_image_too_large_for_an_agent_is_refused_before_the_turn() {
    let claude =
        crate::multi_protocol::model(crate::multi_protocol::Wire::Anthropic, "claude").await;
    let yaml = format!(
        "agents:\n  - id: beta\n    backend: {{type: claude, model: claude-sonnet-4-5, \
         api_key: sk-ant-test, base_url: \"{}\"}}\n",
        claude.base_url
    );
    let mut scenario = Scenario::start(&yaml);
    let mut big = PNG.to_vec();
    big.resize(6 * 1024 * 1024, 0);
    std::fs::write(scenario.dir.path().join("big.png"), big).unwrap();
    let parsed = parse_prompt("What is in @big.png?", scenario.dir.path());
    let submit = Op::Submit {
        text: parsed.text,
        mode: Mode::Normal,
        context_paths: parsed.paths,
        options: TurnOptions::default(),
    };
    scenario.handle.ops.send(submit).await.unwrap();
    let events = scenario.handle.finish_turn().await;

    let said: Vec<String> = events
        .iter()
        .map(|event| format!("{:?}", event.msg))
        .collect();
    assert!(
        said.iter()
            .any(|text| text.contains("agent beta: big.png is 6.0 MB")
                && text.contains("up to 5.0 MB")),
        "{said:#?}"
    );
    assert!(claude.requests().is_empty(), "no request may be sent");
}
