//! Anthropic's usage report: `input_tokens` without the cache reads and writes,
//! cumulative counts in `message_delta`, and the server tools' own count.

use serde::Deserialize;

use crate::protocol::Usage;

/// Anthropic's usage: `input_tokens` excludes the cache reads and writes.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub(super) struct WireUsage {
    #[serde(default)]
    input_tokens: Option<u64>,
    #[serde(default)]
    cache_creation_input_tokens: Option<u64>,
    #[serde(default)]
    cache_read_input_tokens: Option<u64>,
    #[serde(default)]
    output_tokens: Option<u64>,
    #[serde(default)]
    server_tool_use: Option<ServerToolUsage>,
}

/// How often the server tools ran (`web_search_requests`), billed per search.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
struct ServerToolUsage {
    #[serde(default)]
    web_search_requests: Option<u64>,
}

impl WireUsage {
    /// Later counts (`message_delta`'s are cumulative) replace earlier ones.
    pub(super) fn update(&mut self, later: &Self) {
        self.input_tokens = later.input_tokens.or(self.input_tokens);
        self.cache_creation_input_tokens = later
            .cache_creation_input_tokens
            .or(self.cache_creation_input_tokens);
        self.cache_read_input_tokens = later
            .cache_read_input_tokens
            .or(self.cache_read_input_tokens);
        self.output_tokens = later.output_tokens.or(self.output_tokens);
        self.server_tool_use = later.server_tool_use.or(self.server_tool_use);
    }

    pub(super) fn normalise(&self) -> Usage {
        let cached = self.cache_read_input_tokens.unwrap_or(0);
        let created = self.cache_creation_input_tokens.unwrap_or(0);
        Usage {
            input_tokens: self.input_tokens.unwrap_or(0) + cached + created,
            output_tokens: self.output_tokens.unwrap_or(0),
            reasoning_tokens: 0,
            cached_input_tokens: cached,
            cache_creation_tokens: created,
            estimated: false,
            web_searches: self
                .server_tool_use
                .and_then(|used| used.web_search_requests)
                .unwrap_or(0),
            x_searches: 0,
            code_runs: 0,
        }
    }
}
