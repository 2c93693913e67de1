//! The Responses API events as borrowed serde types: only the fields massgen reads, every
//! string borrowed from the event text where it can be.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::{Deserializer, Visitor};
use serde_json::Value;

use crate::protocol::Usage;

/// A string field, borrowed from the event text unless it holds escapes; `null` and a
/// missing field read as empty. (serde borrows a `Cow` only when it is not inside an
/// `Option`, so an `Option<Cow>` would cost an allocation per field per token.)
pub(super) fn text<'de: 'a, 'a, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Cow<'a, str>, D::Error> {
    struct Text;
    impl<'de> Visitor<'de> for Text {
        type Value = Cow<'de, str>;
        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("any JSON value, read as a string when it is one")
        }
        fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(text))
        }
        fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
            Ok(Cow::Owned(text.to_string()))
        }
        fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
            Ok(Cow::Owned(text))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        // A field that is not a string in some future event kind must not fail the call.
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(""))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(Cow::Borrowed(""))
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            while map
                .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                .is_some()
            {}
            Ok(Cow::Borrowed(""))
        }
    }
    deserializer.deserialize_any(Text)
}

/// One event, reduced to the fields massgen reads; the rest is skipped unread. Every event
/// names itself in `type`, the same name as its SSE `event:` line.
#[derive(Deserialize)]
pub(super) struct Event<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "text")]
    pub(super) kind: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) delta: Cow<'a, str>,
    #[serde(default)]
    pub(super) output_index: Option<usize>,
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) item_id: Cow<'a, str>,
    /// `response.output_item.added` / `.done`.
    #[serde(default, borrow)]
    pub(super) item: Option<Item<'a>>,
    /// `response.function_call_arguments.done`.
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) arguments: Cow<'a, str>,
    /// `response.completed`, `.incomplete`, `.failed` (and the lifecycle events).
    #[serde(default, borrow)]
    pub(super) response: Option<ResponseState<'a>>,
}

/// The parts of a response object that say how it ended; its `output` is not read again.
#[derive(Default, Deserialize)]
pub(super) struct ResponseState<'a> {
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) status: Cow<'a, str>,
    #[serde(default)]
    pub(super) usage: Option<ApiUsage>,
    #[serde(default, borrow)]
    pub(super) incomplete_details: Option<IncompleteDetails<'a>>,
    #[serde(default)]
    pub(super) error: Option<Value>,
}

#[derive(Default, Deserialize)]
pub(super) struct IncompleteDetails<'a> {
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) reason: Cow<'a, str>,
}

/// The output of a whole (non-streamed) response.
#[derive(Deserialize)]
pub(super) struct Output<'a> {
    #[serde(default, borrow)]
    pub(super) output: Option<Vec<Item<'a>>>,
}

/// An output item: `message`, `reasoning`, `function_call`, or a kind massgen ignores.
#[derive(Deserialize)]
pub(super) struct Item<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "text")]
    pub(super) kind: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) id: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) call_id: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) name: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) arguments: Cow<'a, str>,
    /// A `custom_tool_call`'s input (xAI's X search steps put their JSON arguments here).
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) input: Cow<'a, str>,
    #[serde(default, borrow)]
    pub(super) content: Option<Vec<Part<'a>>>,
    #[serde(default, borrow)]
    pub(super) summary: Option<Vec<Part<'a>>>,
    /// A `web_search_call`'s search (`query`, `sources`).
    #[serde(default)]
    pub(super) action: Option<Value>,
    /// A `code_interpreter_call`'s code and what it printed.
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) code: Cow<'a, str>,
    #[serde(default)]
    pub(super) outputs: Option<Value>,
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) status: Cow<'a, str>,
}

/// An `output_text`, `refusal`, `summary_text` or `reasoning_text` part.
#[derive(Deserialize)]
pub(super) struct Part<'a> {
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) text: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) refusal: Cow<'a, str>,
    /// An `output_text`'s `url_citation`s.
    #[serde(default)]
    pub(super) annotations: Option<Vec<Value>>,
}

/// OpenAI's usage: `input_tokens` already includes the cached ones and `output_tokens` the
/// reasoning ones, which is the normalised meaning.
#[derive(Deserialize)]
pub(super) struct ApiUsage {
    #[serde(default)]
    pub(super) input_tokens: u64,
    #[serde(default)]
    pub(super) output_tokens: u64,
    #[serde(default)]
    pub(super) input_tokens_details: Option<InputDetails>,
    #[serde(default)]
    pub(super) output_tokens_details: Option<OutputDetails>,
}

#[derive(Deserialize)]
pub(super) struct InputDetails {
    #[serde(default)]
    pub(super) cached_tokens: Option<u64>,
}

#[derive(Deserialize)]
pub(super) struct OutputDetails {
    #[serde(default)]
    pub(super) reasoning_tokens: Option<u64>,
}

impl ApiUsage {
    pub(super) fn normalise(&self) -> Usage {
        Usage {
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            reasoning_tokens: self
                .output_tokens_details
                .as_ref()
                .and_then(|details| details.reasoning_tokens)
                .unwrap_or(0),
            cached_input_tokens: self
                .input_tokens_details
                .as_ref()
                .and_then(|details| details.cached_tokens)
                .unwrap_or(0),
            cache_creation_tokens: 0,
            estimated: false,
            web_searches: 0,
            x_searches: 0,
            code_runs: 0,
        }
    }
}
