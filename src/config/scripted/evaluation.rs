//! The scripted option `post_evaluation`: what the model decides each time it checks its
//! final answer as the winner.
//!
//! ```yaml
//! post_evaluation:
//!   - {restart: "The answer cites no source", instructions: "Cite an official source"}
//!   - submit        # later checks submit (also the default); `none` makes no decision
//! ```

use serde_json::json;

use super::ScriptedToolCall;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::yaml_node::Value;

/// One decision per check, in order; `None` = no decision at all.
pub(super) fn parse_post_evaluation(
    backend: &Fields<'_>,
) -> Result<Vec<Option<ScriptedToolCall>>, Problem> {
    let Some(node) = backend.get("post_evaluation") else {
        return Ok(Vec::new());
    };
    let example = "post_evaluation: [{restart: \"why\", instructions: \"what to do\"}, submit]";
    let Value::Seq(items) = &node.value else {
        return Err(backend.wrong_type("post_evaluation", node, "a list", example));
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let path = format!("{}[{index}]", backend.key_path("post_evaluation"));
            match item.as_str().map(str::trim) {
                Some("submit") => Ok(Some(ScriptedToolCall {
                    name: "submit".into(),
                    arguments: json!({"confirmed": true}),
                })),
                Some("none") => Ok(None),
                Some(other) => Err(Problem::at(
                    item.loc,
                    format!("`{path}` is \"{other}\"; use submit, none or {{restart, instructions}}"),
                )),
                None => {
                    let decision = Fields::of(item, path)?;
                    Ok(Some(ScriptedToolCall {
                        name: "restart_orchestration".into(),
                        arguments: json!({
                            "reason": decision.required_string("restart", "the answer is incomplete")?,
                            "instructions": decision
                                .string("instructions")?
                                .unwrap_or_else(|| "Do better.".into()),
                        }),
                    }))
                }
            }
        })
        .collect()
}
