//! Reads one dataset record (a JSON object, or a CSV row put in that shape) into an `Item`:
//! the field names public benchmark exports use, their forms of choices, and answers given
//! as a letter, a label, a 0-based index or the choice's text.

use serde_json::{Map, Value};

use crate::eval::record::Item;
use crate::eval::score::Scorer;

/// Names a question goes by, in order of preference (matched case-insensitively).
pub const QUESTION_KEYS: &[&str] = &[
    "question", "stem", "query", "prompt", "input", "problem", "ctx",
];
/// Names a reference answer goes by, in order of preference (matched case-insensitively).
pub const ANSWER_KEYS: &[&str] = &[
    "answer",
    "answerKey",
    "label",
    "target",
    "output",
    "solution",
];
const CHOICE_KEYS: &[&str] = &["choices", "options", "endings"];

/// What is wrong with one record and how to fix it.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub problem: String,
    pub fix: String,
}

impl FieldError {
    fn new(problem: impl Into<String>, fix: impl Into<String>) -> Self {
        FieldError {
            problem: problem.into(),
            fix: fix.into(),
        }
    }
}

/// The item `record` describes; `default_id` (its line or row number) when it has no id.
pub fn item_from(record: &Map<String, Value>, default_id: usize) -> Result<Item, FieldError> {
    let (question, nested_choices) = question_of(record)?;
    let (texts, labels) = match field(record, CHOICE_KEYS).or(nested_choices) {
        Some(value) => choices_of(value)?,
        None => (Vec::new(), None),
    };
    let Some(answer) = field(record, ANSWER_KEYS) else {
        return Err(FieldError::new(
            "the record has no answer",
            format!(
                "give the reference answer as one of: {}",
                ANSWER_KEYS.join(", ")
            ),
        ));
    };
    let answer = if texts.is_empty() {
        plain_answer(answer)?
    } else {
        choice_answer(answer, &texts, labels.as_deref())?
    };
    Ok(Item {
        id: id_of(record)?.unwrap_or_else(|| default_id.to_string()),
        question,
        answer,
        choices: texts,
        scorer: scorer_of(record)?,
    })
}

/// The value of the first of `keys` the record has (case-insensitive), skipping nulls.
fn field<'a>(record: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|key| {
        record
            .iter()
            .find(|(name, value)| name.eq_ignore_ascii_case(key) && !value.is_null())
            .map(|(_, value)| value)
    })
}

/// The question text, and the choices when the question is ARC's `{stem, choices}` object.
fn question_of(record: &Map<String, Value>) -> Result<(String, Option<&Value>), FieldError> {
    let missing = || {
        FieldError::new(
            "the record has no question",
            format!("give the question as one of: {}", QUESTION_KEYS.join(", ")),
        )
    };
    let (text, choices) = match field(record, QUESTION_KEYS).ok_or_else(missing)? {
        Value::String(text) => (text.clone(), None),
        Value::Object(inner) => match field(inner, &["stem", "question", "text"]) {
            Some(Value::String(text)) => (text.clone(), field(inner, CHOICE_KEYS)),
            _ => return Err(missing()),
        },
        _ => {
            return Err(FieldError::new(
                "the question is not text",
                "write the question as a JSON string",
            ));
        }
    };
    if text.trim().is_empty() {
        return Err(FieldError::new(
            "the question is empty",
            "write the question",
        ));
    }
    Ok((text, choices))
}

