//! `criteria_mode: bootstrap_subagent`'s critic: one model call that reads the task and
//! every agent's latest answer and proposes criteria those answers do not yet meet
//! (MassGen 0.1.97's discriminator request, asked in one call instead of a subagent; its
//! reply read as `evaluation_criteria_generator`'s, 1–10 criteria as MassGen reads it).

use std::sync::Arc;

use super::criteria_generator;
use super::model_call::{ModelLink, TextRole};
use crate::backend::Message;
use crate::config::CriteriaGenerator;
use crate::protocol::{AgentId, EvalCriterion};

/// How much of each answer the critic reads (MassGen's cut).
const ANSWER_PREVIEW_CHARS: usize = 4000;

/// How many criteria MassGen accepts from the critic's reply.
const READ_COUNTS: CriteriaGenerator = CriteriaGenerator {
    min_criteria: 1,
    max_criteria: 10,
};

/// The critic's request: the task, each agent's latest answer (cut at 4000 characters),
/// the criteria already proposed, and what to reply.
pub fn prompt(task: &str, answers: &[(AgentId, String)], proposed: &[String]) -> String {
    let mut parts = vec![
        "You are a discriminative critic for a multi-agent coordination system.".to_string(),
        "Your job: emit evaluation criteria the CURRENT ANSWERS fail to satisfy.".to_string(),
        String::new(),
        format!("# Task\n{task}"),
        String::new(),
        "# Current Answers".to_string(),
    ];
    for (agent, content) in answers {
        parts.push(format!("\n## {agent}\n{}", preview(content)));
    }
    if !proposed.is_empty() {
        parts.push("\n# Criteria already proposed (do not repeat)".to_string());
        parts.extend(proposed.iter().map(|text| format!("- {text}")));
    }
    parts.push(
        "\n# Your Output\n\
         Reply with a JSON object only: {\"aspiration\": \"<one-sentence vision of an ideal \
         answer>\", \"criteria\": [{\"text\": \"...\", \"category\": \
         \"primary|standard|stretch\", \"anti_patterns\": [\"...\"]}, ...]}. \
         Each criterion must (a) take a position on what 'good' means on a specific \
         dimension, not a dimension label; (b) describe a quality the current answers do NOT \
         fully achieve; (c) be reusable for future similar tasks, not specific to this exact \
         wording. Emit 2-5 criteria.\n\n\
         Do not run a refinement loop. One pass is enough. Just analyze the answers and \
         reply with the JSON."
            .to_string(),
    );
    parts.join("\n")
}

fn preview(content: &str) -> String {
    match content.char_indices().nth(ANSWER_PREVIEW_CHARS) {
        Some((cut, _)) => format!("{}...", &content[..cut]),
        None => content.to_string(),
    }
}

/// The criteria in the critic's `reply`, or `None` when it holds none.
pub fn parse_reply(reply: &str) -> Option<Vec<EvalCriterion>> {
    criteria_generator::parse_reply(reply, READ_COUNTS)
        .map(|criteria| {
            criteria
                .into_iter()
                .filter(|criterion| !criterion.text.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|criteria| !criteria.is_empty())
}

/// Asks the model behind `model`; `Err` says why no criteria came (the call failed, or
/// the reply held none).
pub async fn ask(
    model: &ModelLink,
    task: &str,
    answers: &[(AgentId, String)],
    proposed: &[String],
) -> Result<Vec<EvalCriterion>, String> {
    let messages = Arc::new(vec![Message::user(prompt(task, answers, proposed))]);
    let result = match model.call_model(&messages, &[], TextRole::Quiet).await {
        Ok(turn) => parse_reply(&turn.text)
            .ok_or_else(|| "its reply held no list of 1–10 criteria".to_string()),
        Err(error) => Err(format!("the call failed: {error}")),
    };
    model.report_spent();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_shows_cut_answers_and_the_criteria_already_proposed() {
        let long = "x".repeat(ANSWER_PREVIEW_CHARS + 10);
        let answers = vec![
            (AgentId::new("a"), "short answer".to_string()),
            (AgentId::new("b"), long),
        ];
        let request = prompt("Write a poem", &answers, &["Rhymes".to_string()]);
        assert!(request.starts_with("You are a discriminative critic"));
        assert!(request.contains("# Task\nWrite a poem"));
        assert!(request.contains("## a\nshort answer"));
        assert!(request.contains(&format!("## b\n{}...", "x".repeat(ANSWER_PREVIEW_CHARS))));
        assert!(!request.contains(&"x".repeat(ANSWER_PREVIEW_CHARS + 1)));
        assert!(request.contains("# Criteria already proposed (do not repeat)\n- Rhymes"));
        assert!(!request.contains("criteria.json"));
        let none_yet = prompt("Write a poem", &answers, &[]);
        assert!(!none_yet.contains("already proposed"));
    }

    #[test]
    fn replies_are_read_as_the_generator_reads_them_from_one_to_ten() {
        let one = r#"Gaps: {"criteria": [{"text": "Names a source", "category": "primary"}]}"#;
        let criteria = parse_reply(one).unwrap();
        assert_eq!(criteria.len(), 1);
        assert_eq!(criteria[0].text, "Names a source");
        assert!(parse_reply("no gaps").is_none());
        assert!(parse_reply(r#"{"criteria": [{"text": " "}]}"#).is_none());
    }
}
