//! How many values a YAML text would load into, aliases expanded, counted from the parser's
//! events before any tree is built: a config of millions of keys (or an alias bomb) is
//! refused in a fraction of a second instead of taking gigabytes.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser};

use super::error::{Problem, thousands};
use super::yaml::Location;

/// Values (scalars, lists, mappings; keys included) one config may hold. Real configs
/// hold hundreds; this leaves room for generated ones of a few thousand agents.
pub const MAX_VALUES: u64 = 250_000;

/// An error if `text` holds more than [`MAX_VALUES`] values once aliases are expanded.
/// Syntax errors are left to the parser, which reports them with more context.
pub fn check(text: &str) -> Result<(), Problem> {
    let mut count: u64 = 0;
    // Values under each anchor, for the aliases that repeat them.
    let mut anchored: HashMap<usize, u64> = HashMap::new();
    // Open collections: their anchor and the count when they opened.
    let mut open: Vec<(usize, u64)> = Vec::new();
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else {
            return Ok(());
        };
        match event {
            Event::Scalar(_, _, anchor, _) => {
                count += 1;
                if anchor != 0 {
                    anchored.insert(anchor, 1);
                }
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                count += 1;
                open.push((anchor, count));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, start)) = open.pop()
                    && anchor != 0
                {
                    anchored.insert(anchor, count - start + 1);
                }
            }
            Event::Alias(anchor) => {
                count = count.saturating_add(anchored.get(&anchor).copied().unwrap_or(1));
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd => {}
        }
        if count > MAX_VALUES {
            let loc = Location {
                line: span.start.line(),
                column: span.start.col() + 1,
            };
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
}
