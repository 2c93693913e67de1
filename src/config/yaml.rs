//! A YAML document as a tree of nodes that remember where they were written.
//!
//! The only file that knows about the YAML parser. Everything above it works on [`Node`]s,
//! so every config error can name a line and a column.

use std::fmt;

use saphyr::{MarkedYamlOwned, ScalarOwned, ScanError, YamlDataOwned, YamlLoader};
use saphyr_parser::Parser;

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

const SYNTAX_HELP: &str = "check indentation, quotes and brackets at this spot";

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

/// One parsed document.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// `None` when the text holds no document.
    pub root: Option<Node>,
    /// Where a key first repeats in a mapping. PyYAML (and so MassGen) keeps the last value;
    /// so does massgen, with a warning.
    pub duplicate_key: Option<Location>,
}

/// Parses one YAML (or JSON) document.
pub fn parse(text: &str) -> Result<Document, SyntaxError> {
    let (documents, duplicate_key) = match load(text, false) {
        Ok(documents) => (documents, None),
        Err(error) if error.info() == DUPLICATE_KEY => {
            let documents = load(text, true).map_err(|error| syntax_error(&error))?;
            (documents, Some(syntax_error(&error).loc))
        }
        Err(error) => return Err(syntax_error(&error)),
    };
    let mut documents = documents.into_iter();
    let Some(first) = documents.next() else {
        return Ok(Document {
            root: None,
            duplicate_key,
        });
    };
    if let Some(second) = documents.next() {
        return Err(SyntaxError {
            loc: location_of(&second),
            message: "a config holds one YAML document, but a second one starts here (after `---`)"
                .into(),
            help: "remove the `---` line and what follows it, or move that part to its own file",
        });
    }
    Ok(Document {
        root: Some(convert(first)?),
        duplicate_key,
    })
}

/// The parser's message for a repeated key in a mapping.
const DUPLICATE_KEY: &str = "duplicated key in mapping";

