//! An agent's context window during a round: its size (the backend's `context_window`,
//! else the model table's, else MassGen's 128 000), how full the latest call left it
//! (reported as `ContextUsage`; the scripted stand-in has no window unless its config sets
//! one), and the round's messages compressed past MassGen's 75 %
//! threshold or once after a provider's context-length error, then with the model's summary
//! of what it took out (reported as `ContextCompressed`).

use std::sync::Arc;

use super::channel::AgentSink;
use super::context_summary;
use super::model_call::ModelLink;
use crate::backend::compression::{self, Keep, Replacement};
use crate::backend::{Message, ReasoningBlock, ToolSpec, tokens};
use crate::config::{BackendConfig, BackendKind};
use crate::protocol::{CompressionReason, EventMsg, Usage};
use crate::session;

/// MassGen's `ContextWindowMonitor` default: compress once the prompt fills 75 % of the
/// window.
pub const TRIGGER_THRESHOLD: f64 = 0.75;
/// MassGen's fallback when the model's window is unknown.
pub const DEFAULT_WINDOW: u64 = 128_000;
/// MassGen's room kept for the reply (at most a quarter of a small window).
const OUTPUT_RESERVE: u64 = 4096;

/// One agent's window and how much of it to keep when compressing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContextBudget {
    pub window: u64,
    /// `coordination.compression_target_ratio`.
    pub target_ratio: f64,
}

impl ContextBudget {
    /// `None` for the scripted stand-in unless its config sets a window: it has none.
    pub fn for_backend(config: &BackendConfig, target_ratio: f64) -> Option<Self> {
        if config.kind == BackendKind::Scripted && config.context_window.is_none() {
            return None;
        }
        let window = config
            .context_window
            .or_else(|| session::price_for(config.kind, &config.model)?.context_window)
            .filter(|window| *window > 0)
            .unwrap_or(DEFAULT_WINDOW);
        Some(Self {
            window,
            target_ratio,
        })
    }

    /// Tokens past which the conversation is compressed before the next call.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    fn trigger(&self) -> u64 {
        (self.window as f64 * TRIGGER_THRESHOLD) as u64
    }

    /// Tokens the recent messages may fill after compression past the threshold.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    fn target(&self) -> u64 {
        (self.window as f64 * self.target_ratio) as u64
    }

    /// Which recent messages stay: those within the target past the threshold, the
    /// target's share of them after a provider's error (MassGen's recovery).
    fn keep(&self, reason: CompressionReason) -> Keep {
        match reason {
            CompressionReason::Threshold => Keep::Tokens(self.target()),
            CompressionReason::ProviderError => Keep::Share(self.target_ratio),
        }
    }

    /// What a prompt may hold at most (MassGen's `_ensure_fits_context`: the window less the
    /// reply's room and a tenth for tokenizers counting differently).
    fn fit(&self) -> u64 {
        self.window
            .saturating_sub(OUTPUT_RESERVE.min(self.window / 4))
            .saturating_sub(self.window / 10)
    }
}

/// The context of one agent's round: its budget and the provider's count of the latest
/// prompt, a floor for the next one (messages only grow between compressions).
#[derive(Clone, Debug, PartialEq)]
pub struct ContextTracker {
    /// `None`: the model has no window to track (the scripted stand-in).
    budget: Option<ContextBudget>,
    last_prompt_tokens: u64,
}

impl ContextTracker {
    pub fn new(budget: Option<ContextBudget>) -> Self {
        Self {
            budget,
            last_prompt_tokens: 0,
        }
    }

    /// Reports how full the latest call left the window.
    pub fn after_call(&mut self, sink: &AgentSink, usage: &Usage) {
        let Some(budget) = self.budget else {
            return;
        };
        if usage.input_tokens == 0 {
            return;
        }
        self.last_prompt_tokens = usage.input_tokens;
        sink.event(EventMsg::ContextUsage {
            tokens: usage.input_tokens,
            window: budget.window,
        });
    }

    /// Compresses the messages when the next prompt would fill the window past the
    /// threshold. The tokenizer is only asked when the prompt's bytes (a token is at least
    /// a byte) or the last count could be past it.
    pub fn before_call(
        &mut self,
        sink: &AgentSink,
        messages: &mut Arc<Vec<Message>>,
        tools: &[ToolSpec],
    ) {
        let Some(budget) = self.budget else {
            return;
        };
        let trigger = budget.trigger();
        if self.last_prompt_tokens < trigger && byte_bound(messages, tools) < trigger {
            return;
        }
        let used = tokens::count_prompt(messages, tools).max(self.last_prompt_tokens);
        if used < trigger {
            return;
        }
        self.compress(
            sink,
            messages,
            tools,
            used,
            CompressionReason::Threshold,
            Replacement::Transcript,
        );
    }

