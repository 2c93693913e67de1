//! Tests of the shipped price table, model lookup, cost math and formatting.

use super::table::{PriceTable, embedded_text};
use super::*;

fn price(kind: BackendKind, model: &str) -> ModelPrice {
    match price_for(kind, model) {
        Some(price) => price,
        None => panic!("no price for {kind} {model}"),
    }
}

/// Asserts input, output, cache-read and cache-write rates and the context window.
fn assert_rates(
    kind: BackendKind,
    model: &str,
    rates: (f64, f64, Option<f64>, Option<f64>),
    context: Option<u64>,
) {
    let found = price(kind, model);
    let (input, output, cached, creation) = rates;
    assert_eq!(found.input_per_mtok, input, "{kind} {model} input");
    assert_eq!(found.output_per_mtok, output, "{kind} {model} output");
    assert_eq!(found.cached_input_per_mtok, cached, "{kind} {model} cached");
    assert_eq!(
        found.cache_creation_per_mtok, creation,
        "{kind} {model} creation"
    );
    assert_eq!(found.context_window, context, "{kind} {model} context");
}

fn usd(estimate: CostEstimate) -> f64 {
    match estimate.usd() {
        Some(amount) => amount,
        None => panic!("price unknown"),
    }
}

fn assert_close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() < 1e-12,
        "{actual} is not {expected}"
    );
}

#[test]
fn the_packed_table_is_assets_pricing_json() {
    assert_eq!(
        embedded_text(),
        include_str!("../../../assets/pricing.json")
    );
}

#[test]
fn the_shipped_table_parses_and_is_sane() {
    let table = PriceTable::parse(&embedded_text()).unwrap();
    assert!((500..3000).contains(&table.len()), "{} models", table.len());
    assert_eq!(table::shipped(|_, _| true).len(), table.len());
    let source = pricing_source().unwrap();
    assert_eq!(source.package, "litellm");
    assert_eq!(
        source.file,
        "litellm/model_prices_and_context_window_backup.json"
    );
    assert!(!source.version.is_empty());
    assert_eq!(source.models, table.len());
    assert_eq!(source.retrieved.len(), 10, "{}", source.retrieved);
}

#[test]
fn a_broken_table_is_empty_not_a_panic() {
    let table = PriceTable::parse_or_empty("{not json", |_, _| true);
    assert_eq!(table.len(), 0);
    assert!(table.source().is_none());
    assert!(table.get("openai", "gpt-5").is_none());
}

#[test]
fn openai_models_resolve_with_their_rates() {
    let gpt5 = (1.25, 10.0, Some(0.125), None);
    assert_rates(BackendKind::Openai, "gpt-5", gpt5, Some(272_000));
    assert_rates(BackendKind::Openai, "GPT-5-2025-08-07", gpt5, Some(272_000));
    let mini = (0.25, 2.0, Some(0.025), None);
    assert_rates(BackendKind::Openai, "gpt-5-mini", mini, Some(272_000));
    assert_rates(BackendKind::AzureOpenai, "gpt-5-mini", mini, Some(272_000));
    let gpt4o = (2.5, 10.0, Some(1.25), None);
    assert_rates(
        BackendKind::Openai,
        "gpt-4o-2024-08-06",
        gpt4o,
        Some(128_000),
    );
}

#[test]
fn claude_models_resolve_under_any_date_or_dot_spelling() {
    let sonnet = (3.0, 15.0, Some(0.3), Some(3.75));
    for name in [
        "claude-sonnet-4-5",
        "claude-sonnet-4.5",
        "claude-sonnet-4-5-20250929",
        "claude-sonnet-4.5-20250929",
    ] {
        assert_rates(BackendKind::Claude, name, sonnet, Some(200_000));
        assert_rates(BackendKind::ClaudeCode, name, sonnet, Some(200_000));
    }
    let opus = (5.0, 25.0, Some(0.5), Some(6.25));
    assert_rates(BackendKind::Claude, "claude-opus-4-5", opus, Some(200_000));
    assert_rates(
        BackendKind::Claude,
        "claude-opus-4.5-20251101",
        opus,
        Some(200_000),
    );
    // Retired models are gone from this LiteLLM list.
    assert_eq!(price_for(BackendKind::Claude, "claude-opus-4-1"), None);
}

