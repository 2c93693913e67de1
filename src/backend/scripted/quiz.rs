//! Quiz mode of the scripted model: it finds the question in an answer key, answers right
//! with the configured probability (seeded, so agents with different seeds err
//! independently) or gives a plausible wrong answer, and in a vote round votes for the
//! answer most of its peers agree with.

use std::sync::Arc;

use crate::config::QuizOptions;
use crate::seeded::Seeded;

/// The offline eval demo's questions, the same file `massgen eval @examples/eval-demo`
/// reads (the backend layer cannot reach the eval layer's copy).
const EVAL_DEMO: &str = include_str!("../../../assets/eval/eval-demo.jsonl");

/// How every quiz answer states its value, so peers (and graders) can read it back.
const MARKER: &str = "Answer:";

/// One question of the key.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyItem {
    pub question: String,
    pub answer: String,
    pub choices: Vec<String>,
}

/// An answer key: the questions of a JSONL file (`question`, `answer`, `choices`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnswerKey {
    items: Vec<KeyItem>,
}

impl AnswerKey {
    /// Reads `@examples/eval-demo` or a JSONL file.
    pub fn load(source: &str) -> Result<Arc<Self>, String> {
        let text = match source.strip_prefix("@examples/") {
            Some("eval-demo") => EVAL_DEMO.to_string(),
            Some(other) => {
                return Err(format!(
                    "quiz answers `@examples/{other}`: the only shipped answer key is \
                     @examples/eval-demo"
                ));
            }
            None => std::fs::read_to_string(source)
                .map_err(|error| format!("quiz answers `{source}`: {error}"))?,
        };
        Self::parse(&text)
            .map(Arc::new)
            .map_err(|error| format!("quiz answers `{source}`: {error}"))
    }

