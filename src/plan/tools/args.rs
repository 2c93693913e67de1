//! Reading a task-plan tool's JSON arguments: every wrong shape becomes a message the model
//! can act on, never a panic.

use serde_json::{Map, Value};

use crate::plan::parse::{id_list, kind, priority_named};
use crate::protocol::TaskPriority;

/// A tool call's arguments object; `null` values count as absent.
pub(super) struct Args(Map<String, Value>);

impl Args {
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(Self(Map::new()));
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(object)) => Ok(Self(object)),
            Ok(Value::Null) => Ok(Self(Map::new())),
            Ok(other) => Err(format!(
                "arguments must be a JSON object such as {{\"task_id\": \"T001\"}}, not {}",
                kind(&other)
            )),
            Err(error) => Err(format!("arguments are not valid JSON: {error}")),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key).filter(|value| !value.is_null())
    }

    /// A string (or a number, as text).
    pub fn text(&self, key: &str) -> Result<Option<String>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(Value::Number(number)) => Ok(Some(number.to_string())),
            Some(other) => Err(format!("`{key}` must be a string, not {}", kind(other))),
        }
    }

    /// A non-blank string, trimmed.
    pub fn required_text(&self, key: &str) -> Result<String, String> {
        match self.text(key)? {
            None => Err(format!("missing required argument `{key}`")),
            Some(text) if text.trim().is_empty() => Err(format!("`{key}` must not be empty")),
            Some(text) => Ok(text.trim().to_string()),
        }
    }

    /// Task ids: an array of strings or numbers, or one string.
    pub fn ids(&self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(value) => id_list(value.clone()).map(Some).ok_or_else(|| {
                format!("`{key}` must be an array of task ids, not {}", kind(value))
            }),
        }
    }

    pub fn priority(&self) -> Result<Option<TaskPriority>, String> {
        match self.get("priority") {
            None => Ok(None),
            Some(value) => priority_named(value).map(Some).ok_or_else(|| {
                let shown = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_string);
                format!("Invalid priority '{shown}'. Must be one of: low, medium, high")
            }),
        }
    }
}
