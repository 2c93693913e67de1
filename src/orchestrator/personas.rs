//! MassGen's persona generator (`coordination.persona_generator`): the request asking one
//! model for a persona per agent in the configured diversity mode, the reading of its JSON
//! reply, and the stock personas used when the call fails or the reply cannot be read.

use std::sync::Arc;

use serde_json::Value;

use super::model_call::{ModelLink, TextRole};
use crate::backend::Message;
use crate::config::{DiversityMode, PersonaGeneratorConfig};

/// One agent's persona: the text for its system message and the model's short summary of
/// it (`approach_summary`), when it gave one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedPersona {
    pub text: String,
    pub summary: Option<String>,
}

/// The personas of one turn, in the agents' order, and whether they are the stock ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Personas {
    pub by_agent: Vec<(String, GeneratedPersona)>,
    /// Why the stock personas stand in for generated ones, when they do.
    pub fallback_reason: Option<String>,
}

/// What an agent the reply leaves out is told, as MassGen does.
const MISSING_PERSONA: &str = "Approach this task thoughtfully and thoroughly.";
/// What a persona without `persona_text` says.
const EMPTY_PERSONA: &str = "Approach this task thoughtfully.";

/// The request: the task, the agents and their own instructions, and what kind of
/// difference the mode asks for.
pub fn request(
    config: &PersonaGeneratorConfig,
    task: &str,
    agents: &[(String, Option<String>)],
) -> String {
    let (difference, focus, examples) = match config.diversity_mode {
        DiversityMode::Perspective => (
            "PERSPECTIVE",
            "Give each agent a different lens on the problem: what it values most, which \
             tradeoffs it makes, what it will not compromise on. Perspectives are about WHAT \
             matters and WHY, never about how to implement.",
            "\"Serve the person who will use this every day\", \"Favour long-term \
             maintainability over convenience now\"",
        ),
        DiversityMode::Implementation => (
            "SOLUTION APPROACH",
            "Give each agent a different reading of what kind of solution to build: a \
             different form, experience, scope or mental model. Differ in the TYPE of \
             solution, not in implementation details.",
            "\"A single immersive page that tells a story\", \"A deep multi-page reference \
             with rich navigation\"",
        ),
        DiversityMode::Methodology => (
            "WORKING APPROACH",
            "Give each agent a different way of working: where it starts, how it structures \
             the work, what it does when stuck, how it treats risk. Differ in HOW the work is \
             done, not in what is valued or what is built.",
            "\"Tackle the riskiest part first\", \"Ship a minimal complete version, then \
             refine it in passes\"",
        ),
    };
    let agents_list: Vec<String> = agents
        .iter()
        .map(|(id, instruction)| match instruction {
            Some(text) if !text.trim().is_empty() => {
                format!("- {id}: has its own instruction: {}", text.trim())
            }
            _ => format!("- {id}: no instruction of its own"),
        })
        .collect();
    let ids: Vec<&str> = agents.iter().map(|(id, _)| id.as_str()).collect();
    let ids_json = serde_json::to_string(&ids).unwrap_or_default();
    let guidelines = config
        .guidelines
        .as_deref()
        .map(|text| format!("\n## Additional guidelines\n{text}\n"))
        .unwrap_or_default();
    format!(
        "You are giving {count} AI agents, who will work on one task in parallel, each a \
         different {difference}.\n\n## Task\n{task}\n\n## Agents\n{agents}\n{guidelines}\n\
         ## Goal\n{focus}\nExamples (make up your own for this task): {examples}.\n\n\
         ## Requirements\n\
         1. Keep each persona short: 3 to 5 sentences.\n\
         2. Prescribe no technologies, file layouts or code patterns.\n\
         3. Every agent solves the WHOLE task; never give one a narrow part of it.\n\
         4. Each persona insists on complete, end-to-end quality.\n\
         5. An agent with its own instruction keeps it; the persona adds to it.\n\n\
         ## Output\nReply with only this JSON:\n\
         {{\"personas\": {{\"<agent_id>\": {{\"persona_text\": \"...\", \
         \"attributes\": {{\"approach_summary\": \"2-3 word summary\"}}}}}}}}\n\n\
         Agent IDs: {ids_json}",
        count = agents.len(),
        agents = agents_list.join("\n"),
    )
}

/// Asks `model` (without tools) for the personas; a failed call or an unreadable reply
/// gives the stock personas, saying why. The call's usage counts like any other.
pub async fn generate(
    model: &ModelLink,
    config: &PersonaGeneratorConfig,
    prompt: String,
    agent_ids: &[String],
) -> Personas {
    let messages = Arc::new(vec![Message::user(prompt)]);
    let reply = model.call_model(&messages, &[], TextRole::Quiet).await;
    model.report_spent();
    let reason = match reply {
        Ok(turn) => match parse_reply(&turn.text, agent_ids) {
            Some(by_agent) => {
                return Personas {
                    by_agent,
                    fallback_reason: None,
                };
            }
            None => "its reply held no readable personas".to_string(),
        },
        Err(error) => format!("the call failed: {error}"),
    };
    Personas {
        by_agent: fallback(config.diversity_mode, agent_ids),
        fallback_reason: Some(reason),
    }
}