#[test]
fn an_undated_name_finds_the_newest_dated_entry() {
    // Only dated entries exist: -2024-12-17 and -2025-06-03 (both 2.5 / 10).
    let audio = (2.5, 10.0, None, None);
    assert_rates(
        BackendKind::Openai,
        "gpt-4o-audio-preview",
        audio,
        Some(128_000),
    );
}

#[test]
fn gemini_and_grok_models_resolve() {
    let flash = (0.3, 2.5, Some(0.03), None);
    assert_rates(
        BackendKind::Gemini,
        "gemini-2.5-flash",
        flash,
        Some(1_048_576),
    );
    assert_rates(
        BackendKind::Gemini,
        "gemini/gemini-2.5-flash",
        flash,
        Some(1_048_576),
    );
    let pro = (1.25, 10.0, Some(0.125), None);
    assert_rates(BackendKind::Gemini, "gemini-2.5-pro", pro, Some(1_048_576));
    // Only in the Vertex list.
    let preview = "gemini-2.5-flash-preview-09-2025";
    assert_rates(BackendKind::Gemini, preview, flash, Some(1_048_576));
    let grok = (1.25, 2.5, Some(0.2), None);
    assert_rates(BackendKind::Grok, "grok-4.3", grok, Some(1_000_000));
    assert_rates(BackendKind::Grok, "xai/grok-4.3", grok, Some(1_000_000));
    // grok-4 itself is no longer in the xAI list.
    assert_eq!(price_for(BackendKind::Grok, "grok-4"), None);
}

#[test]
fn gateways_resolve_vendor_prefixed_names() {
    let sonnet = (3.0, 15.0, Some(0.3), Some(3.75));
    let openrouter = BackendKind::Openrouter;
    assert_rates(
        openrouter,
        "anthropic/claude-sonnet-4.5",
        sonnet,
        Some(200_000),
    );
    let gpt5 = (1.25, 10.0, Some(0.125), None);
    assert_rates(openrouter, "openai/gpt-5", gpt5, Some(272_000));
    assert_rates(
        BackendKind::Chatcompletion,
        "openai/gpt-5",
        gpt5,
        Some(272_000),
    );
    assert_rates(BackendKind::Chatcompletion, "gpt-5", gpt5, Some(272_000));
    let pro = (1.25, 10.0, Some(0.125), None);
    assert_rates(openrouter, "google/gemini-2.5-pro", pro, Some(1_048_576));
    assert_eq!(price(openrouter, "deepseek/deepseek-r1:free"), FREE);
    assert_rates(openrouter, "openai/gpt-5:nitro", gpt5, Some(272_000));
}

#[test]
fn open_model_hosts_resolve() {
    let oss = (0.15, 0.6, Some(0.075), None);
    assert_rates(BackendKind::Groq, "openai/gpt-oss-120b", oss, Some(131_072));
    assert_rates(
        BackendKind::Groq,
        "groq/openai/gpt-oss-120b",
        oss,
        Some(131_072),
    );
    let v3p1 = (0.56, 1.68, None, None);
    let full = "accounts/fireworks/models/deepseek-v3p1";
    assert_rates(BackendKind::Fireworks, full, v3p1, Some(128_000));
    assert_rates(BackendKind::Fireworks, "deepseek-v3p1", v3p1, Some(128_000));
    let kimi = (0.6, 3.0, Some(0.1), None);
    assert_rates(BackendKind::Kimi, "kimi-k2.5", kimi, Some(262_144));
    let turbo = price(BackendKind::Qwen, "qwen-turbo");
    assert_eq!(turbo.reasoning_per_mtok, Some(0.5));
}

