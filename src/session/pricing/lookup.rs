//! Which table rows a model name may mean: the providers a gateway searches and name variants.

use crate::config::providers::litellm::{
    ANTHROPIC, CEREBRAS, DASHSCOPE, DEEPSEEK, FIREWORKS, GEMINI, GROQ, MOONSHOT, NEBIUS, OPENAI,
    OPENROUTER, TOGETHER, VERTEX, XAI, ZAI,
};

/// Every provider in the table: model vendors first, then hosts of open models.
const ALL: [&str; 15] = [
    OPENAI, ANTHROPIC, GEMINI, VERTEX, XAI, DEEPSEEK, ZAI, MOONSHOT, DASHSCOPE, GROQ, CEREBRAS,
    TOGETHER, FIREWORKS, NEBIUS, OPENROUTER,
];

/// Prefixes LiteLLM puts before model names; a user may paste a name with one.
const LITELLM_PREFIXES: [&str; 16] = [
    "openai",
    "anthropic",
    "gemini",
    "vertex_ai",
    "xai",
    "deepseek",
    "zai",
    "moonshot",
    "dashscope",
    "groq",
    "cerebras",
    "together_ai",
    "fireworks_ai",
    "nebius",
    "openrouter",
    "azure",
];

/// The providers a gateway model name is searched in, most likely first.
pub(super) fn gateway_providers(first: &[&'static str], model: &str) -> Vec<&'static str> {
    let vendor = model
        .split_once('/')
        .map(|(vendor, _)| vendor.to_ascii_lowercase());
    let hinted: &[&'static str] = match vendor.as_deref() {
        Some("openai") => &[OPENAI],
        Some("anthropic") => &[ANTHROPIC],
        Some("google" | "gemini") => &[GEMINI, VERTEX],
        Some("x-ai" | "xai") => &[XAI],
        Some("deepseek" | "deepseek-ai") => &[DEEPSEEK],
        Some("z-ai" | "zai" | "zai-org" | "thudm") => &[ZAI],
        Some("moonshotai" | "moonshot") => &[MOONSHOT],
        Some("qwen" | "dashscope") => &[DASHSCOPE],
        Some(_) | None => &[],
    };
    let mut providers: Vec<&'static str> = Vec::with_capacity(ALL.len());
    for provider in first.iter().chain(hinted).chain(ALL.iter()) {
        if !providers.contains(provider) {
            providers.push(provider);
        }
    }
    providers
}

/// Splits an OpenRouter variant suffix off a model name (`deepseek/deepseek-r1:free`).
pub(super) fn split_variant(model: &str) -> (&str, Option<&str>) {
    match model.rsplit_once(':') {
        Some((name, variant)) if !variant.contains('/') && !name.is_empty() => {
            (name, Some(variant))
        }
        Some(_) | None => (model, None),
    }
}

/// Lower-cased names to try for `model`, most faithful first: as given (and without a
/// LiteLLM prefix, and — for gateways — without the `vendor/` part); then with dots and
/// dashes between digits swapped (`claude-sonnet-4.5` ↔ `claude-sonnet-4-5`); then without
/// a date suffix (`-20250929`, `-2024-08-06`), and last without a short `-MMDD` suffix.
pub(super) fn candidates(model: &str, strip_vendor: bool) -> Vec<String> {
    let name = model.trim().to_ascii_lowercase();
    let mut bases = vec![name.clone()];
    if let Some((prefix, rest)) = name.split_once('/')
        && LITELLM_PREFIXES.contains(&prefix)
    {
        bases.push(rest.to_owned());
    }
    if strip_vendor && let Some((_, last)) = name.rsplit_once('/') {
        bases.push(last.to_owned());
    }
    let mut names: Vec<String> = Vec::new();
    let mut push = |candidate: String| {
        if !candidate.is_empty() && !names.contains(&candidate) {
            names.push(candidate);
        }
    };
    let with_swaps = |base: &str| {
        [
            base.to_owned(),
            swap_between_digits(base, '.', '-'),
            swap_between_digits(base, '-', '.'),
        ]
    };
    for base in &bases {
        push(base.clone());
    }
    for base in &bases {
        with_swaps(base).into_iter().for_each(&mut push);
    }
    for base in &bases {
        if let Some(undated) = strip_date_suffix(base) {
            with_swaps(undated).into_iter().for_each(&mut push);
        }
    }
    for base in &bases {
        if let Some(undated) = strip_short_date_suffix(base) {
            with_swaps(undated).into_iter().for_each(&mut push);
        }
    }
    names
}

/// Replaces `from` by `to` wherever it sits between two ASCII digits.
fn swap_between_digits(name: &str, from: char, to: char) -> String {
    let chars: Vec<char> = name.chars().collect();
    let digit_at = |index: Option<usize>| {
        index
            .and_then(|index| chars.get(index))
            .is_some_and(char::is_ascii_digit)
    };
    chars
        .iter()
        .enumerate()
        .map(|(index, &c)| {
            if c == from && digit_at(index.checked_sub(1)) && digit_at(index.checked_add(1)) {
                to
            } else {
                c
            }
        })
        .collect()
}

/// `name` without a trailing release date: `-YYYYMMDD` or `-YYYY-MM-DD` (years 20xx).
pub(super) fn strip_date_suffix(name: &str) -> Option<&str> {
    let digits =
        |text: &str, len: usize| text.len() == len && text.bytes().all(|b| b.is_ascii_digit());
    let (head, tail) = name.rsplit_once('-')?;
    if digits(tail, 8) && tail.starts_with("20") {
        return Some(head).filter(|head| !head.is_empty());
    }
    let (head, month) = head.rsplit_once('-')?;
    let (head, year) = head.rsplit_once('-')?;
    let iso = digits(year, 4) && year.starts_with("20") && digits(month, 2) && digits(tail, 2);
    Some(head).filter(|head| iso && !head.is_empty())
}

/// `name` without a trailing four-digit `-MMDD` snapshot tag (`grok-4-0709`).
fn strip_short_date_suffix(name: &str) -> Option<&str> {
    let (head, tail) = name.rsplit_once('-')?;
    let short = tail.len() == 4 && tail.bytes().all(|b| b.is_ascii_digit());
    Some(head).filter(|head| short && !head.is_empty())
}

#[cfg(test)]
mod tests {
    use super::ALL;
    use crate::config::BackendKind;
    use crate::config::providers::{self, PricingRoute};

    #[test]
    fn every_pricing_route_names_providers_of_the_table() {
        for kind in BackendKind::ALL {
            let named: &[&str] = match providers::row(kind).pricing {
                PricingRoute::Providers(named) => named,
                PricingRoute::Gateway { first, .. } => first,
                PricingRoute::Free | PricingRoute::Unknown => &[],
            };
            for provider in named {
                assert!(ALL.contains(provider), "{kind}: {provider}");
            }
        }
    }
}
