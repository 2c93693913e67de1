//! Which table rows a `(backend type, model name)` pair may mean: provider routes and name variants.

use crate::config::BackendKind;

// LiteLLM provider ids, as in the `provider` field of `assets/pricing.json`.
const OPENAI: &str = "openai";
const ANTHROPIC: &str = "anthropic";
const GEMINI: &str = "gemini";
const VERTEX: &str = "vertex_ai-language-models";
const XAI: &str = "xai";
const DEEPSEEK: &str = "deepseek";
const ZAI: &str = "zai";
const MOONSHOT: &str = "moonshot";
const DASHSCOPE: &str = "dashscope";
const GROQ: &str = "groq";
const CEREBRAS: &str = "cerebras";
const TOGETHER: &str = "together_ai";
const FIREWORKS: &str = "fireworks_ai";
const NEBIUS: &str = "nebius";
const OPENROUTER: &str = "openrouter";

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

/// Where to look up a backend's models.
pub(super) enum Route {
    /// The offline `scripted` backend: no charge, unless it is named after a listed model.
    Free,
    /// Local servers (`lmstudio`, `vllm`, `sglang`): what a model run on your own hardware
    /// costs is not known, so it is reported as unknown, never as $0.
    Unknown,
    /// The backend serves exactly these LiteLLM providers' models (searched in order).
    Providers(&'static [&'static str]),
    /// A gateway or generic endpoint serving anyone's models: search every provider,
    /// `first` ones first, then the vendor named by a `vendor/model` prefix. With
    /// `variants`, a `:suffix` names an OpenRouter variant (`:free` costs nothing).
    Gateway {
        first: &'static [&'static str],
        variants: bool,
    },
}

pub(super) fn route(kind: BackendKind) -> Route {
    match kind {
        BackendKind::Scripted => Route::Free,
        BackendKind::Lmstudio | BackendKind::Vllm | BackendKind::Sglang => Route::Unknown,
        // Azure deployment names are user-chosen; most are named after the OpenAI model.
        BackendKind::Openai | BackendKind::AzureOpenai => Route::Providers(&[OPENAI]),
        BackendKind::Claude | BackendKind::ClaudeCode => Route::Providers(&[ANTHROPIC]),
        BackendKind::Gemini => Route::Providers(&[GEMINI, VERTEX]),
        BackendKind::Grok => Route::Providers(&[XAI]),
        BackendKind::Zai => Route::Providers(&[ZAI]),
        BackendKind::Cerebras => Route::Providers(&[CEREBRAS]),
        BackendKind::Together => Route::Providers(&[TOGETHER]),
        BackendKind::Fireworks => Route::Providers(&[FIREWORKS]),
        BackendKind::Groq => Route::Providers(&[GROQ]),
        BackendKind::Moonshot | BackendKind::Kimi => Route::Providers(&[MOONSHOT]),
        BackendKind::Nebius => Route::Providers(&[NEBIUS]),
        BackendKind::Qwen => Route::Providers(&[DASHSCOPE]),
        BackendKind::Openrouter => Route::Gateway {
            first: &[OPENROUTER],
            variants: true,
        },
        BackendKind::Poe | BackendKind::Chatcompletion | BackendKind::Ag2 => Route::Gateway {
            first: &[],
            variants: false,
        },
    }
}

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
