//! A built-in tool call's JSON arguments, read field by field with messages that name the
//! tool and the field, and the error type the tools return.

use std::io;
use std::path::Path;

use serde_json::{Map, Value};

use crate::tools::permissions::Refusal;

/// Why a tool call did not succeed.
#[derive(Debug)]
pub(super) enum ToolError {
    /// The path policy said no.
    Refused(Refusal),
    /// Anything else: bad arguments, a missing file, a failed command.
    Failed(String),
}

impl From<Refusal> for ToolError {
    fn from(refusal: Refusal) -> Self {
        ToolError::Refused(refusal)
    }
}

pub(super) type ToolResult = Result<String, ToolError>;

/// `Could not <action> <path>: <what went wrong>`.
pub(super) fn io_error(action: &str, path: &Path, error: &io::Error) -> ToolError {
    let what = match error.kind() {
        io::ErrorKind::NotFound => "it does not exist".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::AlreadyExists => "it already exists".to_string(),
        io::ErrorKind::NotADirectory => "a part of the path is a file, not a directory".into(),
        io::ErrorKind::IsADirectory => "it is a directory".to_string(),
        io::ErrorKind::DirectoryNotEmpty => "the directory is not empty".to_string(),
        _ => error.to_string(),
    };
    ToolError::Failed(format!("Could not {action} {}: {what}.", path.display()))
}

#[derive(Clone, Debug)]
pub(super) struct Args {
    tool: String,
    fields: Map<String, Value>,
}

impl Args {
    /// Empty text counts as `{}`; anything but a JSON object is an error for the model.
    pub(super) fn parse(tool: &str, json: &str) -> Result<Self, ToolError> {
        let value: Value = if json.trim().is_empty() {
            Value::Object(Map::new())
        } else {
            serde_json::from_str(json).map_err(|error| {
                ToolError::Failed(format!(
                    "The arguments of `{tool}` are not valid JSON ({error}). Call it again with \
                     a JSON object."
                ))
            })?
        };
        match value {
            Value::Object(fields) => Ok(Self {
                tool: tool.to_string(),
                fields,
            }),
            other => Err(ToolError::Failed(format!(
                "The arguments of `{tool}` must be a JSON object, not {}.",
                kind(&other)
            ))),
        }
    }

    pub(super) fn tool(&self) -> &str {
        &self.tool
    }

    fn missing(&self, field: &str) -> ToolError {
        ToolError::Failed(format!(
            "`{}` is missing the required `{field}` argument.",
            self.tool
        ))
    }

    fn wrong(&self, field: &str, wanted: &str, got: &Value) -> ToolError {
        ToolError::Failed(format!(
            "`{field}` of `{}` must be {wanted}, not {}.",
            self.tool,
            kind(got)
        ))
    }

    fn present(&self, field: &str) -> Option<&Value> {
        self.fields.get(field).filter(|value| !value.is_null())
    }

    pub(super) fn opt_str(&self, field: &str) -> Result<Option<&str>, ToolError> {
        match self.present(field) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(self.wrong(field, "a string", other)),
        }
    }

    pub(super) fn str(&self, field: &str) -> Result<&str, ToolError> {
        self.opt_str(field)?.ok_or_else(|| self.missing(field))
    }

    /// The first of `fields` that is present (MassGen's names, then the short ones).
    pub(super) fn str_either(&self, fields: &[&str]) -> Result<&str, ToolError> {
        for field in fields {
            if let Some(text) = self.opt_str(field)? {
                return Ok(text);
            }
        }
        Err(self.missing(fields.first().copied().unwrap_or("path")))
    }

    pub(super) fn flag(&self, field: &str) -> Result<bool, ToolError> {
        match self.present(field) {
            None => Ok(false),
            Some(Value::Bool(flag)) => Ok(*flag),
            Some(Value::String(text)) if text.eq_ignore_ascii_case("true") => Ok(true),
            Some(Value::String(text)) if text.eq_ignore_ascii_case("false") => Ok(false),
            Some(other) => Err(self.wrong(field, "true or false", other)),
        }
    }

    pub(super) fn opt_count(&self, field: &str) -> Result<Option<u64>, ToolError> {
        match self.present(field) {
            None => Ok(None),
            Some(value @ Value::Number(number)) => match number.as_u64() {
                Some(count) => Ok(Some(count)),
                None => match number.as_f64() {
                    Some(float) if float >= 0.0 && float.is_finite() => Ok(Some(float as u64)),
                    Some(_) | None => Err(self.wrong(field, "a whole number ≥ 0", value)),
                },
            },
            Some(Value::String(text)) => {
                text.trim().parse().map(Some).map_err(|_| {
                    self.wrong(field, "a whole number ≥ 0", &Value::String(text.clone()))
                })
            }
            Some(other) => Err(self.wrong(field, "a whole number ≥ 0", other)),
        }
    }

    pub(super) fn opt_strings(&self, field: &str) -> Result<Option<Vec<String>>, ToolError> {
        match self.present(field) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(text) => Ok(text.clone()),
                    other => Err(self.wrong(field, "a list of strings", other)),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(Value::String(text)) => Ok(Some(vec![text.clone()])),
            Some(other) => Err(self.wrong(field, "a list of strings", other)),
        }
    }

    pub(super) fn strings(&self, field: &str) -> Result<Vec<String>, ToolError> {
        self.opt_strings(field)?.ok_or_else(|| self.missing(field))
    }

    pub(super) fn objects(&self, field: &str) -> Result<Vec<Map<String, Value>>, ToolError> {
        match self.present(field) {
            None => Err(self.missing(field)),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::Object(object) => Ok(object.clone()),
                    other => Err(self.wrong(field, "a list of objects", other)),
                })
                .collect(),
            Some(other) => Err(self.wrong(field, "a list of objects", other)),
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
