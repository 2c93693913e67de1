//! Reads the final answer out of a model's reply the way graders do: the text after the last
//! "Answer:" / "answer is" / "####" marker or inside `\boxed{}`, a choice letter, the last
//! number, and normalised text.

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// "The answer is", "Final answer:", "answer =", "####".
static MARKER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)\banswer\s*(?:is\b|:|=)\s*:?|####").ok());
static BOXED: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}").ok());
/// A choice letter right after an answer marker: "Answer: B", "answer is (B)", "answer is
/// **option B**".
static ANSWER_LETTER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i:\banswer\s*(?:is\b|:|=)?)\s*(?i:option|choice|letter)?\s*[:\-]?\s*[*_`(\[]*\s*([A-Z])\b",
    )
    .ok()
});
/// A letter named as an option: "option B", "choice (C)".
static OPTION_LETTER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i:\boption|\bchoice)\s*[*_`(\[]*([A-Z])\b").ok());
/// A letter set apart by markdown or brackets: "**B**", "**(B)**", "(B)", "\boxed{B}".
static SET_APART_LETTER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\*\*\(?([A-Z])\)?[.:]?\*\*|\(([A-Z])\)|\\boxed\{\s*(?:\\text\{)?([A-Z])\}?\s*\}")
        .ok()
});
/// A letter ending the reply: "I pick C.", "B", "`D`".
static TRAILING_LETTER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b([A-Z])[.)*`_]*\s*$").ok());
/// A number: signs, `$`, thousands commas, decimals, fractions (3/4, `\frac{3}{4}`), `%`.
static NUMBER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"\\d?frac\{([-+]?\d+(?:\.\d+)?)\}\{([-+]?\d+(?:\.\d+)?)\}|([-+−]?)\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:/(\d+(?:\.\d+)?))?(\s?%)?",
    )
    .ok()
});

fn captures<'t>(
    regex: &'static LazyLock<Option<Regex>>,
    text: &'t str,
) -> impl Iterator<Item = Captures<'t>> {
    regex
        .as_ref()
        .into_iter()
        .flat_map(move |regex| regex.captures_iter(text))
}

/// The part of `reply` that states the final answer: the rest of the line after the last
/// answer marker, or the last `\boxed{}`'s content when that comes later; the whole reply
/// (trimmed) when it has neither.
pub fn final_segment(reply: &str) -> &str {
    let marker = captures(&MARKER, reply)
        .last()
        .and_then(|found| found.get(0));
    let boxed = captures(&BOXED, reply)
        .last()
        .and_then(|found| found.get(1));
    match (marker, boxed) {
        (_, Some(boxed)) if marker.is_none_or(|marker| boxed.start() > marker.end()) => {
            boxed.as_str().trim()
        }
        (Some(marker), _) => {
            let rest = reply[marker.end()..].trim_start();
            rest.lines()
                .map(str::trim)
                .find(|line| !line.is_empty())
                .unwrap_or("")
        }
        _ => reply.trim(),
    }
}

/// The chosen letter of an item with `choices` (A, B, … one per choice; A–D when the item
/// lists none), the last one found: after an answer marker, else set apart by markdown or
/// brackets, else named as an option, else ending the reply, else the choice whose text the
/// reply names last.
pub fn choice_letter(reply: &str, choices: &[String]) -> Option<char> {
    let count = if choices.is_empty() { 4 } else { choices.len() };
    let valid =
        |letter: char| letter.is_ascii_uppercase() && ((letter as u8 - b'A') as usize) < count;
    let last_letter = |regex: &'static LazyLock<Option<Regex>>, text: &str| {
        captures(regex, text)
            .filter_map(|found| {
                let letter = found
                    .iter()
                    .skip(1)
                    .flatten()
                    .next()?
                    .as_str()
                    .chars()
                    .next()?;
                valid(letter).then_some(letter)
            })
            .last()
    };
    last_letter(&ANSWER_LETTER, reply)
        .or_else(|| last_letter(&SET_APART_LETTER, reply))
        .or_else(|| last_letter(&OPTION_LETTER, reply))
        .or_else(|| last_letter(&TRAILING_LETTER, reply.trim()))
        .or_else(|| named_choice(reply, choices))
}

/// The letter of the choice whose (normalised) text occurs last in the reply.
fn named_choice(reply: &str, choices: &[String]) -> Option<char> {
    let reply = format!(" {} ", normalise(reply));
    choices
        .iter()
        .enumerate()
        .filter_map(|(index, text)| {
            let text = normalise(text);
            let at = (!text.is_empty()).then(|| reply.rfind(&format!(" {text} ")))??;
            Some((at, text.len(), index))
        })
        .max()
        .map(|(_, _, index)| char::from(b'A' + index as u8))
}

/// The reply's number: the first one of its final segment when it marks one (as in "The
/// answer is 42 (6 × 7)"), else the last number of the whole reply.
pub fn answer_number(reply: &str) -> Option<f64> {
    let segment = final_segment(reply);
    let marked = segment.len() < reply.trim().len();
    let first_marked = if marked {
        numbers(segment).next()
    } else {
        None
    };
    first_marked.or_else(|| numbers(reply).last())
}

/// `text` as one number when it is nothing else ("1,234", "-3/4", "$5", "12.5 %").
pub fn whole_number(text: &str) -> Option<f64> {
    let text = text.trim();
    let found = captures(&NUMBER, text).next()?;
    let whole = found.get(0)?;
    (whole.start() == 0 && whole.end() == text.len()).then(|| number_value(text, &found))?
}

fn numbers(text: &str) -> impl Iterator<Item = f64> + '_ {
    captures(&NUMBER, text).filter_map(|found| number_value(text, &found))
}

fn number_value(text: &str, found: &Captures<'_>) -> Option<f64> {
    let parse =
        |index: usize| -> Option<f64> { found.get(index)?.as_str().replace(',', "").parse().ok() };
    if found.get(1).is_some() {
        let denominator = parse(2)?;
        return (denominator != 0.0).then(|| parse(1).map(|numerator| numerator / denominator))?;
    }
    let mut value = parse(4)?;
    if let Some(denominator) = found.get(5) {
        let denominator: f64 = denominator.as_str().parse().ok()?;
        if denominator == 0.0 {
            return None;
        }
        value /= denominator;
    }
    let start = found.get(0)?.start();
    let joined_to_a_word = text[..start]
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric);
    let negative = matches!(found.get(3).map(|sign| sign.as_str()), Some("-" | "−"));
    Some(if negative && !joined_to_a_word {
        -value
    } else {
        value
    })
}

/// A number as the extraction reports it: at most nine decimals, no trailing zeros.
pub fn number_text(value: f64) -> String {
    let text = format!("{value:.9}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".to_string(),
        _ => text.to_string(),
    }
}

/// Text as compared by the normalised scorer: lowercase, without markdown, punctuation or
/// the articles a/an/the, single spaces.
pub fn normalise(text: &str) -> String {
    let kept: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    kept.split_whitespace()
        .filter(|word| !matches!(*word, "a" | "an" | "the"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
pub(crate) fn patterns_compile() -> bool {
    [
        &MARKER,
        &BOXED,
        &ANSWER_LETTER,
        &OPTION_LETTER,
        &SET_APART_LETTER,
        &TRAILING_LETTER,
        &NUMBER,
    ]
    .iter()
    .all(|pattern| pattern.is_some())
}
