//! One `read_media` input from paths to the model's answer: each file checked against the
//! paths the agent may read, known by its bytes, held to MassGen's and the provider's size
//! limits, then sent with the prompt (and the workspace's `CONTEXT.md`) in one call to the
//! agent's own model.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use futures::StreamExt as _;
use serde_json::{Value, json};

use super::request::MediaInput;
use crate::backend::{Backend, ChatRequest, Message, TurnBuilder, tokens};
use crate::config::attachment_limits::{MEDIA_MAX_FILE_SIZE, refusal};
use crate::config::provider_options::Api;
use crate::protocol::{Attachment, CallTiming, EventMsg, MediaKind, sniff};
use crate::session;
use crate::tools::{Access, PathPolicy, Refusal};

/// MassGen's `MEDIA_ANALYSIS_TIMEOUT`: ten minutes for one analysis.
const ANALYSIS_TIMEOUT: Duration = Duration::from_secs(600);

/// Bytes enough for every magic number `sniff` knows.
const HEADER: u64 = 16;

/// How the model is asked to look (MassGen's vision system prompt, in its spirit).
const REVIEWER: &str = "You are reviewing this work critically. Say plainly what you see: \
                        name specific problems and their impact, and tell apart the issues \
                        that need a different approach from the ones that are quick fixes.";

/// The workspace file MassGen reads the task's context from.
const CONTEXT_FILE: &str = "CONTEXT.md";

/// The files of one input, read and ready to send.
pub struct Loaded {
    /// `(name, resolved path, attachment)`.
    files: Vec<(String, PathBuf, Attachment)>,
}

/// What the model said about one input.
pub struct Analysis {
    loaded: Loaded,
    prompt: String,
    model: String,
    response: String,
    /// The `Usage` event of the call that answered, so it counts for the agent.
    pub usage: EventMsg,
}

impl Loaded {
    /// Reads `input`'s files, or says why one cannot be sent to `api` (with the refused
    /// path when it lies outside the agent's paths).
    pub fn load(
        policy: &PathPolicy,
        input: &MediaInput,
        api: Option<Api>,
    ) -> Result<Self, (String, Option<Refusal>)> {
        let mut files = Vec::with_capacity(input.files.len());
        for (name, raw) in &input.files {
            let path = policy
                .check(raw, Access::Read)
                .map_err(|refusal| (refusal.reason.clone(), Some(refusal)))?;
            let attachment = read(&path, raw).map_err(|error| (error, None))?;
            policy.record_read(&path);
            files.push((name.clone(), path, attachment));
        }
        let attachments: Vec<Attachment> = files.iter().map(|(_, _, file)| file.clone()).collect();
        if let Some(why) = api.and_then(|api| refusal(&attachments, api)) {
            return Err((why, None));
        }
        Ok(Self { files })
    }

    /// Asks `backend`'s model about the files.
    pub async fn ask(
        self,
        backend: &dyn Backend,
        prompt: Option<String>,
        task_context: Option<&str>,
    ) -> Result<Analysis, String> {
        let prompt = prompt.unwrap_or_else(|| default_prompt(self.kind()));
        let text = match task_context {
            Some(context) => format!("[Task Context]\n{context}\n\n[Request]\n{prompt}"),
            None => prompt.clone(),
        };
        let attachments = self.files.iter().map(|(_, _, file)| file.clone()).collect();
        let request = ChatRequest {
            messages: vec![
                Message::system(REVIEWER),
                Message::user_with(text, attachments),
            ]
            .into(),
            tools: Vec::new(),
        };
        let api_error = |error: String| format!("API error ({}): {error}", backend.provider());
        let (response, usage) = tokio::time::timeout(ANALYSIS_TIMEOUT, answer(backend, request))
            .await
            .map_err(|_| api_error("no answer within 10 minutes".into()))?
            .map_err(api_error)?;
        Ok(Analysis {
            model: backend.model().to_string(),
            loaded: self,
            prompt,
            response,
            usage,
        })
    }

    fn kind(&self) -> MediaKind {
        self.files
            .first()
            .map_or(MediaKind::Image, |(_, _, file)| file.kind)
    }
}

