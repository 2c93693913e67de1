//! Config planning mode (`coordination.enable_planning_mode`): before a turn one agent is
//! asked, without tools, whether the request involves irreversible MCP operations; while it
//! does, the named MCP tools (every one when none is named) are blocked until the final
//! presentation.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::model_call::{ModelLink, TextRole};
use crate::backend::Message;

/// MassGen's default `planning_mode_instruction`.
pub const DEFAULT_INSTRUCTION: &str = "During coordination, describe what you would do without \
     actually executing actions. Only provide concrete implementation details without calling \
     external APIs or tools.";

/// The result of the question: whether anything irreversible is involved, and which tools
/// to block (none named = all MCP tools).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    pub irreversible: bool,
    pub blocked_tools: BTreeSet<String>,
}

impl Decision {
    /// What MassGen assumes when the question cannot be asked or answered: everything
    /// might be irreversible, so every MCP tool is blocked.
    pub fn block_everything() -> Self {
        Self {
            irreversible: true,
            blocked_tools: BTreeSet::new(),
        }
    }

    /// Whether `tool` may not run during coordination. Only MCP tools (`mcp__…`) are ever
    /// blocked (the agents' own task-plan tools are exempted by whoever serves them).
    pub fn blocks(&self, tool: &str) -> bool {
        if !self.irreversible || !tool.starts_with("mcp__") {
            return false;
        }
        self.blocked_tools.is_empty() || self.blocked_tools.contains(tool)
    }
}

/// The result a blocked call returns to the model, as MassGen words it.
pub fn blocked_message(tool: &str) -> String {
    format!("🚫 [MCP] Tool '{tool}' blocked during coordination (planning mode active)")
}

/// The question asked before the turn.
pub fn analysis_prompt(question: &str, tools: &[String], isolated_workspaces: bool) -> String {
    let mut prompt = format!(
        "You are analyzing whether a user's request involves operations with irreversible \
         outcomes.\n\nUSER REQUEST:\n{question}\n\n\
         Tools are named mcp__<server>__<tool_name>. For example mcp__discord__discord_send \
         (sends a message: irreversible), mcp__discord__read_channel (reads: reversible), \
         mcp__twitter__post_tweet (publishes: irreversible).\n\n\
         IRREVERSIBLE OPERATIONS: sending messages or emails, posting or publishing, deleting \
         or modifying data outside the agents' own workspaces, creating permanent records, \
         commands that change the state of external systems.\n\
         REVERSIBLE OPERATIONS: reading, searching, listing, fetching, viewing, and file \
         operations inside the agents' own workspaces.\n"
    );
    if isolated_workspaces {
        prompt.push_str(
            "\nIMPORTANT - ISOLATED WORKSPACES: every agent works in its own workspace. File \
             operations there (mcp__filesystem__write_file and the like) are SAFE and must not \
             be blocked unless they target paths outside the workspaces.\n",
        );
    }
    if !tools.is_empty() {
        prompt.push_str("\nTools the agents have:\n");
        for tool in tools {
            prompt.push_str("- ");
            prompt.push_str(tool);
            prompt.push('\n');
        }
    }
    prompt.push_str(
        "\nRespond in this EXACT format:\nIRREVERSIBLE: YES/NO\nBLOCKED_TOOLS: tool1, tool2, \
         tool3\n\nIf IRREVERSIBLE is NO, leave BLOCKED_TOOLS empty.\nIf IRREVERSIBLE is YES, \
         list the specific MCP tool names that should be blocked (e.g., \
         mcp__discord__discord_send).\n\nYour answer:",
    );
    prompt
}

/// Reads the reply. A reply without an `IRREVERSIBLE:` line counts as YES: when in
/// doubt, block.
pub fn parse_reply(reply: &str) -> Decision {
    let mut irreversible = None;
    let mut blocked_tools = BTreeSet::new();
    for line in reply.lines() {
        let line = line.trim().trim_start_matches(['*', '-', '#', ' ']);
        let upper = line.to_ascii_uppercase();
        if let Some(value) = upper.strip_prefix("IRREVERSIBLE:") {
            irreversible = Some(value.trim_matches(['*', ' ']).starts_with("YES"));
        } else if upper.starts_with("BLOCKED_TOOLS:") {
            let names = &line["BLOCKED_TOOLS:".len()..];
            blocked_tools.extend(
                names
                    .split(',')
                    .map(|name| name.trim().trim_matches(['`', '"', '\'', '*', '[', ']']))
                    .filter(|name| !name.is_empty() && !name.eq_ignore_ascii_case("none"))
                    .map(str::to_string),
            );
        }
    }
    let irreversible = irreversible.unwrap_or(true);
    if !irreversible {
        blocked_tools.clear();
    }
    Decision {
        irreversible,
        blocked_tools,
    }
}

/// Asks the agent behind `model` and reads its reply; a failed call blocks everything.
pub async fn ask(model: &ModelLink, prompt: String) -> Decision {
    let messages = Arc::new(vec![Message::user(prompt)]);
    let decision = match model.call_model(&messages, &[], TextRole::Quiet).await {
        Ok(turn) => parse_reply(&turn.text),
        Err(error) => {
            tracing::warn!(%error, "planning mode: the analysis call failed; every MCP tool is blocked");
            Decision::block_everything()
        }
    };
    model.report_spent();
    decision
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_exact_format_and_blocks_what_it_names() {
        let decision = parse_reply(
            "IRREVERSIBLE: YES\nBLOCKED_TOOLS: mcp__discord__discord_send, `mcp__x__post`",
        );
        assert!(decision.irreversible);
        assert!(decision.blocks("mcp__discord__discord_send"));
        assert!(decision.blocks("mcp__x__post"));
        assert!(!decision.blocks("mcp__discord__read_channel"));
        assert!(!decision.blocks("vote"));
    }

    #[test]
    fn an_empty_list_blocks_every_mcp_tool() {
        let decision = parse_reply("**IRREVERSIBLE:** YES\nBLOCKED_TOOLS:");
        assert!(decision.irreversible);
        assert!(decision.blocks("mcp__filesystem__write_file"));
        assert!(decision.blocks("mcp__weather__get_forecast"));
        // A user server named like the task-plan tools is an MCP server like any other.
        assert!(decision.blocks("mcp__planning_api__post"));
        assert!(!decision.blocks("ask_others"));
        assert!(!decision.blocks("new_answer"));
    }

    #[test]
    fn no_means_nothing_is_blocked_even_with_names() {
        let decision = parse_reply("IRREVERSIBLE: NO\nBLOCKED_TOOLS: mcp__a__b");
        assert_eq!(decision, Decision::default());
        assert!(!decision.blocks("mcp__a__b"));
    }

    #[test]
    fn unparseable_replies_block_everything() {
        assert_eq!(parse_reply("I am not sure."), Decision::block_everything());
        assert_eq!(parse_reply(""), Decision::block_everything());
        assert!(parse_reply("Yes, this posts.").irreversible);
        // Without the format even a plain "No." is not trusted.
        assert!(parse_reply("No.").irreversible);
    }

    #[test]
    fn the_prompt_asks_for_the_exact_format() {
        let prompt = analysis_prompt("Post a tweet", &["mcp__x__post".into()], true);
        assert!(prompt.contains("USER REQUEST:\nPost a tweet"));
        assert!(prompt.contains("IRREVERSIBLE: YES/NO\nBLOCKED_TOOLS:"));
        assert!(prompt.contains("ISOLATED WORKSPACES"));
        assert!(prompt.contains("- mcp__x__post"));
        assert!(prompt.ends_with("Your answer:"));
    }
}
