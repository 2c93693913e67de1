//! A tool the model's provider ran on its own servers (web search, code execution): what
//! the stream decoders report, the TUI and plain displays show as a tool card, and
//! events.jsonl records. massgen never runs these calls nor answers them.

use serde::{Deserialize, Serialize};

/// One finished provider-side tool call.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderToolCall {
    /// The provider's id for the call (`ws_…`, `srvtoolu_…`), or one made up when it gave none.
    pub call_id: String,
    /// The provider's name for the tool: `web_search`, `code_interpreter`,
    /// `code_execution`, `bash_code_execution`, `google_search`, ….
    pub tool: String,
    /// What the model asked for: the search queries (one a line) or the code.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub input: String,
    /// Pages the search found or the answer cites.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<Source>,
    /// What the code printed (stdout, then stderr), or the provider's error.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub output: String,
    pub ok: bool,
}

/// A web page a search returned.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    pub url: String,
}

impl ProviderToolCall {
    /// The call as one text: the input, then the output, then one `title — url` line a
    /// source. What a tool card shows when opened, and the plain display prints.
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if !self.output.is_empty() {
            parts.push(self.output.trim_end().to_string());
        }
        if !self.sources.is_empty() {
            let lines: Vec<String> = self
                .sources
                .iter()
                .map(|source| {
                    if source.title.is_empty() {
                        source.url.clone()
                    } else {
                        format!("{} — {}", source.title, source.url)
                    }
                })
                .collect();
            parts.push(lines.join("\n"));
        }
        parts.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_lists_output_then_sources_with_their_links() {
        let call = ProviderToolCall {
            call_id: "ws_1".into(),
            tool: "web_search".into(),
            input: "rust 2024".into(),
            sources: vec![
                Source {
                    title: "Rust Blog".into(),
                    url: "https://blog.rust-lang.org".into(),
                },
                Source {
                    title: String::new(),
                    url: "https://example.com".into(),
                },
            ],
            output: String::new(),
            ok: true,
        };
        assert_eq!(
            call.summary(),
            "Rust Blog — https://blog.rust-lang.org\nhttps://example.com"
        );
        let json = serde_json::to_string(&call).unwrap();
        assert!(!json.contains("output"), "{json}");
        assert_eq!(
            serde_json::from_str::<ProviderToolCall>(&json).unwrap(),
            call
        );
    }
}
