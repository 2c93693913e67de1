//! How many values a YAML text would load into, and how many bytes of text, aliases
//! expanded, counted from the parser's events before any tree is built: a config of
//! millions of keys (or an alias bomb, of values or of long strings) is refused in a
//! fraction of a second instead of taking gigabytes.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser};

use super::error::{Problem, thousands};
use crate::config::yaml_node::Location;

/// The largest config read, as a file and once aliases and `${VAR}`s are expanded: real
/// configs are kilobytes; a bigger one is a mistake or an attack on memory (every unknown
/// key in it would be a warning).
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// Values (scalars, lists, mappings; keys included) one config may hold. Real configs
/// hold hundreds; this leaves room for generated ones of a few thousand agents.
pub const MAX_VALUES: u64 = 250_000;

/// Values and bytes of scalar text.
#[derive(Clone, Copy, Default)]
struct Size {
    values: u64,
    bytes: u64,
}

/// An error if `text` holds more than [`MAX_VALUES`] values, or more than
/// [`MAX_CONFIG_BYTES`] of scalar text, once aliases are expanded. Syntax errors are left
/// to the parser, which reports them with more context.
pub fn check(text: &str) -> Result<(), Problem> {
    let mut size = Size::default();
    // What each anchor holds, for the aliases that repeat it.
    let mut anchored: HashMap<usize, Size> = HashMap::new();
    // Open collections: their anchor and the size when they opened.
    let mut open: Vec<(usize, Size)> = Vec::new();
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else {
            return Ok(());
        };
        match event {
            Event::Scalar(scalar, _, anchor, _) => {
                let own = Size {
                    values: 1,
                    bytes: scalar.len() as u64,
                };
                size.values += 1;
                size.bytes += own.bytes;
                if anchor != 0 {
                    anchored.insert(anchor, own);
                }
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                open.push((anchor, size));
                size.values += 1;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, start)) = open.pop()
                    && anchor != 0
                {
                    let within = Size {
                        values: size.values - start.values,
                        bytes: size.bytes - start.bytes,
                    };
                    anchored.insert(anchor, within);
                }
            }
            Event::Alias(anchor) => {
                let repeated = anchored.get(&anchor).copied().unwrap_or(Size {
                    values: 1,
                    bytes: 0,
                });
                size.values = size.values.saturating_add(repeated.values);
                size.bytes = size.bytes.saturating_add(repeated.bytes);
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd => {}
        }
        let loc = Location {
            line: span.start.line(),
            column: span.start.col() + 1,
        };
        if size.bytes > MAX_CONFIG_BYTES {
            return Err(Problem::at(
                loc,
                format!(
                    "the config's text is larger than {} MiB once its aliases are expanded; \
                     massgen stops reading here",
                    MAX_CONFIG_BYTES / (1024 * 1024)
                ),
            )
            .help(
                "a config is a few kilobytes; keep long prompts and data in files the agents \
                 read, and repeat long text with an alias only a few times",
            ));
        }
        if size.values > MAX_VALUES {
            return Err(Problem::at(
                loc,
                format!(
                    "the config holds more than {} values (keys, lists and aliases expanded \
                     included); massgen stops reading here",
                    thousands(usize::try_from(MAX_VALUES).unwrap_or(usize::MAX))
                ),
            )
            .help(
                "a config holds a few hundred; check that this is the file you meant, and keep \
                 data in files the agents read",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_configs_pass_and_huge_ones_stop_with_a_location() {
        assert!(check("agent: {id: a, backend: {type: scripted}}\n").is_ok());
        let keys: String = (0..200_000).map(|i| format!("k{i}: 1\n")).collect();
        let error = check(&keys).unwrap_err();
        assert!(
            error.message.contains("more than 250,000 values"),
            "{error:?}"
        );
        assert!(error.loc.is_some_and(|loc| loc.line > 100_000));
    }

    #[test]
    fn aliases_count_what_they_repeat() {
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..8 {
            let previous = format!("*l{}", level - 1).replace("*l0", "*a");
            let items = vec![previous; 10].join(", ");
            text.push_str(&format!("l{level}: &l{level} [{items}]\n"));
        }
        let error = check(&text).unwrap_err();
        assert!(error.message.contains("more than"), "{error:?}");
    }

    #[test]
    fn aliases_of_long_text_count_its_bytes() {
        let long = "x".repeat(1024 * 1024);
        let few = format!("a: &a \"{long}\"\nb: [*a, *a, *a]\n");
        assert!(check(&few).is_ok());
        let many = format!("a: &a \"{long}\"\nb: [{}]\n", vec!["*a"; 20].join(", "));
        let error = check(&many).unwrap_err();
        assert!(error.message.contains("16 MiB"), "{error:?}");
    }
}
