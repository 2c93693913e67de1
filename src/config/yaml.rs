//! A YAML document as a tree of nodes that remember where they were written.
//!
//! The only file that knows about the YAML parser. Everything above it works on
//! [`Node`](super::yaml_node::Node)s, so every config error can name a line and a column.

use std::collections::HashMap;

use saphyr::{MarkedYamlOwned, ScalarOwned, ScanError, YamlDataOwned, YamlLoader};
use saphyr_parser::{Marker, Parser, ScalarStyle};

use super::yaml_keys::{apply_merges, key_text};
use super::yaml_node::{Entry, Location, Node, SYNTAX_HELP, SyntaxError, Value};
use super::{yaml_flow, yaml_scalar};

/// One parsed document.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// `None` when the text holds no document.
    pub root: Option<Node>,
    /// Where a key first repeats in a mapping. PyYAML (and so MassGen) keeps the last value;
    /// so does massgen, with a warning.
    pub duplicate_key: Option<Location>,
}

/// Parses one YAML (or JSON) document, typing scalars and keeping repeated keys as PyYAML
/// does (see `yaml_scalar`), and accepting PyYAML's free indentation inside flow
/// collections (see `yaml_flow`).
pub fn parse(text: &str) -> Result<Document, SyntaxError> {
    let mut current = std::borrow::Cow::Borrowed(without_trailing_blanks(text));
    let mut shifts: Vec<(usize, usize)> = Vec::new();
    let mut first_error: Option<SyntaxError> = None;
    for _ in 0..MAX_FLOW_FIXES {
        let error = match load(&current) {
            Ok((documents, duplicate_key)) => {
                let mut converter = Converter {
                    shifts: &shifts,
                    chars: current.chars().count(),
                    ends_in_newline: current.ends_with('\n'),
                    duplicate_key: None,
                };
                converter.duplicate_key = duplicate_key.map(|marker| converter.location(&marker));
                return converter.document(documents);
            }
            Err(error) => error,
        };
        let first = first_error.get_or_insert_with(|| syntax_error(&error));
        let line = error.marker().line();
        let info = error.info();
        let fixed = if info.starts_with("invalid indentation in quoted scalar") {
            // The parser marks where the scalar starts: its later lines are the ones to move.
            yaml_flow::indent_quoted_continuations(&current, line)
        } else if info.starts_with("invalid indentation") {
            yaml_flow::flow_opened_before(&current, line).and_then(|opener| {
                let again = shifts.iter().filter(|(fixed, _)| *fixed == line).count();
                yaml_flow::indent_line(&current, line, opener + 1 + again)
                    .map(|(text, added)| (text, vec![(line, added)]))
            })
        } else {
            None
        };
        let Some((text, moved)) = fixed else {
            return Err(first.clone());
        };
        shifts.extend(moved);
        current = std::borrow::Cow::Owned(text);
    }
    Err(first_error.unwrap_or_else(|| SyntaxError {
        loc: Location::default(),
        message: "too many lines inside flow collections are indented too little".into(),
        help: SYNTAX_HELP,
    }))
}

/// `text` without the spaces and tabs that end it after its last line break: PyYAML reads
/// no line there (it has no break), and the parser here would count one in a block scalar
/// that ends the file.
fn without_trailing_blanks(text: &str) -> &str {
    match text.rsplit_once('\n') {
        Some((_, last)) if !last.is_empty() && last.trim_matches([' ', '\t']).is_empty() => {
            &text[..text.len() - last.len()]
        }
        _ => text,
    }
}

/// Lines of a flow collection re-indented at most (each retry parses the text again).
const MAX_FLOW_FIXES: usize = 64;

/// The parser's message for a repeated key in a mapping.
const DUPLICATE_KEY: &str = "duplicated key in mapping";

/// The documents, and where a key first repeats in a mapping.
fn load(text: &str) -> Result<(Vec<MarkedYamlOwned>, Option<Marker>), ScanError> {
    match load_allowing(text, false) {
        Ok(documents) => Ok((documents, None)),
        Err(error) if error.info() == DUPLICATE_KEY => {
            Ok((load_allowing(text, true)?, Some(*error.marker())))
        }
        Err(error) => Err(error),
    }
}

fn load_allowing(
    text: &str,
    allow_duplicate_keys: bool,
) -> Result<Vec<MarkedYamlOwned>, ScanError> {
    let mut loader = YamlLoader::<MarkedYamlOwned>::default();
    loader.allow_duplicate_keys(allow_duplicate_keys);
    // Scalars are typed in `yaml_scalar`, as PyYAML types them.
    loader.early_parse(false);
    Parser::new_from_str(text).load(&mut loader, true)?;
    if let Some(error) = loader.error() {
        return Err(error.clone());
    }
    Ok(loader.into_documents())
}

