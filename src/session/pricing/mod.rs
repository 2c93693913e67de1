//! Offline model prices (the embedded `assets/pricing.json`) and cost estimates from token usage.
//!
//! The table is LiteLLM's public price list cut down to the providers massgen serves (see
//! `assets/README.md` for its source and how to regenerate it). [`price_for`] finds a model
//! the way MassGen does, trying name variants; [`estimate`] turns a [`Usage`] into dollars.

mod lookup;
mod table;
#[cfg(test)]
mod tests;
mod tools;

use std::fmt;
use std::sync::{Mutex, OnceLock, PoisonError};

use serde::{Deserialize, Serialize};

use crate::config::BackendKind;
use crate::config::providers::PricingRoute;
use crate::protocol::Usage;

pub use table::PricingSource;

/// One model's prices, in USD per million tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelPrice {
    /// Prompt tokens neither read from nor written to a cache.
    pub input_per_mtok: f64,
    /// Generated tokens (reasoning included unless `reasoning_per_mtok` is set).
    pub output_per_mtok: f64,
    /// Prompt tokens read from the cache; `None` = billed at the input rate.
    pub cached_input_per_mtok: Option<f64>,
    /// Prompt tokens written to the cache; `None` = billed at the input rate.
    pub cache_creation_per_mtok: Option<f64>,
    /// Reasoning tokens, only when the provider bills them differently from output.
    pub reasoning_per_mtok: Option<f64>,
    /// Maximum input tokens, when known.
    pub context_window: Option<u64>,
}

/// What the scripted backend (and OpenRouter's `:free` models) cost.
const FREE: ModelPrice = ModelPrice {
    input_per_mtok: 0.0,
    output_per_mtok: 0.0,
    cached_input_per_mtok: None,
    cache_creation_per_mtok: None,
    reasoning_per_mtok: None,
    context_window: None,
};

impl ModelPrice {
    /// The cost in USD of `usage` at these prices. `input_tokens` includes the cached and
    /// cache-creation tokens and `output_tokens` the reasoning tokens (see [`Usage`]).
    pub fn cost(&self, usage: &Usage) -> f64 {
        let at = |tokens: u64, rate: f64| tokens as f64 * rate;
        let input = at(usage.uncached_input_tokens(), self.input_per_mtok)
            + at(
                usage.cached_input_tokens,
                self.cached_input_per_mtok.unwrap_or(self.input_per_mtok),
            )
            + at(
                usage.cache_creation_tokens,
                self.cache_creation_per_mtok.unwrap_or(self.input_per_mtok),
            );
        let output = match self.reasoning_per_mtok {
            Some(reasoning_rate) => {
                let reasoning = usage.reasoning_tokens.min(usage.output_tokens);
                at(reasoning, reasoning_rate)
                    + at(usage.output_tokens - reasoning, self.output_per_mtok)
            }
            None => at(usage.output_tokens, self.output_per_mtok),
        };
        (input + output) / 1_000_000.0
    }
}

/// A cost in USD, or the admission that the model's price is not in the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CostEstimate {
    Usd(f64),
    UnknownPrice,
}

impl CostEstimate {
    /// The amount, if the price was known.
    pub fn usd(self) -> Option<f64> {
        match self {
            Self::Usd(amount) => Some(amount),
            Self::UnknownPrice => None,
        }
    }
}

impl fmt::Display for CostEstimate {
    /// [`format_usd`] for a known cost, `?` for an unknown one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usd(amount) => f.write_str(&format_usd(*amount)),
            Self::UnknownPrice => f.write_str("?"),
        }
    }
}