#[test]
fn unknown_models_have_no_price() {
    assert_eq!(price_for(BackendKind::Openai, "gpt-nonexistent-9"), None);
    assert_eq!(price_for(BackendKind::Openai, ""), None);
    let usage = Usage {
        input_tokens: 10,
        output_tokens: 10,
        ..Usage::default()
    };
    let estimate = estimate(BackendKind::Claude, "gpt-5", &usage);
    assert_eq!(estimate, CostEstimate::UnknownPrice);
    assert_eq!(estimate.to_string(), "?");
}

#[test]
fn scripted_costs_nothing_and_local_servers_have_no_known_price() {
    let usage = Usage {
        input_tokens: 1_000_000,
        output_tokens: 1_000_000,
        ..Usage::default()
    };
    assert_eq!(
        estimate(BackendKind::Scripted, "anything-at-all", &usage),
        CostEstimate::Usd(0.0)
    );
    assert_eq!(
        estimate(BackendKind::Scripted, "gpt-4o-mini", &usage),
        estimate(BackendKind::Openai, "gpt-4o-mini", &usage),
        "a scripted agent named after a listed model costs what it would"
    );
    for kind in [
        BackendKind::Lmstudio,
        BackendKind::Vllm,
        BackendKind::Sglang,
    ] {
        assert_eq!(
            estimate(kind, "gpt-5", &usage),
            CostEstimate::UnknownPrice,
            "{kind}"
        );
    }
    // Every backend type can be asked without panicking.
    for kind in BackendKind::ALL {
        let _ = estimate(kind, "gpt-5", &usage);
    }
}

#[test]
fn cost_bills_cached_creation_and_plain_input_separately() {
    let usage = Usage {
        input_tokens: 10_000,
        output_tokens: 1_000,
        reasoning_tokens: 400,
        cached_input_tokens: 6_000,
        cache_creation_tokens: 2_000,
        estimated: false,
        web_searches: 2,
        x_searches: 0,
        code_runs: 0,
    };
    // 2000 × 3 + 6000 × 0.3 + 2000 × 3.75 + 1000 × 15 = 30 300 per million, plus two
    // web searches at $10 per 1,000.
    let cost = usd(estimate(BackendKind::Claude, "claude-sonnet-4-5", &usage));
    assert_close(cost, 0.0303 + 0.02);
}

#[test]
fn cost_bills_reasoning_at_its_own_rate_when_there_is_one() {
    let usage = Usage {
        input_tokens: 10_000,
        output_tokens: 2_000,
        reasoning_tokens: 1_500,
        cached_input_tokens: 4_000,
        cache_creation_tokens: 0,
        estimated: false,
        web_searches: 0,
        x_searches: 0,
        code_runs: 0,
    };
    // qwen-turbo: 0.05 in (no cache rate: cached at 0.05), 0.2 out, 0.5 reasoning.
    // 10 000 × 0.05 + 1500 × 0.5 + 500 × 0.2 = 1350 per million.
    let cost = usd(estimate(BackendKind::Qwen, "qwen-turbo", &usage));
    assert_close(cost, 0.001_35);
}

#[test]
fn cost_falls_back_to_the_input_rate_and_clamps_odd_usage() {
    let price = ModelPrice {
        input_per_mtok: 2.0,
        output_per_mtok: 8.0,
        cached_input_per_mtok: None,
        cache_creation_per_mtok: None,
        reasoning_per_mtok: Some(10.0),
        context_window: None,
    };
    let usage = Usage {
        input_tokens: 1_000,
        output_tokens: 100,
        reasoning_tokens: 300,
        cached_input_tokens: 600,
        cache_creation_tokens: 400,
        estimated: false,
        web_searches: 0,
        x_searches: 0,
        code_runs: 0,
    };
    // Input: 0 uncached + 600 × 2 + 400 × 2; reasoning clamped to the 100 output tokens.
    assert_close(price.cost(&usage), (2_000.0 + 100.0 * 10.0) / 1e6);
    assert_eq!(FREE.cost(&usage), 0.0);
}

