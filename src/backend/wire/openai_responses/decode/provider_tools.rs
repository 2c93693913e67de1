//! The provider's own tool calls in a Responses stream: `web_search_call` items (query,
//! sources) and `code_interpreter_call` items (code, logs), reported as tool cards. A
//! search's card waits for the end of the response so that the pages the answer cites
//! (`url_citation` annotations) join the sources the search item listed.

use std::collections::VecDeque;

use serde_json::Value;

use super::events::Item;
use crate::backend::StreamEvent;
use crate::protocol::{ProviderToolCall, Source};

#[derive(Default)]
pub(super) struct ProviderTools {
    searches: Vec<ProviderToolCall>,
    citations: Vec<Source>,
    /// Searches run, for the bill.
    pub(super) search_count: u64,
}

impl ProviderTools {
    /// A finished output item; `false` when it is not one of the provider's tools.
    pub(super) fn item(&mut self, item: &Item<'_>, out: &mut VecDeque<StreamEvent>) -> bool {
        match item.kind.as_ref() {
            "web_search_call" => {
                self.search(item);
                true
            }
            "code_interpreter_call" => {
                out.push_back(StreamEvent::ProviderTool(code(item)));
                true
            }
            _ => false,
        }
    }

    fn search(&mut self, item: &Item<'_>) {
        let action = item.action.as_ref();
        let field = |key: &str| action.and_then(|action| action.get(key));
        let kind = field("type").and_then(Value::as_str).unwrap_or("search");
        let mut queries: Vec<String> = field("queries")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        if let Some(query) = field("query").and_then(Value::as_str)
            && !queries.iter().any(|known| known == query)
        {
            queries.insert(0, query.to_string());
        }
        if queries.is_empty()
            && let Some(url) = field("url").and_then(Value::as_str)
        {
            // `open_page` / `find_in_page`: the page is what was asked for.
            queries.push(format!("{kind} {url}"));
        }
        if kind == "search" {
            self.search_count += 1;
        }
        let sources = field("sources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(source)
            .collect();
        self.searches.push(ProviderToolCall {
            call_id: item.id.to_string(),
            tool: "web_search".into(),
            input: queries.join("\n"),
            sources,
            output: String::new(),
            ok: item.status != "failed",
        });
    }

    /// A finished `message` item: the pages its text cites.
    pub(super) fn message(&mut self, item: &Item<'_>) {
        let annotations = item
            .content
            .iter()
            .flatten()
            .filter_map(|part| part.annotations.as_ref())
            .flatten();
        for annotation in annotations {
            let cited = annotation.get("url_citation").unwrap_or(annotation);
            if annotation.get("type").and_then(Value::as_str) == Some("url_citation")
                && let Some(found) = source(cited)
                && !self.citations.iter().any(|known| known.url == found.url)
            {
                self.citations.push(found);
            }
        }
    }

    /// The end of the response: the search cards, the cited pages added to the last one.
    pub(super) fn flush(&mut self, out: &mut VecDeque<StreamEvent>) {
        let citations = std::mem::take(&mut self.citations);
        if let Some(last) = self.searches.last_mut() {
            for cited in citations {
                if !last.sources.iter().any(|known| known.url == cited.url) {
                    last.sources.push(cited);
                }
            }
        }
        for call in self.searches.drain(..) {
            out.push_back(StreamEvent::ProviderTool(call));
        }
    }
}

/// `{"url": …, "title": …}` (a source or a citation), if it has a URL.
fn source(value: &Value) -> Option<Source> {
    let url = value.get("url").and_then(Value::as_str)?;
    Some(Source {
        title: value
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        url: url.to_string(),
    })
}

fn code(item: &Item<'_>) -> ProviderToolCall {
    let outputs = item.outputs.as_ref().and_then(Value::as_array);
    let mut printed: Vec<String> = Vec::new();
    for output in outputs.into_iter().flatten() {
        match output.get("type").and_then(Value::as_str) {
            Some("logs") => {
                if let Some(logs) = output.get("logs").and_then(Value::as_str) {
                    printed.push(logs.trim_end().to_string());
                }
            }
            Some("image") => {
                let url = output.get("url").and_then(Value::as_str).unwrap_or("");
                printed.push(format!("[image] {url}"));
            }
            Some(_) | None => {}
        }
    }
    ProviderToolCall {
        call_id: item.id.to_string(),
        tool: "code_interpreter".into(),
        input: item.code.to_string(),
        sources: Vec::new(),
        output: printed.join("\n"),
        ok: item.status != "failed" && item.status != "incomplete",
    }
}
