//! Loads an eval dataset: JSONL (one question per line), a JSON list of the same objects, or a
//! question/answer CSV, including the multiple-choice exports of public benchmarks (MMLU,
//! ARC, HellaSwag). Chosen by extension, else by the first character.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use serde_json::{Map, Value};

use crate::eval::csv_table::{self, CsvRecord};
use crate::eval::item_fields::{ANSWER_KEYS, FieldError, QUESTION_KEYS, item_from};
use crate::eval::record::Item;

/// Why a dataset cannot be used: where (file and line) and how to fix it.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetError {
    /// The file, or an embedded dataset's name.
    pub file: String,
    /// "line 3" (JSONL, CSV), "record 2" (JSON list), or `None` for the whole file.
    pub place: Option<String>,
    pub problem: String,
    pub fix: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "dataset {}", self.file)?;
        if let Some(place) = &self.place {
            write!(formatter, ", {place}")?;
        }
        write!(formatter, ": {}; {}", self.problem, self.fix)
    }
}

impl std::error::Error for DatasetError {}

/// The items of the dataset file at `path`.
pub fn load(path: &Path) -> Result<Vec<Item>, DatasetError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| DatasetError {
        file: name.clone(),
        place: None,
        problem: format!("cannot be read ({error})"),
        fix: "check the path, and that the file is UTF-8 text".into(),
    })?;
    load_text(&text, &name)
}

/// The items of a dataset given as text; `name` (a file name) picks the format by its
/// extension and names the dataset in errors.
pub fn load_text(text: &str, name: &str) -> Result<Vec<Item>, DatasetError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let located = match detect(text, name) {
        Format::JsonLines => json_lines(text),
        Format::JsonList => json_list(text),
        Format::Csv => csv(text),
    }
    .map_err(|(place, error)| DatasetError {
        file: name.to_string(),
        place,
        problem: error.problem,
        fix: error.fix,
    })?;
    check_ids(located, name)
}

enum Format {
    JsonLines,
    JsonList,
    Csv,
}

fn detect(text: &str, name: &str) -> Format {
    let extension = Path::new(name)
        .extension()
        .map(|extension| extension.to_string_lossy().to_ascii_lowercase());
    let first = text.trim_start().chars().next();
    match (extension.as_deref(), first) {
        (Some("csv"), _) => Format::Csv,
        (Some("jsonl" | "ndjson"), _) => Format::JsonLines,
        (_, Some('[')) => Format::JsonList,
        (Some("json"), _) | (_, Some('{')) => Format::JsonLines,
        _ => Format::Csv,
    }
}

/// An item with the place it came from ("line 4"), for errors about it.
type Located = Vec<(String, Item)>;
type Failure = (Option<String>, FieldError);

fn json_lines(text: &str) -> Result<Located, Failure> {
    let mut items = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let number = index + 1;
        let place = format!("line {number}");
        let record = json_object(line, &place)?;
        let item = item_from(&record, number).map_err(|error| (Some(place.clone()), error))?;
        items.push((place, item));
    }
    Ok(items)
}

fn json_list(text: &str) -> Result<Located, Failure> {
    let value: Value = serde_json::from_str(text).map_err(|error| {
        let fix = "write a JSON list of objects, or one object per line (JSONL)";
        (
            Some(format!("line {}", error.line())),
            FieldError {
                problem: format!("not valid JSON ({error})"),
                fix: fix.into(),
            },
        )
    })?;
    let entries = value.as_array().cloned().unwrap_or_default();
    let mut items = Vec::new();
    for (index, entry) in entries.into_iter().enumerate() {
        let number = index + 1;
        let place = format!("record {number}");
        let Value::Object(record) = entry else {
            return Err((Some(place), not_an_object()));
        };
        let item = item_from(&record, number).map_err(|error| (Some(place.clone()), error))?;
        items.push((place, item));
    }
    Ok(items)
}

fn json_object(line: &str, place: &str) -> Result<Map<String, Value>, Failure> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(record)) => Ok(record),
        Ok(_) => Err((Some(place.to_string()), not_an_object())),
        Err(error) => Err((
            Some(place.to_string()),
            FieldError {
                problem: format!("not valid JSON ({error})"),
                fix: "write one JSON object per line, with no line breaks inside it".into(),
            },
        )),
    }
}

