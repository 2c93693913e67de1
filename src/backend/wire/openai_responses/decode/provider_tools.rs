//! The provider's own tool calls in a Responses stream: `web_search_call` items (query,
//! sources), xAI's X searches (`x_search_call` items, and the `custom_tool_call` items
//! `x_keyword_search`, `x_semantic_search`, `x_thread_fetch`, … that xAI streams for them,
//! their call ids starting `xs_`) and `code_interpreter_call` items (code, logs), reported
//! as tool cards. A search's card waits for the end of the response so that the pages the
//! answer cites (`url_citation` annotations) join the sources the search item listed.

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
            "x_search_call" => {
                self.x_search(item, &item.arguments);
                true
            }
            "custom_tool_call" if is_x_search_step(item) => {
                self.x_search(item, &item.input);
                true
            }
            _ => false,
        }
    }

    /// One step of an X search: its query, or the post, user or media it fetched.
    fn x_search(&mut self, item: &Item<'_>, arguments: &str) {
        let arguments: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
        let field = |key: &str| {
            arguments
                .get(key)
                .or_else(|| item.action.as_ref().and_then(|action| action.get(key)))
                .and_then(Value::as_str)
                .filter(|value| !value.is_empty())
        };
        let step = if item.name.is_empty() {
            "x_search"
        } else {
            &item.name
        };
        let input = match field("query") {
            Some(query) => query.to_string(),
            None => X_TARGETS
                .into_iter()
                .find_map(field)
                .map_or_else(|| step.to_string(), |target| format!("{step} {target}")),
        };
        self.searches.push(ProviderToolCall {
            call_id: item.id.to_string(),
            tool: "x_search".into(),
            input,
            sources: Vec::new(),
            output: String::new(),
            ok: item.status != "failed" && item.status != "incomplete",
        });
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

/// What an X search step that runs no query names instead (`x_thread_fetch`'s post,
/// `x_user_search`'s user, `view_x_video`'s video).
const X_TARGETS: [&str; 5] = ["post_id", "username", "user", "url", "video_url"];

/// A `custom_tool_call` that xAI ran for `x_search`, as MassGen 0.1.97 recognises one: its
/// call id starts `xs_` or its name `x_`. massgen declares no custom tools of its own, so
/// none of these is for massgen to run.
fn is_x_search_step(item: &Item<'_>) -> bool {
    item.call_id.starts_with("xs_") || item.name.starts_with("x_")
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
