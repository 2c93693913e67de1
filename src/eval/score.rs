//! Scorers: whether an answer matches an item's reference (exact, normalised text, number
//! with tolerance, choice letter, regex, or a judge model the runner asks), and the key
//! self-consistency votes on.

use std::fmt;

use regex::Regex;

use crate::eval::extract::{
    answer_number, choice_letter, final_segment, normalise, number_text, whole_number,
};
use crate::eval::record::Item;

/// The tolerance of `number` without one: equal up to floating-point noise.
pub const DEFAULT_TOLERANCE: f64 = 1e-6;

/// How an answer is compared with the reference.
#[derive(Clone, Debug)]
pub enum Scorer {
    /// The trimmed answer equals the trimmed reference.
    Exact,
    /// The final answer equals the reference once both are normalised (lowercase, no
    /// punctuation, markdown or articles).
    Normalised,
    /// The answer's number (the first after an answer marker, else the last) is within `tolerance × max(1, |reference|)` of the reference:
    /// relative to the reference, and absolute for references below 1.
    Number { tolerance: f64 },
    /// The answer's choice letter is the reference letter.
    Choice,
    /// The final answer matches the pattern (anywhere, unless anchored).
    Regex(Regex),
    /// A judge model decides; `score` leaves it to the runner.
    Judge,
}

impl PartialEq for Scorer {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl fmt::Display for Scorer {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scorer::Exact => write!(formatter, "exact"),
            Scorer::Normalised => write!(formatter, "normalised"),
            Scorer::Number { tolerance } if *tolerance == DEFAULT_TOLERANCE => {
                write!(formatter, "number")
            }
            Scorer::Number { tolerance } => write!(formatter, "number:{tolerance}"),
            Scorer::Choice => write!(formatter, "choice"),
            Scorer::Regex(pattern) => write!(formatter, "regex:{}", pattern.as_str()),
            Scorer::Judge => write!(formatter, "judge"),
        }
    }
}

impl Scorer {
    /// A scorer from its name: `exact`, `normalised` (or `normalized`), `number`,
    /// `number:TOLERANCE` (0.01 = within 1 %), `choice`, `regex:PATTERN`, `judge`.
    pub fn parse(spec: &str) -> Result<Scorer, String> {
        let spec = spec.trim();
        let (name, argument) = match spec.split_once(':') {
            Some((name, argument)) => (name.trim(), Some(argument)),
            None => (spec, None),
        };
        let known =
            "use exact, normalised, number, number:TOLERANCE, choice, regex:PATTERN or judge";
        match (name.to_ascii_lowercase().as_str(), argument) {
            ("exact", None) => Ok(Scorer::Exact),
            ("normalised" | "normalized", None) => Ok(Scorer::Normalised),
            ("choice", None) => Ok(Scorer::Choice),
            ("judge", None) => Ok(Scorer::Judge),
            ("number", None) => Ok(Scorer::Number {
                tolerance: DEFAULT_TOLERANCE,
            }),
            ("number", Some(tolerance)) => match tolerance.trim().parse::<f64>() {
                Ok(tolerance) if tolerance.is_finite() && tolerance >= 0.0 => {
                    Ok(Scorer::Number { tolerance })
                }
                _ => Err(format!(
                    "scorer `{spec}`: the tolerance must be a number of 0 or more (number:0.01 \
                     accepts answers within 1 %)"
                )),
            },
            ("regex", Some(pattern)) => Regex::new(pattern)
                .map(Scorer::Regex)
                .map_err(|error| format!("scorer `{spec}`: the pattern is not valid: {error}")),
            ("regex", None) => Err(format!("scorer `{spec}` needs a pattern: regex:PATTERN")),
            _ => Err(format!("unknown scorer `{spec}`: {known}")),
        }
    }

    /// The scorer an item gets when neither it nor the run names one: choice when it has
    /// choices, number when its answer is a number, else normalised text.
    pub fn default_for(item: &Item) -> Scorer {
        if !item.choices.is_empty() {
            Scorer::Choice
        } else if whole_number(&item.answer).is_some() {
            Scorer::Number {
                tolerance: DEFAULT_TOLERANCE,
            }
        } else {
            Scorer::Normalised
        }
    }
}

/// Whether an answer is right, and what the scorer read from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    pub correct: bool,
    pub extracted: Option<String>,
}

/// Scores `answer` against `item`'s reference. `Judge` is never correct here: the runner
/// asks the judge model and records its verdict.
pub fn score(scorer: &Scorer, item: &Item, answer: &str) -> Scored {
    let (correct, extracted) = match scorer {
        Scorer::Exact => {
            let answer = answer.trim();
            (answer == item.answer.trim(), Some(answer.to_string()))
        }
        Scorer::Normalised => {
            let extracted = normalise(final_segment(answer));
            (extracted == normalise(&item.answer), Some(extracted))
        }
        Scorer::Number { tolerance } => {
            let reference = whole_number(&item.answer).or_else(|| answer_number(&item.answer));
            let value = answer_number(answer);
            let correct = match (value, reference) {
                (Some(value), Some(reference)) => {
                    (value - reference).abs() <= tolerance * reference.abs().max(1.0)
                }
                _ => false,
            };
            (correct, value.map(number_text))
        }
        Scorer::Choice => {
            let letter = choice_letter(answer, &item.choices);
            let reference = item.answer.trim().to_ascii_uppercase();
            let correct = letter.is_some_and(|letter| reference == letter.to_string());
            (correct, letter.map(String::from))
        }
        Scorer::Regex(pattern) => {
            let found = pattern.find(final_segment(answer));
            (
                found.is_some(),
                found.map(|found| found.as_str().to_string()),
            )
        }
        Scorer::Judge => (false, None),
    };
    Scored { correct, extracted }
}

/// What self-consistency samples vote on: the extracted letter or number, else the
/// normalised final answer. `None` when the answer gives nothing to vote for.
pub fn majority_key(scorer: &Scorer, item: &Item, answer: &str) -> Option<String> {
    let key = match scorer {
        Scorer::Choice | Scorer::Number { .. } => score(scorer, item, answer).extracted,
        Scorer::Exact => Some(answer.trim().to_string()),
        Scorer::Normalised | Scorer::Regex(_) | Scorer::Judge => {
            Some(normalise(final_segment(answer)))
        }
    };
    key.filter(|key| !key.is_empty())
}

#[cfg(test)]
#[path = "score_tests.rs"]
mod tests;