    pub fn parse(text: &str) -> Result<Self, String> {
        let mut items = Vec::new();
        for (index, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let value: serde_json::Value = serde_json::from_str(line)
                .map_err(|error| format!("line {}: {error}", index + 1))?;
            let text_of = |key: &str| match &value[key] {
                serde_json::Value::String(text) => Some(text.clone()),
                serde_json::Value::Number(number) => Some(number.to_string()),
                _ => None,
            };
            let (Some(question), Some(answer)) = (text_of("question"), text_of("answer")) else {
                return Err(format!(
                    "line {}: a quiz line needs `question` and `answer`",
                    index + 1
                ));
            };
            let choices = value["choices"]
                .as_array()
                .map(|choices| {
                    choices
                        .iter()
                        .filter_map(|choice| choice.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            items.push(KeyItem {
                question,
                answer,
                choices,
            });
        }
        Ok(Self { items })
    }

    /// The key's question the prompt asks: the longest one it contains.
    pub fn find(&self, prompt: &str) -> Option<&KeyItem> {
        self.items
            .iter()
            .filter(|item| !item.question.is_empty() && prompt.contains(item.question.as_str()))
            .max_by_key(|item| item.question.len())
    }

    /// Its answer to `item`: right with probability `accuracy`, else a plausible mistake.
    pub fn answer(&self, item: &KeyItem, options: &QuizOptions) -> String {
        let seed = options.seed.to_string();
        let mut rng = Seeded::from_parts(&[&seed, &item.question]);
        let value = if rng.chance(options.accuracy) {
            item.answer.clone()
        } else {
            self.mistake(item, &mut rng)
        };
        format!("{MARKER} {value}")
    }

    fn mistake(&self, item: &KeyItem, rng: &mut Seeded) -> String {
        if !item.choices.is_empty() {
            let letters: Vec<char> = ('A'..='Z')
                .take(item.choices.len())
                .filter(|letter| !item.answer.trim().eq_ignore_ascii_case(&letter.to_string()))
                .collect();
            return letters
                .get(rng.below(letters.len()))
                .map_or_else(|| item.answer.clone(), char::to_string);
        }
        if let Ok(number) = item.answer.trim().replace(',', "").parse::<f64>() {
            let step = 1 + rng.below(3);
            let sign = if rng.chance(0.5) { 1.0 } else { -1.0 };
            let off = if number.fract() == 0.0 {
                number + sign * step as f64
            } else {
                number * (1.0 + sign * 0.1 * step as f64)
            };
            return format_number(off);
        }
        let others: Vec<&KeyItem> = self
            .items
            .iter()
            .filter(|other| {
                other.choices.is_empty()
                    && other.answer.trim().parse::<f64>().is_err()
                    && !other.answer.eq_ignore_ascii_case(&item.answer)
            })
            .collect();
        others
            .get(rng.below(others.len()))
            .map_or_else(|| "I do not know".to_string(), |other| other.answer.clone())
    }
}

fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        let text = format!("{value:.4}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// What an answer says, for agreeing: the text after its last `Answer:`, lowercased,
/// without surrounding punctuation; the whole text when it has no marker.
pub fn stated_value(answer: &str) -> String {
    let lower = answer.to_lowercase();
    let marker = MARKER.to_lowercase();
    let value = lower
        .rfind(&marker)
        .map_or(lower.as_str(), |at| &lower[at + marker.len()..]);
    value
        .trim()
        .trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
        .to_string()
}

/// The anonymous id to vote for: an agent whose answer states the value most agree with,
/// counting the agent's own `intended` answer once (also when the orchestrator turned it
/// away as a copy of a peer's); on a tie, its own value. Its own id when it holds that value.
pub fn majority_vote(
    answers: &[(String, String)],
    own: Option<&str>,
    intended: &str,
) -> Option<String> {
    let values: Vec<(String, String)> = answers
        .iter()
        .map(|(anon, text)| (anon.clone(), stated_value(text)))
        .collect();
    let own_value = stated_value(intended);
    let posted = own.is_some_and(|own| values.iter().any(|(anon, _)| anon == own));
    let count = |value: &str| {
        values.iter().filter(|(_, v)| v == value).count()
            + usize::from(!posted && value == own_value)
    };
    let best = values.iter().map(|(_, value)| count(value)).max()?;
    let chosen = if count(&own_value) == best {
        own_value.clone()
    } else {
        values
            .iter()
            .find(|(_, value)| count(value) == best)
            .map(|(_, value)| value.clone())?
    };
    values
        .iter()
        .find(|(anon, value)| *value == chosen && Some(anon.as_str()) == own)
        .or_else(|| values.iter().find(|(_, value)| *value == chosen))
        .or_else(|| values.iter().find(|(_, value)| count(value) == best))
        .map(|(anon, _)| anon.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Arc<AnswerKey> {
        AnswerKey::load("@examples/eval-demo").unwrap()
    }

    fn quiz(accuracy: f64, seed: u64) -> QuizOptions {
        QuizOptions {
            answers: "@examples/eval-demo".into(),
            accuracy,
            seed,
        }
    }

    #[test]
    fn finds_the_question_inside_a_longer_prompt() {
        let key = key();
        let item = key
            .find("Answer briefly.\n\nWhat is the capital of Canada?\n\nEnd with Answer:")
            .unwrap();
        assert_eq!(item.answer, "Ottawa");
        assert!(key.find("an unrelated question").is_none());
    }

    #[test]
    fn accuracy_one_is_always_right_and_zero_never() {
        let key = key();
        for item in &key.items {
            assert_eq!(
                stated_value(&key.answer(item, &quiz(1.0, 1))),
                item.answer.to_lowercase()
            );
            let wrong = stated_value(&key.answer(item, &quiz(0.0, 1)));
            assert_ne!(wrong, item.answer.to_lowercase(), "{}", item.question);
        }
    }

    #[test]
    fn mistakes_are_plausible_and_seeds_err_independently() {
        let key = key();
        let choice = key.find("Which planet is closest to the Sun?").unwrap();
        let wrong = stated_value(&key.answer(choice, &quiz(0.0, 4)));
        assert!(["a", "c", "d"].contains(&wrong.as_str()), "{wrong}");
        let number = key.find("What is 17 + 25?").unwrap();
        let off: f64 = stated_value(&key.answer(number, &quiz(0.0, 4)))
            .parse()
            .unwrap();
        assert!((off - 42.0).abs() <= 3.0 && off != 42.0);
        let right = |seed| {
            key.items
                .iter()
                .map(|item| {
                    stated_value(&key.answer(item, &quiz(0.6, seed))) == item.answer.to_lowercase()
                })
                .collect::<Vec<_>>()
        };
        assert_ne!(
            right(1),
            right(2),
            "different seeds make different mistakes"
        );
        assert_eq!(right(1), right(1));
        let hits = right(1).iter().filter(|right| **right).count();
        assert!((12..=32).contains(&hits), "{hits} of 36 at accuracy 0.6");
    }

    #[test]
    fn votes_with_the_majority_and_keeps_its_own_on_a_tie() {
        let answers = |values: &[&str]| -> Vec<(String, String)> {
            values
                .iter()
                .enumerate()
                .map(|(index, value)| (format!("agent{}", index + 1), format!("Answer: {value}")))
                .collect()
        };
        let three = answers(&["B", "C", "c."]);
        let vote = |answers: &[(String, String)], own, intended| {
            majority_vote(answers, own, intended).unwrap_or_default()
        };
        assert_eq!(vote(&three, Some("agent1"), "Answer: B"), "agent2");
        assert_eq!(vote(&three, Some("agent3"), "Answer: C"), "agent3");
        let tie = answers(&["12", "13"]);
        assert_eq!(vote(&tie, Some("agent2"), "Answer: 13"), "agent2");
        // Its answer was turned away as a copy of agent2's: its value still counts.
        assert_eq!(vote(&tie, Some("agent3"), "Answer: 13"), "agent2");
        assert_eq!(vote(&tie, None, "Answer: 12"), "agent1");
        // Its own value is nobody's: the peers' first majority.
        assert_eq!(vote(&tie, Some("agent3"), "Answer: 99"), "agent1");
        assert!(majority_vote(&[], Some("agent1"), "Answer: 1").is_none());
    }

    #[test]
    fn a_key_file_must_hold_questions_and_answers() {
        assert!(AnswerKey::parse("{\"question\": \"q\"}").is_err());
        assert!(AnswerKey::parse("not json").is_err());
        let key = AnswerKey::parse("{\"question\": \"q?\", \"answer\": 3}\n\n").unwrap();
        assert_eq!(key.items[0].answer, "3");
        assert!(AnswerKey::load("@examples/nope").is_err());
    }
}
