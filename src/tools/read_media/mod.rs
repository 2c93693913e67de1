//! MassGen's `read_media` (`enable_multimodal_tools`): the agent names images, PDFs or
//! audio files it may read, and its own model is asked about them in a one-off call; the
//! model's text comes back as the tool result, in MassGen's result shape.

mod ask;
mod request;

use std::sync::Arc;

use futures::StreamExt as _;
use serde_json::{Value, json};

use crate::backend::{Backend, ToolSpec};
use crate::config::provider_options::Api;
use crate::protocol::EventMsg;
use crate::tools::{PathPolicy, Refusal, ToolOutcome};
use ask::{Analysis, Loaded};
use request::MediaInput;

/// The tool's name, as MassGen offers it.
pub const READ_MEDIA: &str = "read_media";

/// One agent's `read_media`: its paths and the backend that answers.
pub struct ReadMedia {
    backend: Arc<dyn Backend>,
    api: Option<Api>,
    policy: Arc<PathPolicy>,
}

impl ReadMedia {
    pub fn new(backend: Arc<dyn Backend>, policy: Arc<PathPolicy>) -> Self {
        let api = Api::of(backend.kind());
        Self {
            backend,
            api,
            policy,
        }
    }

    pub fn spec() -> ToolSpec {
        ToolSpec {
            name: READ_MEDIA.into(),
            description: "Read and analyze media files (images, PDFs, audio) from your \
                          workspace or the paths you may read: the files are sent to a model \
                          that can see them, with your prompt, and its analysis comes back as \
                          text. The model reviews critically by default; be specific about \
                          what to evaluate. Several files in one input are sent together \
                          (compare them by name in the prompt); several inputs are analyzed \
                          separately."
                .into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "inputs": {
                        "type": "array",
                        "description": "What to analyze: each input's `files` maps names to \
                                        paths, e.g. [{\"files\": {\"before\": \"v1.png\", \
                                        \"after\": \"v2.png\"}, \"prompt\": \"Compare\"}]",
                        "items": {
                            "type": "object",
                            "properties": {
                                "files": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string"},
                                },
                                "prompt": {"type": "string"},
                            },
                            "required": ["files"],
                        },
                    },
                    "prompt": {
                        "type": "string",
                        "description": "The question about the media, for inputs without \
                                        their own prompt",
                    },
                    "max_concurrent": {
                        "type": "integer",
                        "description": "How many inputs are analyzed at once (default 4)",
                    },
                },
                "required": ["inputs"],
            }),
        }
    }

    /// Runs one call: the outcome, the path refused if one was, and the `Usage` events of
    /// the model calls that answered.
    pub async fn call(&self, arguments: &str) -> MediaCall {
        let request = match request::parse(arguments) {
            Ok(request) => request,
            Err(error) => return MediaCall::failed(failure(&error), None),
        };
        if let [only] = request.inputs.as_slice() {
            return match analyze(self.asker(), only.clone()).await {
                Ok(analysis) => MediaCall {
                    outcome: success(analysis.result()),
                    refusal: None,
                    usage: vec![analysis.usage],
                },
                Err((error, refusal)) => MediaCall::failed(failure(&error), refusal),
            };
        }
        let total = request.inputs.len();
        let results: Vec<(Value, Option<Refusal>, Option<EventMsg>)> =
            futures::stream::iter(request.inputs.into_iter().enumerate())
                .map(|(index, input)| {
                    let asker = self.asker();
                    async move {
                        match analyze(asker, input).await {
                            Ok(analysis) => {
                                let mut result = analysis.result();
                                result["input_index"] = json!(index);
                                (result, None, Some(analysis.usage))
                            }
                            Err((error, refusal)) => (
                                json!({"input_index": index, "success": false, "error": error}),
                                refusal,
                                None,
                            ),
                        }
                    }
                })
                .buffered(request.concurrency)
                .collect()
                .await;
        let succeeded = results
            .iter()
            .filter(|(result, _, _)| result["success"] == json!(true))
            .count();
        let refusal = results.iter().find_map(|(_, refusal, _)| refusal.clone());
        let mut usage = Vec::new();
        let results: Vec<Value> = results
            .into_iter()
            .map(|(result, _, spent)| {
                usage.extend(spent);
                result
            })
            .collect();
        let body = json!({
            "success": succeeded > 0,
            "operation": READ_MEDIA,
            "batch": true,
            "total": total,
            "succeeded": succeeded,
            "failed": total - succeeded,
            "results": results,
        });
        MediaCall {
            outcome: outcome(succeeded > 0, &body),
            refusal,
            usage,
        }
    }

    fn asker(&self) -> Asker {
        (
            Arc::clone(&self.backend),
            self.api,
            Arc::clone(&self.policy),
        )
    }
}

/// What one `read_media` call did.
pub struct MediaCall {
    pub outcome: ToolOutcome,
    /// The path refused, if one was.
    pub refusal: Option<Refusal>,
    /// The `Usage` event of each model call that answered.
    pub usage: Vec<EventMsg>,
}

impl MediaCall {
    fn failed(outcome: ToolOutcome, refusal: Option<Refusal>) -> Self {
        Self {
            outcome,
            refusal,
            usage: Vec::new(),
        }
    }
}

/// What one analysis needs, owned so that inputs run at once.
type Asker = (Arc<dyn Backend>, Option<Api>, Arc<PathPolicy>);

async fn analyze(
    (backend, api, policy): Asker,
    input: MediaInput,
) -> Result<Analysis, (String, Option<Refusal>)> {
    let loaded = Loaded::load(&policy, &input, api)?;
    let task_context = ask::task_context(policy.workspace()).await;
    loaded
        .ask(backend.as_ref(), input.prompt, task_context.as_deref())
        .await
        .map_err(|error| (error, None))
}

fn success(body: Value) -> ToolOutcome {
    outcome(true, &body)
}

fn failure(error: &str) -> ToolOutcome {
    let body = json!({"success": false, "operation": READ_MEDIA, "error": error});
    outcome(false, &body)
}

fn outcome(ok: bool, body: &Value) -> ToolOutcome {
    ToolOutcome {
        ok,
        output: serde_json::to_string_pretty(body).unwrap_or_default(),
    }
}