fn load(text: &str, allow_duplicate_keys: bool) -> Result<Vec<MarkedYamlOwned>, ScanError> {
    let mut loader = YamlLoader::<MarkedYamlOwned>::default();
    loader.allow_duplicate_keys(allow_duplicate_keys);
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

fn location_of(node: &MarkedYamlOwned) -> Location {
    Location {
        line: node.span.start.line(),
        column: node.span.start.col() + 1,
    }
}

fn convert(node: MarkedYamlOwned) -> Result<Node, SyntaxError> {
    let loc = location_of(&node);
    let value = match node.data {
        YamlDataOwned::Value(scalar) => scalar_value(scalar),
        YamlDataOwned::Representation(text, _, _) => Value::Str(text),
        YamlDataOwned::Sequence(items) => Value::Seq(
            items
                .into_iter()
                .map(convert)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        YamlDataOwned::Mapping(mapping) => {
            let mut entries = Vec::with_capacity(mapping.len());
            for (key, value) in mapping {
                let key_loc = location_of(&key);
                let key = match convert(key)?.value {
                    Value::Str(text) => text,
                    Value::Int(number) => number.to_string(),
                    Value::Float(number) => number.to_string(),
                    Value::Bool(flag) => flag.to_string(),
                    Value::Null => "null".into(),
                    Value::Seq(_) | Value::Map(_) => {
                        return Err(SyntaxError {
                            loc: key_loc,
                            message: "a mapping key must be a plain name, not a list or mapping"
                                .into(),
                            help: SYNTAX_HELP,
                        });
                    }
                };
                entries.push(Entry {
                    key,
                    key_loc,
                    value: convert(value)?,
                });
            }
            Value::Map(apply_merges(entries, loc)?)
        }
        YamlDataOwned::Tagged(_, inner) => return convert(*inner).map(|node| Node { loc, ..node }),
        YamlDataOwned::Alias(_) => {
            return Err(SyntaxError {
                loc,
                message: "this alias refers to an anchor that is not defined before it".into(),
                help: "define the `&anchor` before using `*anchor`",
            });
        }
        YamlDataOwned::BadValue => {
            return Err(SyntaxError {
                loc,
                message: "this value does not match its `!!` type tag".into(),
                help: "remove the tag or fix the value",
            });
        }
    };
    Ok(Node { loc, value })
}

/// Applies YAML merge keys (`<<: *defaults`, `<<: [*a, *b]`), as PyYAML does: keys written
/// in the mapping win over merged ones, and earlier merged mappings over later ones.
fn apply_merges(entries: Vec<Entry>, loc: Location) -> Result<Vec<Entry>, SyntaxError> {
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
mod tests {
    use super::*;

    #[test]
    fn nodes_keep_their_line_and_column() {
        let doc = parse("agents:\n  - id: a\n    backend:\n      type: scripted\n")
            .unwrap()
            .root
            .unwrap();
        let agents = doc.get("agents").unwrap();
        let Value::Seq(items) = &agents.value else {
            panic!("not a list")
        };
        let backend_type = items[0].get("backend").unwrap().get("type").unwrap();
        assert_eq!(backend_type.as_str(), Some("scripted"));
        assert_eq!(
            backend_type.loc,
            Location {
                line: 4,
                column: 13
            }
        );
    }

    #[test]
    fn scalars_are_typed_and_quoted_numbers_stay_strings() {
        let doc = parse("a: 3\nb: 0.5\nc: true\nd: \"3\"\ne: ~\n")
            .unwrap()
            .root
            .unwrap();
        assert_eq!(doc.get("a").unwrap().value, Value::Int(3));
        assert_eq!(doc.get("b").unwrap().value, Value::Float(0.5));
        assert_eq!(doc.get("c").unwrap().value, Value::Bool(true));
        assert_eq!(doc.get("d").unwrap().value, Value::Str("3".into()));
        assert_eq!(doc.get("e").unwrap().value, Value::Null);
    }

    #[test]
    fn syntax_errors_have_locations() {
        let error = parse("a: [1, 2\n").unwrap_err();
        assert!(error.loc.line >= 1, "{error:?}");
    }

    #[test]
    fn a_repeated_key_keeps_the_last_value_and_is_reported() {
        let doc = parse("a: 1\nb: 2\na: 3\n").unwrap();
        assert_eq!(doc.duplicate_key.map(|loc| loc.line), Some(3));
        assert_eq!(doc.root.unwrap().get("a").unwrap().value, Value::Int(3));
    }

    #[test]
    fn merge_keys_fill_in_missing_entries() {
        let text = "base: &b {type: scripted, model: m}\nagent:\n  <<: *b\n  model: mine\n";
        let root = parse(text).unwrap().root.unwrap();
        let agent = root.get("agent").unwrap();
        assert_eq!(agent.get("type").unwrap().as_str(), Some("scripted"));
        assert_eq!(agent.get("model").unwrap().as_str(), Some("mine"));
        assert!(agent.get("<<").is_none());
        let error = parse("a:\n  <<: 3\n").unwrap_err();
        assert!(error.message.contains("merges a mapping"), "{error:?}");
    }

    #[test]
    fn empty_text_has_no_document_and_aliases_resolve() {
        assert_eq!(parse("").unwrap().root, None);
        assert_eq!(parse("# only a comment\n").unwrap().root, None);
        let doc = parse("base: &b {x: 1}\ncopy: *b\n").unwrap().root.unwrap();
        assert_eq!(
            doc.get("copy").unwrap().get("x").unwrap().value,
            Value::Int(1)
        );
    }

    #[test]
    fn json_is_accepted() {
        let doc = parse(r#"{"agent": {"id": "a", "backend": {"type": "scripted"}}}"#)
            .unwrap()
            .root
            .unwrap();
        assert!(doc.get("agent").unwrap().get("backend").is_some());
    }
}
