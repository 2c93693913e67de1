//! What the providers' own tools cost on top of the tokens, per use as each publishes it
//! (what they return, read as prompt, is already in the token counts): web searches, xAI's
//! X searches, and the code tools' calls or containers. Free allowances (Gemini's daily
//! grounded prompts, Anthropic's monthly container hours) are not subtracted: the estimate
//! is an upper bound for them.

use crate::config::BackendKind;
use crate::config::providers::{self, ToolBiller as Biller};
use crate::protocol::Usage;

/// Who bills `provider`'s server-side tools, from its row in the provider table; no other
/// backend type runs any.
fn biller(provider: BackendKind) -> Option<Biller> {
    providers::row(provider).tool_biller
}

/// USD for the provider-run tools of one call's `usage` on a `provider` backend.
pub fn tools_cost(provider: BackendKind, model: &str, usage: &Usage) -> f64 {
    web_search_cost(provider, model, usage.web_searches)
        + x_search_cost(provider, usage.x_searches)
        + code_cost(provider, usage.code_runs)
}

/// USD for one model call that ran the provider's code tool `runs` times. massgen names no
/// container, so each call that runs code gets a container of its own.
pub fn code_cost(provider: BackendKind, runs: u64) -> f64 {
    if runs == 0 {
        return 0.0;
    }
    match biller(provider) {
        // OpenAI's code interpreter: $0.03 per 1 GB container (the `container: {type: auto}`
        // default) for a session of up to 20 minutes (openai.com/api/pricing, "Containers";
        // since 2 June 2026 billed per minute with a 5-minute minimum, so $0.03 is the most
        // a call's session costs).
        Some(Biller::OpenAi) => 0.03,
        // Anthropic's code execution: $0.05 per container-hour, at least 5 minutes per
        // container (docs.claude.com, "Code execution tool: Usage and pricing"; free only
        // beside the 2026 web search and fetch tools, which massgen does not send). How long
        // a container ran is not reported, so each call is billed its 5-minute minimum.
        Some(Biller::Anthropic) => 0.05 * 5.0 / 60.0,
        // xAI: "Code Execution — $5 / 1k calls" (docs.x.ai/developers/pricing).
        Some(Biller::Xai) => runs as f64 * 0.005,
        // Gemini: code execution has no charge beyond its tokens (ai.google.dev, "Code
        // execution: Billing"). The others have no code tool (the config refuses it).
        Some(Biller::Google) | None => 0.0,
    }
}

/// USD for `searches` X search calls. xAI: "X Search — $5 / 1k calls", billed per
/// successful call (docs.x.ai/developers/pricing, Tools Pricing); no other provider has it.
pub fn x_search_cost(provider: BackendKind, searches: u64) -> f64 {
    match biller(provider) {
        Some(Biller::Xai) => searches as f64 * 0.005,
        Some(Biller::OpenAi | Biller::Anthropic | Biller::Google) | None => 0.0,
    }
}

/// USD for `searches` web searches run by `provider` for `model` in one call.
pub fn web_search_cost(provider: BackendKind, model: &str, searches: u64) -> f64 {
    if searches == 0 {
        return 0.0;
    }
    let count = searches as f64;
    match biller(provider) {
        // Anthropic: $10 per 1,000 searches.
        Some(Biller::Anthropic) => count * 0.010,
        // OpenAI's `web_search` tool: $10 per 1,000 calls.
        Some(Biller::OpenAi) => count * 0.010,
        // Gemini 3: $14 per 1,000 search queries; Gemini 2.x: $35 per 1,000 grounded
        // prompts, whatever the number of queries in one.
        Some(Biller::Google) => {
            if model.to_ascii_lowercase().contains("gemini-3") {
                count * 0.014
            } else {
                0.035
            }
        }
        // xAI's server-side `web_search` tool: $5 per 1,000 calls.
        Some(Biller::Xai) => count * 0.005,
        None => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::pricing::{CostEstimate, estimate};

    #[test]
    fn searches_are_priced_as_each_provider_publishes() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(
            web_search_cost(BackendKind::Claude, "claude-sonnet-4-5", 3),
            0.03
        ));
        assert!(close(
            web_search_cost(BackendKind::Openai, "gpt-5", 2),
            0.02
        ));
        assert!(close(
            web_search_cost(BackendKind::Gemini, "gemini-2.5-flash", 4),
            0.035
        ));
        assert!(close(
            web_search_cost(BackendKind::Gemini, "gemini-3-pro-preview", 2),
            0.028
        ));
        assert!(close(web_search_cost(BackendKind::Grok, "grok-4", 2), 0.01));
        assert!(close(
            web_search_cost(BackendKind::Claude, "claude-sonnet-4-5", 0),
            0.0
        ));
    }

    #[test]
    fn x_searches_are_priced_for_grok_and_added_to_web_searches() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        let usage = Usage {
            web_searches: 1,
            x_searches: 3,
            ..Usage::default()
        };
        // $5 per 1,000 calls each.
        assert!(close(tools_cost(BackendKind::Grok, "grok-4", &usage), 0.02));
        assert!(close(x_search_cost(BackendKind::Openai, 3), 0.0));
    }

    #[test]
    fn code_runs_are_priced_per_container_or_per_call_as_each_provider_bills_them() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        // One container per call, however many runs: $0.03 (OpenAI), 5 minutes at
        // $0.05 an hour (Anthropic).
        for runs in [1, 4] {
            assert!(close(code_cost(BackendKind::Openai, runs), 0.03));
            assert!(close(code_cost(BackendKind::Claude, runs), 0.05 / 12.0));
        }
        // xAI: $5 per 1,000 calls; Gemini: tokens only.
        assert!(close(code_cost(BackendKind::Grok, 4), 0.02));
        assert!(close(code_cost(BackendKind::Gemini, 4), 0.0));
        assert!(close(code_cost(BackendKind::Openai, 0), 0.0));
        let usage = Usage {
            web_searches: 2,
            x_searches: 1,
            code_runs: 3,
            ..Usage::default()
        };
        assert!(close(
            tools_cost(BackendKind::Grok, "grok-4", &usage),
            0.01 + 0.005 + 0.015
        ));
    }

    fn usd(estimate: CostEstimate) -> f64 {
        estimate.usd().unwrap_or_else(|| panic!("price unknown"))
    }

    fn assert_close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
    }

    #[test]
    fn a_grok_calls_cost_adds_its_x_searches() {
        let tokens = Usage {
            input_tokens: 1_000,
            output_tokens: 100,
            ..Usage::default()
        };
        let searched = Usage {
            x_searches: 2,
            ..tokens
        };
        let plain = usd(estimate(BackendKind::Grok, "grok-4.20", &tokens));
        // Two X search calls at $5 per 1,000.
        assert_close(
            usd(estimate(BackendKind::Grok, "grok-4.20", &searched)),
            plain + 0.01,
        );
    }

    #[test]
    fn a_call_that_ran_code_costs_its_container_too() {
        let tokens = Usage {
            input_tokens: 1_000,
            output_tokens: 100,
            ..Usage::default()
        };
        let ran = Usage {
            code_runs: 2,
            ..tokens
        };
        let plain = usd(estimate(BackendKind::Openai, "gpt-5", &tokens));
        assert_close(
            usd(estimate(BackendKind::Openai, "gpt-5", &ran)),
            plain + 0.03,
        );
        let plain = usd(estimate(BackendKind::Claude, "claude-sonnet-4-5", &tokens));
        assert_close(
            usd(estimate(BackendKind::Claude, "claude-sonnet-4-5", &ran)),
            plain + 0.05 / 12.0,
        );
    }
}
