//! Gemini's built-in tools in a response: `executableCode` / `codeExecutionResult` parts
//! (the code execution tool) and a candidate's `groundingMetadata` (Google Search: the
//! queries run and the pages found), reported as tool cards when the response ends.

use std::collections::VecDeque;

use serde_json::Value;

use crate::backend::StreamEvent;
use crate::protocol::{ProviderToolCall, Source};

#[derive(Default)]
pub(super) struct BuiltinTools {
    /// Code the model ran whose result has not come yet.
    code: Option<String>,
    runs: usize,
    queries: Vec<String>,
    sources: Vec<Source>,
}

impl BuiltinTools {
    /// An `executableCode` part.
    pub(super) fn code(&mut self, part: &Value, out: &mut VecDeque<StreamEvent>) {
        self.flush_code(out);
        let code = part.get("code").and_then(Value::as_str).unwrap_or_default();
        self.code = Some(code.to_string());
    }

    /// A `codeExecutionResult` part: the card for the code before it.
    pub(super) fn result(&mut self, part: &Value, out: &mut VecDeque<StreamEvent>) {
        let outcome = part.get("outcome").and_then(Value::as_str).unwrap_or("");
        let output = part.get("output").and_then(Value::as_str).unwrap_or("");
        let code = self.code.take().unwrap_or_default();
        self.card(
            code,
            output.trim_end().to_string(),
            outcome == "OUTCOME_OK",
            out,
        );
    }

    fn flush_code(&mut self, out: &mut VecDeque<StreamEvent>) {
        if let Some(code) = self.code.take() {
            self.card(code, String::new(), true, out);
        }
    }

    fn card(&mut self, input: String, output: String, ok: bool, out: &mut VecDeque<StreamEvent>) {
        self.runs += 1;
        out.push_back(StreamEvent::ProviderTool(ProviderToolCall {
            call_id: format!("code_execution_{}", self.runs),
            tool: "code_execution".into(),
            input,
            sources: Vec::new(),
            output,
            ok,
        }));
    }

    /// A candidate's `groundingMetadata`; Gemini may repeat it, growing, in later chunks.
    pub(super) fn grounding(&mut self, metadata: &Value) {
        let queries = metadata.get("webSearchQueries").and_then(Value::as_array);
        for query in queries.into_iter().flatten().filter_map(Value::as_str) {
            if !query.trim().is_empty() && !self.queries.iter().any(|known| known == query) {
                self.queries.push(query.to_string());
            }
        }
        let chunks = metadata.get("groundingChunks").and_then(Value::as_array);
        for web in chunks
            .into_iter()
            .flatten()
            .filter_map(|chunk| chunk.get("web"))
        {
            let Some(url) = web.get("uri").and_then(Value::as_str) else {
                continue;
            };
            if !self.sources.iter().any(|known| known.url == url) {
                let title = web.get("title").and_then(Value::as_str).unwrap_or_default();
                self.sources.push(Source {
                    title: title.to_string(),
                    url: url.to_string(),
                });
            }
        }
    }

    /// Searches run, for the bill: one a query (a grounded answer with none listed
    /// counts one).
    pub(super) fn searches(&self) -> u64 {
        match (self.queries.len(), self.sources.is_empty()) {
            (0, true) => 0,
            (0, false) => 1,
            (count, _) => count as u64,
        }
    }

    /// The end of the response: code still without a result, then the search card.
    pub(super) fn flush(&mut self, out: &mut VecDeque<StreamEvent>) {
        self.flush_code(out);
        if self.queries.is_empty() && self.sources.is_empty() {
            return;
        }
        out.push_back(StreamEvent::ProviderTool(ProviderToolCall {
            call_id: "google_search".into(),
            tool: "google_search".into(),
            input: std::mem::take(&mut self.queries).join("\n"),
            sources: std::mem::take(&mut self.sources),
            output: String::new(),
            ok: true,
        }));
    }
}
