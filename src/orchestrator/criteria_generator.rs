//! `evaluation_criteria_generator`: before the first round one model call writes
//! task-specific checklist criteria (MassGen's opinionated-criteria request and its reading
//! of the reply: JSON, or JSON in a code fence, or the `{"criteria"` object in prose; the
//! count within `min_criteria`–`max_criteria`; at most one `primary`).

use std::sync::Arc;

use serde_json::Value;

use super::model_call::{ModelLink, TextRole};
use crate::backend::Message;
use crate::config::CriteriaGenerator;
use crate::protocol::{EvalCriterion, category_of};

/// The request for criteria for `task`.
pub fn prompt(task: &str, counts: CriteriaGenerator) -> String {
    let (min, max) = (counts.min_criteria, counts.max_criteria);
    format!(
        "You are writing the evaluation criteria a team of AI agents will score their answers \
         against.\n\n## Task\n{task}\n\n## What to write\n\
         Write {min} to {max} opinionated criteria that say what excellent work looks like for \
         THIS task. A criterion takes a position on what \"good\" means and names the common \
         ways this kind of output goes wrong; a bare dimension label (\"clear writing\") is \
         too generic. First think about what the best examples of this kind of work do, where \
         AI output on it usually falls short, and what a domain expert would notice first.\n\n\
         ## Rules\n\
         1. Between {min} and {max} criteria, each specific to this task and scoreable 0-10 \
         from evidence.\n\
         2. Exactly one criterion has category \"primary\": the quality where default model \
         output is weakest. The others are \"standard\" (must pass) or \"stretch\" (nice to \
         have).\n\
         3. The criteria cover distinct dimensions (content, correctness as the user \
         experiences it, craft), and at least one judges every significant part on its own, \
         not the average.\n\n\
         ## Output\nReply with JSON only, in this shape:\n\
         {{\"aspiration\": \"what remarkable output would be, in a phrase\", \"criteria\": \
         [{{\"text\": \"...\", \"category\": \"primary\", \"anti_patterns\": [\"...\"]}}, \
         {{\"text\": \"...\", \"category\": \"standard\"}}]}}"
    )
}

/// The criteria in `reply`, or `None` when it holds no usable list.
pub fn parse_reply(reply: &str, counts: CriteriaGenerator) -> Option<Vec<EvalCriterion>> {
    let data = find_json(reply.trim())?;
    let Value::Array(items) = data.get("criteria")? else {
        return None;
    };
    let count = u32::try_from(items.len()).unwrap_or(u32::MAX);
    if count < counts.min_criteria || count > counts.max_criteria {
        tracing::warn!(
            count,
            min = counts.min_criteria,
            max = counts.max_criteria,
            "evaluation criteria generator: criteria count out of range"
        );
        return None;
    }
    let mut seen_primary = false;
    let criteria = items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let text = item
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim();
            let mut category = category_of(item.get("category"));
            if category == "primary" {
                if seen_primary {
                    category = "standard";
                }
                seen_primary = true;
            }
            EvalCriterion {
                id: format!("E{}", index + 1),
                category: category.to_string(),
                text: text.to_string(),
            }
        })
        .collect();
    Some(criteria)
}

fn find_json(text: &str) -> Option<Value> {
    let parse = |candidate: &str| serde_json::from_str::<Value>(candidate.trim()).ok();
    if let Some(value) = parse(text) {
        return Some(value);
    }
    if let Some(value) = fenced(text).and_then(parse) {
        return Some(value);
    }
    let start = text.find("{\"criteria\"")?;
    let mut depth = 0_i32;
    for (offset, character) in text[start..].char_indices() {
        match character {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return parse(&text[start..=start + offset]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The body of the first code fence (a ```json one first).
fn fenced(text: &str) -> Option<&str> {
    let (start, skip) = match text.find("```json") {
        Some(start) => (start, 7),
        None => (text.find("```")?, 3),
    };
    let body = &text[start + skip..];
    body.find("```").map(|end| &body[..end])
}

/// Asks the model behind `model`; `Err` says why no criteria came (the call failed, or the
/// reply held none).
pub async fn ask(
    model: &ModelLink,
    task: &str,
    counts: CriteriaGenerator,
) -> Result<Vec<EvalCriterion>, String> {
    let messages = Arc::new(vec![Message::user(prompt(task, counts))]);
    let result = match model.call_model(&messages, &[], TextRole::Quiet).await {
        Ok(turn) => parse_reply(&turn.text, counts).ok_or_else(|| {
            format!(
                "its reply held no list of {}–{} criteria",
                counts.min_criteria, counts.max_criteria
            )
        }),
        Err(error) => Err(format!("the call failed: {error}")),
    };
    model.report_spent();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNTS: CriteriaGenerator = CriteriaGenerator {
        min_criteria: 2,
        max_criteria: 3,
    };

    #[test]
    fn reads_bare_fenced_and_embedded_json_and_keeps_one_primary() {
        let body = r#"{"criteria": [{"text": "A", "category": "primary"}, {"text": "B", "category": "primary"}, {"text": "C", "category": "could"}]}"#;
        for reply in [
            body.to_string(),
            format!("Here:\n```json\n{body}\n```"),
            format!("Thinking first. {body} Done."),
        ] {
            let criteria = parse_reply(&reply, COUNTS).unwrap();
            let got: Vec<(&str, &str)> = criteria
                .iter()
                .map(|c| (c.id.as_str(), c.category.as_str()))
                .collect();
            assert_eq!(
                got,
                [("E1", "primary"), ("E2", "standard"), ("E3", "stretch")]
            );
        }
    }

    #[test]
    fn too_few_too_many_or_no_json_is_none() {
        assert!(parse_reply(r#"{"criteria": [{"text": "A"}]}"#, COUNTS).is_none());
        let four = r#"{"criteria": [{"text": "A"}, {"text": "B"}, {"text": "C"}, {"text": "D"}]}"#;
        assert!(parse_reply(four, COUNTS).is_none());
        assert!(parse_reply("no criteria here", COUNTS).is_none());
        assert!(prompt("Write a poem", COUNTS).contains("Write 2 to 3 opinionated criteria"));
    }
}
