//! Token usage as reported by a provider (or estimated), added up per call, round and turn.
//!
//! Every wire protocol normalises into one shape: `input_tokens` counts the whole prompt,
//! including the parts read from or written to a prompt cache (`cached_input_tokens` and
//! `cache_creation_tokens` are subsets of it); `output_tokens` counts everything generated,
//! including hidden reasoning (`reasoning_tokens` is a subset of it). `estimated` marks
//! figures counted with a tokenizer because the provider reported none (or the stream was
//! cut before it could); a sum is estimated when any part of it is.

use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    #[serde(default)]
    pub reasoning_tokens: u64,
    #[serde(default)]
    pub cached_input_tokens: u64,
    #[serde(default)]
    pub cache_creation_tokens: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub estimated: bool,
    /// Searches the provider's own web-search tool ran, billed per search (or, for
    /// Gemini 2.x, per grounded call) on top of the tokens.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub web_searches: u64,
    /// Steps of xAI's X search (keyword or semantic searches, thread and user look-ups) that
    /// succeeded, billed per call.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub x_searches: u64,
    /// Runs of the provider's own code tool (OpenAI's and xAI's code interpreter,
    /// Anthropic's and Gemini's code execution): xAI bills each call, OpenAI and Anthropic
    /// the container a model call runs them in.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub code_runs: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// Tokens and cost added up over model calls. `cost_usd` counts the calls whose price is
/// known; `cost_unknown` says some call's was not, making `cost_usd` a lower bound.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spend {
    pub usage: Usage,
    pub cost_usd: f64,
    pub cost_unknown: bool,
}

impl Spend {
    /// Adds one call's (or one round's) usage and cost; `None` is an unknown price.
    pub fn add(&mut self, usage: Usage, cost_usd: Option<f64>) {
        self.usage += usage;
        match cost_usd {
            Some(cost) => self.cost_usd += cost,
            None => self.cost_unknown = true,
        }
    }

    /// The cost, or `None` when some part of it has no known price.
    pub fn known_cost(&self) -> Option<f64> {
        (!self.cost_unknown).then_some(self.cost_usd)
    }
}

impl AddAssign for Spend {
    fn add_assign(&mut self, other: Self) {
        self.usage += other.usage;
        self.cost_usd += other.cost_usd;
        self.cost_unknown |= other.cost_unknown;
    }
}

/// How long one model call took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallTiming {
    pub duration_ms: u64,
    /// Until the first streamed text, reasoning or tool call; `None` when nothing streamed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_ms: Option<u64>,
}

impl Usage {
    /// `"estimate"` when counted with a tokenizer, else `"api"` (MassGen's `token_source`).
    pub fn source(&self) -> &'static str {
        if self.estimated { "estimate" } else { "api" }
    }

    pub fn total(&self) -> u64 {
        self.input_tokens + self.output_tokens
    }

    /// Prompt tokens billed at the plain input rate (neither read from nor written to a cache).
    pub fn uncached_input_tokens(&self) -> u64 {
        self.input_tokens
            .saturating_sub(self.cached_input_tokens)
            .saturating_sub(self.cache_creation_tokens)
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, other: Self) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.reasoning_tokens += other.reasoning_tokens;
        self.cached_input_tokens += other.cached_input_tokens;
        self.cache_creation_tokens += other.cache_creation_tokens;
        self.estimated |= other.estimated;
        self.web_searches += other.web_searches;
        self.x_searches += other.x_searches;
        self.code_runs += other.code_runs;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spend_with_an_unknown_price_is_a_lower_bound() {
        let usage = Usage {
            input_tokens: 10,
            output_tokens: 2,
            ..Usage::default()
        };
        let mut spend = Spend::default();
        spend.add(usage, Some(0.5));
        assert_eq!(spend.known_cost(), Some(0.5));
        spend.add(usage, None);
        assert_eq!(spend.known_cost(), None);
        assert_eq!((spend.cost_usd, spend.usage.total()), (0.5, 24));
        let mut total = Spend::default();
        total += spend;
        assert!(total.cost_unknown);
    }
}