fn not_an_object() -> FieldError {
    FieldError {
        problem: "not a JSON object".into(),
        fix: "write each item as an object such as {\"question\": \"…\", \"answer\": \"…\"}".into(),
    }
}

/// A CSV with a header row. Columns are found by name (case-insensitively): the question,
/// the answer, optional `id` and `scorer`, and multiple-choice options as columns `A`, `B`, ….
/// Ids default to the data row's number (the first row under the header is 1).
fn csv(text: &str) -> Result<Located, Failure> {
    let records = csv_table::parse(text).map_err(|error| {
        let place = Some(format!("line {}", error.line));
        (
            place,
            FieldError {
                problem: error.problem,
                fix: error.fix,
            },
        )
    })?;
    let mut rows = records.into_iter();
    let Some(header) = rows.next() else {
        return Ok(Vec::new());
    };
    let columns = CsvColumns::from_header(&header)?;
    let mut items = Vec::new();
    for (index, row) in rows.enumerate() {
        let place = format!("line {}", row.line);
        if row.fields.len() != header.fields.len() {
            let problem = format!(
                "the row has {} fields, the header {}",
                row.fields.len(),
                header.fields.len()
            );
            let fix = "quote fields that hold commas or line breaks (\"a, b\")";
            return Err((
                Some(place),
                FieldError {
                    problem,
                    fix: fix.into(),
                },
            ));
        }
        let item = item_from(&columns.record(&row.fields), index + 1)
            .map_err(|error| (Some(place.clone()), error))?;
        items.push((place, item));
    }
    Ok(items)
}

struct CsvColumns {
    named: Vec<(&'static str, usize)>,
    choices: Vec<usize>,
}

impl CsvColumns {
    fn from_header(header: &CsvRecord) -> Result<Self, Failure> {
        let position = |names: &[&str]| {
            names.iter().find_map(|name| {
                header
                    .fields
                    .iter()
                    .position(|h| h.trim().eq_ignore_ascii_case(name))
            })
        };
        let missing = |what: &str, names: &[&str]| {
            let found = header.fields.join(", ");
            let problem = format!("the header ({found}) names no {what} column");
            let fix = format!("name the {what} column one of: {}", names.join(", "));
            (Some("line 1".to_string()), FieldError { problem, fix })
        };
        let question = position(QUESTION_KEYS).ok_or_else(|| missing("question", QUESTION_KEYS))?;
        let answer = position(ANSWER_KEYS).ok_or_else(|| missing("answer", ANSWER_KEYS))?;
        let mut named = vec![("question", question), ("answer", answer)];
        named.extend(position(&["id"]).map(|column| ("id", column)));
        named.extend(position(&["scorer"]).map(|column| ("scorer", column)));
        let choices = (b'A'..=b'Z')
            .map(|letter| position(&[char::from(letter).to_string().as_str()]))
            .take_while(Option::is_some)
            .flatten()
            .collect();
        Ok(CsvColumns { named, choices })
    }

    /// The row as the JSON object a JSONL line would give.
    fn record(&self, fields: &[String]) -> Map<String, Value> {
        let text = |column: usize| Value::String(fields[column].clone());
        let mut record: Map<String, Value> = self
            .named
            .iter()
            .map(|(name, column)| (name.to_string(), text(*column)))
            .collect();
        if !self.choices.is_empty() {
            let choices = self.choices.iter().map(|&column| text(column)).collect();
            record.insert("choices".into(), Value::Array(choices));
        }
        record
    }
}

/// The items in order once every id is unique and there is at least one.
fn check_ids(located: Located, name: &str) -> Result<Vec<Item>, DatasetError> {
    if located.is_empty() {
        return Err(DatasetError {
            file: name.to_string(),
            place: None,
            problem: "it holds no items".into(),
            fix: "add at least one question with its answer".into(),
        });
    }
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (place, item) in &located {
        if let Some(first) = seen.insert(&item.id, place) {
            return Err(DatasetError {
                file: name.to_string(),
                place: Some(place.clone()),
                problem: format!("the id `{}` is already used on {first}", item.id),
                fix: "give every item its own id".into(),
            });
        }
    }
    Ok(located.into_iter().map(|(_, item)| item).collect())
}

#[cfg(test)]
#[path = "dataset_tests.rs"]
mod tests;
