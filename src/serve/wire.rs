//! A chat completion body read straight from its JSON with a cap on everything that
//! grows with it: at most [`MAX_MESSAGES`] messages of at most [`MAX_PARTS`] content parts
//! each. Fields massgen does not use (`tools`, `temperature`, images) are skipped unread,
//! so no request builds a tree of JSON values many times its size.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// OpenAI's own limit on `messages`.
pub const MAX_MESSAGES: usize = 2048;
/// Content parts in one message.
pub const MAX_PARTS: usize = 256;

#[derive(Default)]
pub struct Body {
    pub model: Option<String>,
    pub messages: Option<Vec<Message>>,
    pub stream: Option<bool>,
    pub include_reasoning: Option<bool>,
    pub include_usage: Option<bool>,
    /// massgen's own: `vote`, `council` or `debate` for this turn (an OpenAI client sends it
    /// as an extra body field); absent = the config's.
    pub strategy: Option<crate::protocol::Strategy>,
}

pub struct Message {
    pub role: String,
    /// The content's text: a string, or the `text` of its parts, one a line.
    pub text: String,
}

/// Why a body is refused: its JSON, or one of its fields (named, for OpenAI's `param`).
pub enum Refusal {
    NotJson(String),
    Field(&'static str, String),
}

pub fn read(body: &[u8]) -> Result<Body, Refusal> {
    let field = Cell::new(None);
    let mut json = serde_json::Deserializer::from_slice(body);
    let read = BodySeed { field: &field }
        .deserialize(&mut json)
        .and_then(|body| json.end().map(|()| body));
    read.map_err(|error| match (error.classify(), field.get()) {
        (serde_json::error::Category::Data, Some(name)) => Refusal::Field(name, error.to_string()),
        _ => Refusal::NotJson(error.to_string()),
    })
}

struct BodySeed<'a> {
    /// The field being read, to name it when it is wrong.
    field: &'a Cell<Option<&'static str>>,
}

impl<'de> DeserializeSeed<'de> for BodySeed<'_> {
    type Value = Body;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Body, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for BodySeed<'_> {
    type Value = Body;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a chat completion request (a JSON object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Body, A::Error> {
        let mut body = Body::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "model" => {
                    self.field.set(Some("model"));
                    body.model = map.next_value()?;
                }
                "messages" => {
                    self.field.set(Some("messages"));
                    body.messages = Some(map.next_value_seed(Messages)?);
                }
                "stream" => {
                    self.field.set(Some("stream"));
                    body.stream = map.next_value()?;
                }
                "include_reasoning" => {
                    self.field.set(Some("include_reasoning"));
                    body.include_reasoning = map.next_value()?;
                }
                "strategy" => {
                    self.field.set(Some("strategy"));
                    body.strategy = map.next_value()?;
                }
                "stream_options" => {
                    self.field.set(Some("stream_options"));
                    body.include_usage = map
                        .next_value::<Option<StreamOptions>>()?
                        .and_then(|options| options.include_usage);
                }
                _ => {
                    self.field.set(None);
                    map.next_value::<IgnoredAny>()?;
                }
            }
            self.field.set(None);
        }
        Ok(body)
    }
}

#[derive(serde::Deserialize)]
struct StreamOptions {
    include_usage: Option<bool>,
}

struct Messages;

impl<'de> DeserializeSeed<'de> for Messages {
    type Value = Vec<Message>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Messages {
    type Value = Vec<Message>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an array of messages")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut messages = Vec::new();
        while let Some(message) = seq.next_element_seed(OneMessage {
            index: messages.len(),
        })? {
            messages.push(message);
        }
        Ok(messages)
    }
}

struct OneMessage {
    index: usize,
}

impl<'de> DeserializeSeed<'de> for OneMessage {
    type Value = Message;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Message, D::Error> {
        if self.index == MAX_MESSAGES {
            return Err(de::Error::custom(format!(
                "holds more than {MAX_MESSAGES} messages, the most massgen serve takes in one \
                 request: drop or summarize the oldest"
            )));
        }
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for OneMessage {
    type Value = Message;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(formatter, "`messages[{}]` as an object", self.index)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        let mut message = Message {
            role: String::new(),
            text: String::new(),
        };
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "role" => message.role = map.next_value()?,
                "content" => {
                    message.text = map.next_value_seed(Content { index: self.index })?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(message)
    }
}

struct Content {
    index: usize,
}

impl Content {
    fn wrong<E: de::Error>(&self) -> E {
        E::custom(format!(
            "`messages[{}].content` must be text or text parts",
            self.index
        ))
    }
}

impl<'de> DeserializeSeed<'de> for Content {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Content {
    type Value = String;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(
            formatter,
            "`messages[{}].content` as text or text parts",
            self.index
        )
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<String, E> {
        Ok(text.to_string())
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<String, E> {
        Ok(text)
    }

    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }

    fn visit_none<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<String, E> {
        Err(self.wrong())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<String, E> {
        Err(self.wrong())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<String, E> {
        Err(self.wrong())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<String, E> {
        Err(self.wrong())
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self.wrong())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut parts: A) -> Result<String, A::Error> {
        let mut text = String::new();
        let mut count = 0;
        let mut any_text = false;
        while let Some(part) = parts.next_element::<Part>()? {
            count += 1;
            if count > MAX_PARTS {
                return Err(de::Error::custom(format!(
                    "`messages[{}].content` has more than {MAX_PARTS} parts, the most massgen \
                     serve takes in one message",
                    self.index
                )));
            }
            if let Some(part_text) = part.text {
                if any_text {
                    text.push('\n');
                }
                any_text = true;
                text.push_str(&part_text);
            }
        }
        Ok(text)
    }
}

/// A content part; only text parts carry anything massgen reads.
#[derive(serde::Deserialize)]
struct Part {
    #[serde(default)]
    text: Option<String>,
}