/// The choices' texts in order and their dataset labels when it gives any. Accepts a list of
/// texts, a list of `{label, text}` objects, `{"label": [..], "text": [..]}`, or
/// `{"A": text, "B": text}`.
fn choices_of(value: &Value) -> Result<(Vec<String>, Option<Vec<String>>), FieldError> {
    let unreadable = || {
        FieldError::new(
            "the choices are in a form this reader does not know",
            "give choices as a list of texts, or as {\"label\": [..], \"text\": [..]}",
        )
    };
    let (texts, labels): (Vec<String>, Option<Vec<String>>) = match value {
        Value::Array(entries) if entries.iter().all(Value::is_object) && !entries.is_empty() => {
            let mut texts = Vec::new();
            let mut labels = Vec::new();
            for entry in entries {
                let object = entry.as_object().ok_or_else(unreadable)?;
                texts.push(
                    field(object, &["text"])
                        .and_then(text_of)
                        .ok_or_else(unreadable)?,
                );
                labels.extend(field(object, &["label"]).and_then(text_of));
            }
            let labels = (labels.len() == texts.len()).then_some(labels);
            (texts, labels)
        }
        Value::Array(entries) => (
            entries
                .iter()
                .map(text_of)
                .collect::<Option<_>>()
                .ok_or_else(unreadable)?,
            None,
        ),
        Value::Object(object) => match (field(object, &["text"]), field(object, &["label"])) {
            (Some(Value::Array(texts)), labels) => {
                let texts: Vec<String> = texts
                    .iter()
                    .map(text_of)
                    .collect::<Option<_>>()
                    .ok_or_else(unreadable)?;
                let labels = match labels {
                    Some(Value::Array(labels)) if labels.len() == texts.len() => {
                        labels.iter().map(text_of).collect::<Option<Vec<_>>>()
                    }
                    _ => None,
                };
                (texts, labels)
            }
            _ => {
                let texts = object.values().map(text_of).collect::<Option<_>>();
                (
                    texts.ok_or_else(unreadable)?,
                    Some(object.keys().cloned().collect()),
                )
            }
        },
        _ => return Err(unreadable()),
    };
    if texts.len() > 26 {
        return Err(FieldError::new(
            format!("{} choices; at most 26 can be lettered A–Z", texts.len()),
            "split the question or drop choices",
        ));
    }
    Ok((texts, labels))
}

fn text_of(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// A free-form reference answer; GSM8K-style worked answers keep only what follows `####`.
fn plain_answer(value: &Value) -> Result<String, FieldError> {
    let text = text_of(value).ok_or_else(|| {
        FieldError::new(
            "the answer is not text or a number",
            "write the answer as a string",
        )
    })?;
    let text = match text.rsplit_once("####") {
        Some((_, last)) => last.trim().to_string(),
        None => text.trim().to_string(),
    };
    if text.is_empty() {
        return Err(FieldError::new(
            "the answer is empty",
            "write the reference answer",
        ));
    }
    Ok(text)
}

/// The correct choice's letter from a dataset label ("1" in some ARC items), a letter, a
/// 0-based index (a number, or digits as HellaSwag's `label`), or the choice's text.
fn choice_answer(
    value: &Value,
    texts: &[String],
    labels: Option<&[String]>,
) -> Result<String, FieldError> {
    let letter = |index: usize| char::from(b'A' + index as u8).to_string();
    let in_range = |index: usize| index < texts.len();
    let index = match value {
        Value::Number(number) => number.as_u64().map(|n| n as usize).filter(|&n| in_range(n)),
        Value::String(raw) => {
            let raw = raw.trim();
            let by_label = labels.and_then(|labels| labels.iter().position(|l| l.trim() == raw));
            let by_letter = match raw.as_bytes() {
                [byte] if byte.is_ascii_alphabetic() => {
                    Some(usize::from(byte.to_ascii_uppercase() - b'A')).filter(|&n| in_range(n))
                }
                _ => None,
            };
            let by_index = raw.parse::<usize>().ok().filter(|&n| in_range(n));
            let by_text = texts
                .iter()
                .position(|text| text.trim().eq_ignore_ascii_case(raw));
            by_label.or(by_letter).or(by_index).or(by_text)
        }
        _ => None,
    };
    index.map(letter).ok_or_else(|| {
        FieldError::new(
            format!("the answer {value} is none of the {} choices", texts.len()),
            format!(
                "give the answer as a letter A–{}, a 0-based index, or a choice's exact text",
                letter(texts.len() - 1)
            ),
        )
    })
}

fn id_of(record: &Map<String, Value>) -> Result<Option<String>, FieldError> {
    match field(record, &["id"]) {
        None => Ok(None),
        Some(value) => match text_of(value) {
            Some(id) if id.trim().is_empty() => Ok(None),
            Some(id) => Ok(Some(id.trim().to_string())),
            None => Err(FieldError::new(
                "the id is not text or a number",
                "write the id as a string, or leave it out to use the line number",
            )),
        },
    }
}

fn scorer_of(record: &Map<String, Value>) -> Result<Option<String>, FieldError> {
    let Some(value) = field(record, &["scorer"]) else {
        return Ok(None);
    };
    let Some(spec) = value
        .as_str()
        .map(str::trim)
        .filter(|spec| !spec.is_empty())
    else {
        return Ok(None);
    };
    Scorer::parse(spec).map_err(|problem| {
        FieldError::new(
            problem,
            "use exact, normalised, number, number:TOLERANCE, choice, regex:PATTERN or judge",
        )
    })?;
    Ok(Some(spec.to_string()))
}
