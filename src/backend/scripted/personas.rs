//! The scripted model's reply to the persona generator's request: the configured
//! `personas` text as it is, else a persona for each agent the request names.

use serde_json::{Map, Value as Json, json};

use super::reading;
use crate::backend::ChatRequest;

/// The line of the request that names the agents (`Agent IDs: ["a","b"]`).
const AGENT_IDS: &str = "Agent IDs: ";

/// Whether this is the persona generator's request: no tools, and the agents named in
/// a user message that asks for `persona_text`.
pub fn is_persona_request(request: &ChatRequest) -> bool {
    request.tools.is_empty()
        && reading::user_says(request, AGENT_IDS)
        && reading::user_says(request, "\"persona_text\"")
}

/// `scripted` (the `personas` option), else a JSON persona for each agent named.
pub fn reply(request: &ChatRequest, scripted: Option<&str>) -> String {
    if let Some(text) = scripted {
        return text.to_string();
    }
    let ids: Vec<String> = request
        .messages
        .iter()
        .filter_map(|message| {
            message
                .content()
                .lines()
                .find_map(|line| line.strip_prefix(AGENT_IDS))
                .map(str::to_string)
        })
        .find_map(|ids| serde_json::from_str(&ids).ok())
        .unwrap_or_default();
    let personas: Map<String, Json> = ids
        .iter()
        .enumerate()
        .map(|(index, id)| {
            let style = STYLES[index % STYLES.len()];
            (
                id.clone(),
                json!({
                    "persona_text": format!(
                        "Approach the whole task as the {style} one: let that shape every \
                         choice, and deliver a complete answer."
                    ),
                    "attributes": {"approach_summary": format!("{style} lens")},
                }),
            )
        })
        .collect();
    json!({ "personas": personas }).to_string()
}

const STYLES: [&str; 4] = ["pragmatic", "meticulous", "inventive", "skeptical"];