/// The price of `model` as served by a `provider` backend, or `None` if the table lacks it.
///
/// Tries, in order: the name as given, without a LiteLLM prefix (`gemini/…`), and for
/// gateways (`openrouter`, `chatcompletion`, `poe`, `ag2`) without the `vendor/` part
/// (`openai/gpt-5` → `gpt-5`); then dots ↔ dashes between digits; then without a date
/// suffix. Dated-only models also answer to their undated name (the newest date wins), and
/// Fireworks models to their short name. Case is ignored. `scripted` costs nothing unless
/// it is named after a listed model, and an OpenRouter `:free` model costs nothing; local
/// servers (`lmstudio`, `vllm`, `sglang`) have no known price.
///
/// The table is read only to answer a question not asked before in this process, and is
/// not kept: the answers are (the whole index held 0.2 MB for the one or two models a run
/// uses).
pub fn price_for(provider: BackendKind, model: &str) -> Option<ModelPrice> {
    static FOUND: Mutex<Vec<(BackendKind, String, Option<ModelPrice>)>> = Mutex::new(Vec::new());
    let cached = |found: &Vec<(BackendKind, String, Option<ModelPrice>)>| {
        found
            .iter()
            .find(|(kind, name, _)| *kind == provider && name == model)
            .map(|(_, _, price)| *price)
    };
    let found = || FOUND.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(price) = cached(&found()) {
        return price;
    }
    let price = find(provider, model);
    found().push((provider, model.to_owned(), price));
    price
}

/// [`price_for`], read from the shipped table.
fn find(provider: BackendKind, model: &str) -> Option<ModelPrice> {
    let (providers, strip_vendor, model) = match crate::config::providers::row(provider).pricing {
        // A scripted agent named after a real model is priced like it (to rehearse costs
        // and budgets offline); any other scripted agent is free.
        PricingRoute::Free => {
            return find(BackendKind::Chatcompletion, model).or(Some(FREE));
        }
        PricingRoute::Unknown => return None,
        PricingRoute::Providers(providers) => (providers.to_vec(), false, model),
        PricingRoute::Gateway { first, variants } => {
            let (name, variant) = if variants {
                lookup::split_variant(model)
            } else {
                (model, None)
            };
            if variant.is_some_and(|variant| variant.eq_ignore_ascii_case("free")) {
                return Some(FREE);
            }
            (lookup::gateway_providers(first, name), true, name)
        }
    };
    let names = lookup::candidates(model, strip_vendor);
    // Only the rows these names and providers can match are indexed.
    let table = table::shipped(|provider, name| {
        providers.contains(&provider) && names.iter().any(|wanted| wanted == name)
    });
    names
        .iter()
        .find_map(|name| providers.iter().find_map(|p| table.get(p, name)))
        .copied()
}

/// The cost of one call's `usage` for `model` on a `provider` backend: its tokens, and the
/// tools the provider ran (web and X searches, code runs' containers or calls).
pub fn estimate(provider: BackendKind, model: &str, usage: &Usage) -> CostEstimate {
    match price_for(provider, model) {
        Some(price) => {
            CostEstimate::Usd(price.cost(usage) + tools::tools_cost(provider, model, usage))
        }
        None => CostEstimate::UnknownPrice,
    }
}

/// Where the shipped price table came from; `None` if it failed to parse.
pub fn pricing_source() -> Option<&'static PricingSource> {
    static SOURCE: OnceLock<Option<PricingSource>> = OnceLock::new();
    SOURCE
        .get_or_init(|| table::shipped(|_, _| false).source().cloned())
        .as_ref()
}

/// A USD amount for display: `$0` for zero, `<$0.0001` below a hundredth of a cent, four
/// decimals under a dollar (`$0.0021`), two from a dollar up (`$1.23`, `$1234.50`).
/// Negative amounts get a leading `-`; NaN and infinities show as `$?`.
pub fn format_usd(amount: f64) -> String {
    if !amount.is_finite() {
        return "$?".to_owned();
    }
    if amount < 0.0 {
        return format!("-{}", format_usd(-amount));
    }
    if amount == 0.0 {
        "$0".to_owned()
    } else if amount < 0.0001 {
        "<$0.0001".to_owned()
    } else if amount < 0.99995 {
        format!("${amount:.4}")
    } else {
        format!("${amount:.2}")
    }
}
