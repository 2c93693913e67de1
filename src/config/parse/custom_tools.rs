//! A backend's `custom_tools` list: each entry's `function` (one name or a list), with
//! `name`, `description` and `preset_args` either shared by its functions or given one per
//! function, as MassGen reads them.

use super::Note;
use crate::config::custom_tools::CustomToolConfig;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::tools::DEFAULT_CALL_TIMEOUT;
use crate::config::yaml_node::{Node, Value};

const KNOWN: [&str; 9] = [
    "strict",
    "path",
    "function",
    "func",
    "name",
    "description",
    "preset_args",
    "category",
    "timeout",
];

const EXAMPLE: &str =
    "custom_tools: [{path: tools/math.py, function: add, description: \"Add two numbers\"}]";

pub(super) fn parse_custom_tools(
    backend: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Vec<CustomToolConfig>, Problem> {
    let Some(node) = backend.get("custom_tools") else {
        return Ok(Vec::new());
    };
    let Value::Seq(items) = &node.value else {
        return Err(backend.wrong_type("custom_tools", node, "a list of tools", EXAMPLE));
    };
    let path = backend.key_path("custom_tools");
    let mut tools: Vec<CustomToolConfig> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let entry = Fields::of(item, format!("{path}[{index}]"))?;
        for unknown in entry.unknown(&KNOWN) {
            let what = if unknown.key == "default_params" {
                "MassGen 0.1.97 does not read it either; give fixed arguments as `preset_args`"
                    .to_string()
            } else {
                format!("a custom tool takes {}", KNOWN.join(", "))
            };
            notes.push(Note {
                loc: Some(unknown.key_loc),
                message: format!("ignored: {} — {what}", entry.key_path(&unknown.key)),
                ignored: Some(entry.key_path(&unknown.key)),
            });
        }
        for tool in parse_entry(&entry)? {
            if let Some(earlier) = tools
                .iter()
                .find(|earlier| earlier.offered_name() == tool.offered_name())
            {
                return Err(Problem::at(
                    entry.loc(),
                    format!(
                        "`{}` offers `{}` again (`{}` offers it already)",
                        entry.path,
                        tool.offered_name(),
                        earlier.entry
                    ),
                )
                .help("give one of them another `name`"));
            }
            tools.push(tool);
        }
    }
    Ok(tools)
}

fn parse_entry(entry: &Fields<'_>) -> Result<Vec<CustomToolConfig>, Problem> {
    let key = if entry.get("function").is_some() {
        "function"
    } else {
        "func"
    };
    let Some(node) = entry.get(key) else {
        return Err(entry.missing(
            "function",
            &format!("`{}` names no `function`", entry.path),
            "name the Python function to offer, like `function: two_num_tool` (or a list \
             of functions from the same file)",
        ));
    };
    let functions = entry.strings(key)?;
    if functions.is_empty() || functions.iter().any(|name| !is_identifier(name)) {
        return Err(Problem::at(
            node.loc,
            format!(
                "`{}` must name Python functions, found {}",
                entry.key_path(key),
                if functions.is_empty() {
                    "an empty list".to_string()
                } else {
                    format!("\"{}\"", functions.join("\", \""))
                }
            ),
        )
        .help("write it like `function: two_num_tool` or `function: [add, subtract]`"));
    }
    let count = functions.len();
    let names = per_function(entry, "name", count, text_of)?;
    let descriptions = per_function(entry, "description", count, text_of)?;
    let presets = per_function(entry, "preset_args", count, preset_of)?;
    let written_path = entry.string("path")?.filter(|path| !path.trim().is_empty());
    let category = entry
        .string("category")?
        .unwrap_or_else(|| "default".to_string());
    let timeout = entry
        .seconds("timeout", 30)?
        .unwrap_or(DEFAULT_CALL_TIMEOUT);
    let strict = entry.bool("strict")?.unwrap_or(true);
    Ok(functions
        .into_iter()
        .zip(names.into_iter().zip(descriptions.into_iter().zip(presets)))
        .map(
            |(function, (name, (description, preset)))| CustomToolConfig {
                entry: entry.path.clone(),
                written_path: written_path.clone(),
                path: None,
                function,
                name,
                description,
                preset_args: preset.unwrap_or_default(),
                category: category.clone(),
                timeout,
                strict,
            },
        )
        .collect())
}

/// One value per function: absent (none for each), one value shared by all, or a list of
/// exactly `count` values.
fn per_function<T: Clone>(
    entry: &Fields<'_>,
    key: &str,
    count: usize,
    read: fn(&Fields<'_>, &str, &Node) -> Result<T, Problem>,
) -> Result<Vec<Option<T>>, Problem> {
    let Some(node) = entry.get(key) else {
        return Ok(vec![None; count]);
    };
    let Value::Seq(items) = &node.value else {
        return Ok(vec![Some(read(entry, key, node)?); count]);
    };
    if items.len() != count {
        return Err(Problem::at(
            node.loc,
            format!(
                "`{}` is a list of {} but `function` names {count} function{}",
                entry.key_path(key),
                items.len(),
                if count == 1 { "" } else { "s" }
            ),
        )
        .help(format!(
            "give one value shared by every function, or a list of exactly {count} (one per \
             function, in order)"
        )));
    }
    items
        .iter()
        .map(|item| read(entry, key, item).map(Some))
        .collect()
}

fn text_of(entry: &Fields<'_>, key: &str, node: &Node) -> Result<String, Problem> {
    match &node.value {
        Value::Str(text) => Ok(text.clone()),
        Value::Int(number) => Ok(number.to_string()),
        Value::Float(number) => Ok(number.to_string()),
        Value::Null | Value::Bool(_) | Value::Seq(_) | Value::Map(_) => Err(entry.wrong_type(
            key,
            node,
            "text (or a list of text, one per function)",
            &format!("{key}: \"…\""),
        )),
    }
}

fn preset_of(
    entry: &Fields<'_>,
    key: &str,
    node: &Node,
) -> Result<serde_json::Map<String, serde_json::Value>, Problem> {
    match node.to_json() {
        serde_json::Value::Object(map) => Ok(map),
        serde_json::Value::Null => Ok(serde_json::Map::new()),
        serde_json::Value::Bool(_)
        | serde_json::Value::Number(_)
        | serde_json::Value::String(_)
        | serde_json::Value::Array(_) => Err(entry.wrong_type(
            key,
            node,
            "a mapping of argument names to values (or a list of them, one per function)",
            "preset_args: {unit: celsius}",
        )),
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first == '_' || first.is_alphabetic())
        && chars.all(|rest| rest == '_' || rest.is_alphanumeric())
}

#[cfg(test)]
#[path = "custom_tools_tests.rs"]
mod tests;
