//! The config file's YAML tree: [`Node`]s and their [`Value`]s, mapping [`Entry`]s, the
//! [`Location`] each was written at, and the [`SyntaxError`] the parser reports.

use std::fmt;

/// A 1-based line and column in the config file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub loc: Location,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// One `key: value` pair of a mapping, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_loc: Location,
    pub value: Node,
}

/// A YAML syntax problem.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub loc: Location,
    pub message: String,
    pub help: &'static str,
}

pub(super) const SYNTAX_HELP: &str = "check indentation, quotes and brackets at this spot";

impl Node {
    /// How the node's type reads in an error message ("a list", "a string", …).
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "nothing (null)",
            Value::Bool(_) => "true/false",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// The entries if this is a mapping.
    pub fn entries(&self) -> Option<&[Entry]> {
        if let Value::Map(entries) = &self.value {
            Some(entries)
        } else {
            None
        }
    }

    /// The value under `key` if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries()?
            .iter()
            .find(|entry| entry.key == key)
            .map(|entry| &entry.value)
    }

    pub fn as_str(&self) -> Option<&str> {
        if let Value::Str(text) = &self.value {
            Some(text)
        } else {
            None
        }
    }

    /// The node as JSON, for provider options passed through untouched.
    pub fn to_json(&self) -> serde_json::Value {
        match &self.value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(flag) => serde_json::Value::Bool(*flag),
            Value::Int(number) => serde_json::Value::from(*number),
            Value::Float(number) => serde_json::Number::from_f64(*number)
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Value::Str(text) => serde_json::Value::String(text.clone()),
            Value::Seq(items) => items.iter().map(Node::to_json).collect(),
            Value::Map(entries) => entries
                .iter()
                .map(|entry| (entry.key.clone(), entry.value.to_json()))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        }
    }
}