/// The personas in a reply: the whole reply as JSON, else a fenced block, else the object
/// that starts at `{"personas"`. `None` when none of these holds a `personas` object.
pub fn parse_reply(reply: &str, agent_ids: &[String]) -> Option<Vec<(String, GeneratedPersona)>> {
    let reply = reply.trim();
    let data = json(reply)
        .or_else(|| fenced(reply).and_then(json))
        .or_else(|| balanced_from(reply, "{\"personas\"").and_then(json))?;
    let personas = data.get("personas")?.as_object()?;
    Some(
        agent_ids
            .iter()
            .map(|id| {
                let persona = match personas.get(id) {
                    Some(entry) => GeneratedPersona {
                        text: entry
                            .get("persona_text")
                            .and_then(Value::as_str)
                            .map(str::trim)
                            .filter(|text| !text.is_empty())
                            .unwrap_or(EMPTY_PERSONA)
                            .to_string(),
                        summary: summary(entry.get("attributes")),
                    },
                    None => GeneratedPersona {
                        text: MISSING_PERSONA.into(),
                        summary: None,
                    },
                };
                (id.clone(), persona)
            })
            .collect(),
    )
}

fn json(text: &str) -> Option<Value> {
    serde_json::from_str::<Value>(text.trim())
        .ok()
        .filter(Value::is_object)
}

/// The body of the first ```json block, else of the first ``` block.
fn fenced(reply: &str) -> Option<&str> {
    let (start, skip) = match reply.find("```json") {
        Some(start) => (start, "```json".len()),
        None => (reply.find("```")?, 3),
    };
    let body = &reply[start + skip..];
    body.find("```").map(|end| &body[..end])
}

/// The brace-balanced object starting at `marker`.
fn balanced_from<'a>(reply: &'a str, marker: &str) -> Option<&'a str> {
    let start = reply.find(marker)?;
    let mut depth = 0usize;
    for (offset, character) in reply[start..].char_indices() {
        match character {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(&reply[start..=start + offset]);
                }
            }
            _ => {}
        }
    }
    None
}

/// `approach_summary`, else `thinking_style` (as MassGen shows them).
fn summary(attributes: Option<&Value>) -> Option<String> {
    let attributes = attributes?;
    ["approach_summary", "thinking_style"]
        .iter()
        .filter_map(|key| attributes.get(*key).and_then(Value::as_str))
        .map(str::trim)
        .find(|text| !text.is_empty())
        .map(str::to_string)
}

/// The stock personas, taken in turn: thinking styles, or working approaches in
/// methodology mode.
pub fn fallback(mode: DiversityMode, agent_ids: &[String]) -> Vec<(String, GeneratedPersona)> {
    let styles: &[(&str, &str)] = if mode == DiversityMode::Methodology {
        &METHODOLOGY_STYLES
    } else {
        &THINKING_STYLES
    };
    agent_ids
        .iter()
        .zip(styles.iter().cycle())
        .map(|(id, (style, text))| {
            (
                id.clone(),
                GeneratedPersona {
                    text: (*text).to_string(),
                    summary: Some((*style).to_string()),
                },
            )
        })
        .collect()
}

const THINKING_STYLES: [(&str, &str); 5] = [
    (
        "analytical",
        "Take the problem apart into its components and examine each with care. Reason from \
         evidence and let logic carry your conclusions.",
    ),
    (
        "creative",
        "Look for inventive solutions and unusual angles. Put forward fresh ideas others \
         might overlook.",
    ),
    (
        "systematic",
        "Work methodically and cover the ground completely. Keep your process consistent so \
         no important detail slips through.",
    ),
    (
        "critical",
        "Question the assumptions and hunt for weaknesses. Make the result robust by probing \
         where it could fail.",
    ),
    (
        "practical",
        "Keep real-world constraints and feasibility in view. Prefer what can actually be \
         done over theoretical ideals.",
    ),
];

const METHODOLOGY_STYLES: [(&str, &str); 5] = [
    (
        "top-down",
        "Sketch the whole structure first, then work from the big picture down to the \
         details, making sure the parts fit before going deep into any one of them.",
    ),
    (
        "risk-first",
        "Find the hardest or most uncertain part of the task and make it work first; \
         everything else is built once that part stands.",
    ),
    (
        "iterative",
        "Start with the simplest complete version that works, then improve it in passes, \
         each leaving something that runs.",
    ),
    (
        "example-driven",
        "Start from concrete examples of the output you want and work back from them to \
         what is needed, letting real cases shape the design.",
    ),
    (
        "foundation-first",
        "Lay a solid foundation with proven patterns first, and experiment only once it is \
         firm.",
    ),
];

#[cfg(test)]
#[path = "personas_tests.rs"]
mod tests;
