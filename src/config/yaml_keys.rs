//! Mapping keys as PyYAML reads them: a key's text, and merge keys (`<<: *defaults`).

use crate::config::yaml_node::{Entry, Location, SYNTAX_HELP, SyntaxError, Value};

pub(super) fn key_text(key: Value, key_loc: Location) -> Result<String, SyntaxError> {
    Ok(match key {
        Value::Str(text) => text,
        Value::Int(number) => number.to_string(),
        Value::Float(number) => number.to_string(),
        Value::Bool(flag) => flag.to_string(),
        Value::Null => "null".into(),
        Value::Seq(_) | Value::Map(_) => {
            return Err(SyntaxError {
                loc: key_loc,
                message: "a mapping key must be a plain name, not a list or mapping".into(),
                help: SYNTAX_HELP,
            });
        }
    })
}

/// Applies YAML merge keys (`<<: *defaults`, `<<: [*a, *b]`), as PyYAML does: keys written
/// in the mapping win over merged ones, and earlier merged mappings over later ones.
pub(super) fn apply_merges(entries: Vec<Entry>, loc: Location) -> Result<Vec<Entry>, SyntaxError> {
    let (merges, mut own): (Vec<Entry>, Vec<Entry>) =
        entries.into_iter().partition(|entry| entry.key == "<<");
    for merge in merges {
        let sources = match merge.value.value {
            Value::Map(source) => vec![source],
            Value::Seq(items) => items
                .into_iter()
                .map(|item| match item.value {
                    Value::Map(source) => Ok(source),
                    Value::Null
                    | Value::Bool(_)
                    | Value::Int(_)
                    | Value::Float(_)
                    | Value::Str(_)
                    | Value::Seq(_) => Err(merge_error(item.loc)),
                })
                .collect::<Result<_, _>>()?,
            Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => {
                return Err(merge_error(if merge.value.loc == Location::default() {
                    loc
                } else {
                    merge.value.loc
                }));
            }
        };
        for entry in sources.into_iter().flatten() {
            if !own.iter().any(|existing| existing.key == entry.key) {
                own.push(entry);
            }
        }
    }
    Ok(own)
}

fn merge_error(loc: Location) -> SyntaxError {
    SyntaxError {
        loc,
        message: "`<<` merges a mapping or a list of mappings into this one".into(),
        help: "write `<<: *anchor` where `&anchor` names a mapping",
    }
}