#[test]
fn usd_formatting() {
    assert_eq!(format_usd(0.0), "$0");
    assert_eq!(format_usd(-0.0), "$0");
    assert_eq!(format_usd(0.000_04), "<$0.0001");
    assert_eq!(format_usd(0.0001), "$0.0001");
    assert_eq!(format_usd(0.0021), "$0.0021");
    assert_eq!(format_usd(0.123_46), "$0.1235");
    assert_eq!(format_usd(0.999_99), "$1.00");
    assert_eq!(format_usd(1.234), "$1.23");
    assert_eq!(format_usd(1234.5), "$1234.50");
    assert_eq!(format_usd(-0.5), "-$0.5000");
    assert_eq!(format_usd(f64::NAN), "$?");
    assert_eq!(CostEstimate::Usd(0.0303).to_string(), "$0.0303");
}

#[test]
fn cost_estimates_serialise_readably() {
    let known = serde_json::to_string(&CostEstimate::Usd(0.5)).unwrap();
    assert_eq!(known, r#"{"usd":0.5}"#);
    let unknown = serde_json::to_string(&CostEstimate::UnknownPrice).unwrap();
    assert_eq!(unknown, r#""unknown_price""#);
}

#[test]
fn aliases_prefer_the_newest_date_and_never_shadow_an_entry() {
    let text = r#"{"header": {"source": {"package": "litellm", "version": "0", "file": "f"},
        "retrieved": "2026-01-01", "units": {}, "models": 5},
      "models": [
        {"provider": "p", "model": "m-20240101", "in": 1, "out": 1},
        {"provider": "p", "model": "m-2025-06-30", "in": 2, "out": 2},
        {"provider": "p", "model": "m-20250601", "in": 5, "out": 5},
        {"provider": "p", "model": "n", "in": 3, "out": 3},
        {"provider": "p", "model": "n-20990101", "in": 4, "out": 4}
      ]}"#;
    let table = PriceTable::parse(text).unwrap();
    assert_eq!(table.len(), 5);
    let input = |model: &str| table.get("p", model).map(|price| price.input_per_mtok);
    assert_eq!(input("m"), Some(2.0));
    assert_eq!(input("n"), Some(3.0));
    assert_eq!(input("m-20240101"), Some(1.0));
}

#[test]
fn name_variants() {
    use super::lookup::{candidates, strip_date_suffix};
    assert_eq!(
        strip_date_suffix("claude-sonnet-4-5-20250929"),
        Some("claude-sonnet-4-5")
    );
    assert_eq!(strip_date_suffix("gpt-4o-2024-08-06"), Some("gpt-4o"));
    assert_eq!(strip_date_suffix("gpt-4o"), None);
    assert_eq!(strip_date_suffix("llama-3-3-70b"), None);
    assert_eq!(strip_date_suffix("-20250101"), None);
    let names = candidates("Anthropic/Claude-Sonnet-4.5-20250929", true);
    assert_eq!(names[0], "anthropic/claude-sonnet-4.5-20250929");
    assert!(names.contains(&"claude-sonnet-4-5-20250929".to_owned()));
    assert!(names.contains(&"claude-sonnet-4-5".to_owned()));
    let exact = names.iter().position(|n| n == "claude-sonnet-4-5-20250929");
    let undated = names.iter().position(|n| n == "claude-sonnet-4-5");
    assert!(exact < undated, "{names:?}");
    // Provider-specific backends keep the vendor part (it is part of the model name).
    assert!(!candidates("meta-llama/llama-3", false).contains(&"llama-3".to_owned()));
}

#[test]
fn an_index_of_a_few_names_prices_them_as_the_whole_index_does() {
    let text = embedded_text();
    let whole = PriceTable::parse(&text).unwrap();
    let mut checked = 0;
    for (provider, name) in whole.keys().into_iter().step_by(23) {
        let few = PriceTable::parse_for(&text, |p, n| p == provider && n == name).unwrap();
        assert_eq!(
            few.get(&provider, &name),
            whole.get(&provider, &name),
            "{provider} {name}"
        );
        checked += 1;
    }
    assert!(checked > 30, "{checked}");
}