impl Analysis {
    /// MassGen's result: `understand_image`'s shape for images, the same with `file_path`
    /// (or `files`) for PDFs and audio.
    pub fn result(&self) -> Value {
        let (operation, one, many) = match self.loaded.kind() {
            MediaKind::Image => ("understand_image", "image_path", "images"),
            MediaKind::Audio => ("understand_audio", "file_path", "files"),
            MediaKind::Pdf | MediaKind::Video => ("understand_file", "file_path", "files"),
        };
        let mut result = json!({
            "success": true,
            "operation": operation,
            "prompt": self.prompt,
            "model": self.model,
            "response": self.response,
        });
        match self.loaded.files.as_slice() {
            [(_, path, _)] => result[one] = json!(path.display().to_string()),
            files => {
                let named: serde_json::Map<String, Value> = files
                    .iter()
                    .map(|(name, path, _)| (name.clone(), json!(path.display().to_string())))
                    .collect();
                result[many] = Value::Object(named);
            }
        }
        result
    }
}

/// The workspace's `CONTEXT.md`, which MassGen prepends to every media prompt.
pub async fn task_context(workspace: &Path) -> Option<String> {
    let text = tokio::fs::read_to_string(workspace.join(CONTEXT_FILE))
        .await
        .ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn default_prompt(kind: MediaKind) -> String {
    let noun = match kind {
        MediaKind::Image => "image",
        MediaKind::Pdf => "document",
        MediaKind::Audio => "audio",
        MediaKind::Video => "video",
    };
    format!(
        "Analyze this {noun}. What works, what is broken, and what would a demanding user \
         complain about? Be specific and critical."
    )
}

/// The file at `path` as an attachment, or why it cannot be one (`raw`: as the agent
/// wrote it).
fn read(path: &Path, raw: &str) -> Result<Attachment, String> {
    let cannot = |error: std::io::Error| format!("cannot read {raw}: {error}");
    let metadata = std::fs::metadata(path).map_err(|_| format!("File does not exist: {raw}"))?;
    if !metadata.is_file() {
        return Err(format!("{raw} is not a file"));
    }
    if metadata.len() > MEDIA_MAX_FILE_SIZE {
        return Err(format!(
            "{raw} is {:.1} MB, over MassGen's media_max_file_size_mb of 64 MB",
            metadata.len() as f64 / (1024.0 * 1024.0)
        ));
    }
    let mut header = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(HEADER).read_to_end(&mut header))
        .map_err(cannot)?;
    if sniff(&header).is_none() {
        return Err(format!(
            "Unsupported file type: {raw} is not an image (PNG, JPEG, GIF, WebP), a PDF or an \
             audio file (WAV, MP3); read text files with your file tools"
        ));
    }
    Attachment::read(path)
        .map_err(cannot)?
        .ok_or_else(|| format!("Unsupported file type: {raw}"))
}

/// The text of the model's answer to `request`, and the call's `Usage` event: the
/// provider's reported usage, else an estimate from the prompt and the text, priced as every
/// model call is.
async fn answer(backend: &dyn Backend, request: ChatRequest) -> Result<(String, EventMsg), String> {
    let started = std::time::Instant::now();
    let prompt_tokens = tokens::count_prompt(&request.messages, &request.tools);
    let mut stream = backend.stream(request);
    let mut turn = TurnBuilder::default();
    while let Some(event) = stream.next().await {
        turn.push(&event.map_err(|error| error.to_string())?);
    }
    let usage = turn
        .reported_usage()
        .unwrap_or_else(|| turn.estimated_usage(prompt_tokens));
    let cost_usd = turn
        .reported_cost()
        .or_else(|| session::estimate(backend.kind(), backend.model(), &usage).usd());
    let text = turn.finish().map_err(|error| error.to_string())?.text;
    if text.trim().is_empty() {
        return Err("the model answered with no text".into());
    }
    let timing = CallTiming {
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        ttft_ms: None,
    };
    let usage = EventMsg::Usage {
        usage,
        cost_usd,
        timing: Some(timing),
    };
    Ok((text, usage))
}