fn syntax_error(error: &ScanError) -> SyntaxError {
    SyntaxError {
        loc: Location {
            line: error.marker().line(),
            column: error.marker().col() + 1,
        },
        message: error.info().to_string(),
        help: SYNTAX_HELP,
    }
}

/// Turns the parser's nodes into [`Node`]s, with locations in the text as written.
struct Converter<'a> {
    /// Spaces added at the start of a line by a flow re-indent: `(line, spaces)`.
    shifts: &'a [(usize, usize)],
    chars: usize,
    ends_in_newline: bool,
    duplicate_key: Option<Location>,
}

impl Converter<'_> {
    fn document(&mut self, documents: Vec<MarkedYamlOwned>) -> Result<Document, SyntaxError> {
        let mut documents = documents.into_iter();
        let Some(first) = documents.next() else {
            return Ok(Document {
                root: None,
                duplicate_key: None,
            });
        };
        if let Some(second) = documents.next() {
            return Err(SyntaxError {
                loc: self.location_of(&second),
                message:
                    "a config holds one YAML document, but a second one starts here (after `---`)"
                        .into(),
                help: "remove the `---` line and what follows it, or move that part to its own file",
            });
        }
        let root = self.convert(first)?;
        Ok(Document {
            root: Some(root),
            duplicate_key: self.duplicate_key,
        })
    }

    fn location_of(&self, node: &MarkedYamlOwned) -> Location {
        self.location(&node.span.start)
    }

    fn location(&self, marker: &Marker) -> Location {
        let line = marker.line();
        let added: usize = self
            .shifts
            .iter()
            .filter(|(shifted, _)| *shifted == line)
            .map(|(_, added)| added)
            .sum();
        Location {
            line,
            column: (marker.col() + 1).saturating_sub(added).max(1),
        }
    }

    fn convert(&mut self, node: MarkedYamlOwned) -> Result<Node, SyntaxError> {
        let loc = self.location_of(&node);
        let at_end = node.span.end.index() >= self.chars;
        let value = match node.data {
            YamlDataOwned::Value(scalar) => scalar_value(scalar),
            YamlDataOwned::Representation(mut text, style, tag) => {
                // PyYAML keeps no line break the file does not have: a block scalar
                // ending the file without a newline ends without one.
                let block = matches!(style, ScalarStyle::Literal | ScalarStyle::Folded);
                if block && at_end && !self.ends_in_newline && text.ends_with('\n') {
                    text.pop();
                }
                match yaml_scalar::resolve(text, style, tag.as_ref()) {
                    Some(value) => value,
                    None => return Err(bad_value(loc)),
                }
            }
            YamlDataOwned::Sequence(items) => Value::Seq(
                items
                    .into_iter()
                    .map(|item| self.convert(item))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            YamlDataOwned::Mapping(mapping) => {
                let mut entries: Vec<Entry> = Vec::with_capacity(mapping.len());
                let mut places: HashMap<String, usize> = HashMap::with_capacity(mapping.len());
                for (key, value) in mapping {
                    let key_loc = self.location_of(&key);
                    let key = key_text(self.convert(key)?.value, key_loc)?;
                    let value = self.convert(value)?;
                    // A repeated key keeps its first place and its last value, as in PyYAML.
                    if let Some(existing) = places.get(&key).and_then(|at| entries.get_mut(*at)) {
                        self.duplicate_key.get_or_insert(key_loc);
                        existing.value = value;
                    } else {
                        places.insert(key.clone(), entries.len());
                        entries.push(Entry {
                            key,
                            key_loc,
                            value,
                        });
                    }
                }
                Value::Map(apply_merges(entries, loc)?)
            }
            YamlDataOwned::Tagged(_, inner) => {
                return self.convert(*inner).map(|node| Node { loc, ..node });
            }
            YamlDataOwned::Alias(_) => {
                return Err(SyntaxError {
                    loc,
                    message: "this alias refers to an anchor that is not defined before it".into(),
                    help: "define the `&anchor` before using `*anchor`",
                });
            }
            YamlDataOwned::BadValue => return Err(bad_value(loc)),
        };
        Ok(Node { loc, value })
    }
}

fn bad_value(loc: Location) -> SyntaxError {
    SyntaxError {
        loc,
        message: "this value does not match its `!!` type tag".into(),
        help: "remove the tag or fix the value",
    }
}

fn scalar_value(scalar: ScalarOwned) -> Value {
    match scalar {
        ScalarOwned::Null => Value::Null,
        ScalarOwned::Boolean(flag) => Value::Bool(flag),
        ScalarOwned::Integer(number) => Value::Int(number),
        ScalarOwned::FloatingPoint(number) => Value::Float(number.into_inner()),
        ScalarOwned::String(text) => Value::Str(text),
    }
}

#[cfg(test)]
#[path = "yaml_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "yaml_pyyaml_tests.rs"]
mod pyyaml_tests;