    /// After the provider refused the prompt as too long: compresses it as MassGen's
    /// recovery does, keeping `compression_target_ratio` of the messages and putting the
    /// model's summary of the others in their place (their transcript when it wrote none,
    /// with a warning why). Whether there was anything to compress (else retrying is
    /// pointless).
    pub async fn recover(
        &mut self,
        model: &ModelLink,
        messages: &mut Arc<Vec<Message>>,
        tools: &[ToolSpec],
    ) -> bool {
        let Some(budget) = self.budget else {
            return false;
        };
        let used = tokens::count_prompt(messages, tools);
        let keep = budget.keep(CompressionReason::ProviderError);
        let removed = compression::removed(messages, keep);
        let summary = if removed.is_empty() {
            None
        } else {
            match context_summary::summarize(model, removed, budget.window).await {
                Ok(summary) => Some(summary),
                Err(why) => {
                    model.sink.event(EventMsg::Warning {
                        message: format!(
                            "the model's summary for recovering the context failed ({why}); \
                             the transcript of the removed messages is used instead"
                        ),
                    });
                    None
                }
            }
        };
        let replacement = summary
            .as_deref()
            .map_or(Replacement::Transcript, Replacement::Summary);
        self.compress(
            &model.sink,
            messages,
            tools,
            used,
            CompressionReason::ProviderError,
            replacement,
        )
    }

    fn compress(
        &mut self,
        sink: &AgentSink,
        messages: &mut Arc<Vec<Message>>,
        tools: &[ToolSpec],
        tokens_before: u64,
        reason: CompressionReason,
        replacement: Replacement<'_>,
    ) -> bool {
        let Some(budget) = self.budget else {
            return false;
        };
        let in_tools = tokens::count_prompt(&[], tools);
        let fit = budget.fit().saturating_sub(in_tools);
        let keep = budget.keep(reason);
        let Some(compressed) = compression::compress_replacing(messages, keep, fit, replacement)
        else {
            return false;
        };
        *messages = Arc::new(compressed.messages);
        self.last_prompt_tokens = 0;
        sink.event(EventMsg::ContextCompressed {
            reason,
            tokens_before,
            tokens_after: tokens::count_prompt(messages, tools),
            window: budget.window,
            messages_removed: u32::try_from(compressed.removed).unwrap_or(u32::MAX),
            summarized: matches!(replacement, Replacement::Summary(_)) && compressed.removed > 0,
        });
        true
    }
}

/// An upper bound of a prompt's tokens without the tokenizer: its bytes, and each
/// message's overhead.
fn byte_bound(messages: &[Message], tools: &[ToolSpec]) -> u64 {
    let in_messages: usize = messages
        .iter()
        .map(|message| message_bytes(message) + 4)
        .sum();
    let in_tools: usize = tools
        .iter()
        .map(|tool| tool.name.len() + tool.description.len() + tool.parameters.to_string().len())
        .sum();
    u64::try_from(in_messages + in_tools).unwrap_or(u64::MAX)
}

fn message_bytes(message: &Message) -> usize {
    match message {
        Message::Assistant {
            content,
            tool_calls,
            reasoning,
        } => {
            content.len()
                + tool_calls
                    .iter()
                    .map(|call| call.name.len() + call.arguments.len())
                    .sum::<usize>()
                + reasoning
                    .iter()
                    .map(|block| match block {
                        ReasoningBlock::Signed { text, .. } => text.len(),
                        ReasoningBlock::Redacted { .. } => 0,
                        ReasoningBlock::ProviderTool { item, .. } => item.to_string().len(),
                    })
                    .sum::<usize>()
        }
        Message::System { content } | Message::User { content, .. } => content.len(),
        Message::Tool { name, content, .. } => name.len() + content.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_the_configs_then_the_model_tables_then_massgens_default() {
        let listed = BackendConfig::new(BackendKind::Openai, "gpt-5");
        let window =
            |config: &BackendConfig| ContextBudget::for_backend(config, 0.2).map(|b| b.window);
        assert_eq!(window(&listed), Some(272_000));
        let set = BackendConfig {
            context_window: Some(32_768),
            ..listed
        };
        assert_eq!(window(&set), Some(32_768));
        let unknown = BackendConfig::new(BackendKind::Vllm, "my-local-model");
        assert_eq!(window(&unknown), Some(DEFAULT_WINDOW));
        let scripted = BackendConfig::new(BackendKind::Scripted, "scripted");
        assert_eq!(window(&scripted), None, "the stand-in has no window");
        let windowed = BackendConfig {
            context_window: Some(8192),
            ..scripted
        };
        assert_eq!(window(&windowed), Some(8192));
    }

    #[test]
    fn thresholds_follow_massgen() {
        let budget = ContextBudget {
            window: 100_000,
            target_ratio: 0.2,
        };
        assert_eq!(budget.trigger(), 75_000);
        assert_eq!(budget.target(), 20_000);
        assert_eq!(budget.fit(), 100_000 - 4096 - 10_000);
        let small = ContextBudget {
            window: 4096,
            target_ratio: 0.2,
        };
        assert_eq!(
            small.fit(),
            4096 - 1024 - 409,
            "a small window keeps room to fit"
        );
    }

    #[test]
    fn the_byte_bound_is_never_below_the_token_count() {
        let messages = vec![
            Message::system("héllo wörld, ".repeat(50)),
            Message::user("一二三四五六七八九十".repeat(20)),
        ];
        assert!(byte_bound(&messages, &[]) >= tokens::count_prompt(&messages, &[]));
    }
}
