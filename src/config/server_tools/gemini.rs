//! The warning for a Gemini agent whose built-in tools (`enable_web_search`,
//! `enable_code_execution`) will not be sent on some calls: the Gemini API takes built-in
//! tools beside function declarations only in Gemini 3's tool-combination mode, which
//! neither MassGen 0.1.97 nor massgen uses, so a call that offers any function but the
//! workflow tools goes without them (MassGen drops them silently). The warning names the
//! agent, the tools and the functions that push them out, and which calls lose them.

use crate::config::backend_kind::BackendKind;
use crate::config::parse::Note;
use crate::config::schema::{AgentConfig, OrchestratorConfig};
use crate::config::yaml_node::Node;
use crate::protocol::BroadcastTarget;

/// One note per Gemini agent that loses a built-in tool on some calls; `agents` pairs each
/// agent with its YAML node, for the location of the key that asked for the tool.
pub fn notes(agents: &[(AgentConfig, &Node)], orchestrator: &OrchestratorConfig) -> Vec<Note> {
    agents
        .iter()
        .filter_map(|(agent, node)| note(agent, node, orchestrator))
        .collect()
}

fn note(agent: &AgentConfig, node: &Node, orchestrator: &OrchestratorConfig) -> Option<Note> {
    let backend = &agent.backend;
    let enabled = backend.server_tools;
    if backend.kind != BackendKind::Gemini || !(enabled.web_search || enabled.code_execution) {
        return None;
    }
    let tools = &backend.tools;
    let coordination = &orchestrator.coordination;
    // Functions every call offers (the final presentation too).
    let mut always = Vec::new();
    if tools.cwd.is_some() {
        always.push("its file tools (`cwd`)");
    }
    if tools.command_line.is_some() {
        always.push("`execute_command` (`enable_mcp_command_line`)");
    }
    if !tools.mcp_servers.is_empty() {
        always.push("its MCP tools (`mcp_servers`)");
    }
    if coordination.enable_agent_task_planning {
        always.push("the task-plan tools (`orchestrator.coordination.enable_agent_task_planning`)");
    }
    let broadcast = coordination.broadcast != BroadcastTarget::Off;
    let when = if !always.is_empty() {
        format!(
            "on any call: every call also offers {}",
            always.join(" and ")
        )
    } else if broadcast {
        "on coordination rounds, which also offer `ask_others` \
         (`orchestrator.coordination.broadcast`); vote-only rounds and the final presentation \
         keep them"
            .to_string()
    } else {
        return None;
    };
    let (names, keys) = match (enabled.web_search, enabled.code_execution) {
        (true, true) => (
            "Google Search and code execution",
            "`enable_web_search`, `enable_code_execution`",
        ),
        (true, false) => ("Google Search", "`enable_web_search`"),
        (false, _) => ("code execution", "`enable_code_execution`"),
    };
    let first_key = ["enable_web_search", "enable_code_execution"]
        .into_iter()
        .find_map(|key| {
            node.get("backend")?
                .entries()?
                .iter()
                .find(|entry| entry.key == key)
        });
    Some(Note {
        loc: Some(first_key.map_or(node.loc, |entry| entry.key_loc)),
        message: format!(
            "agent `{}`: Gemini's {names} ({keys}) will not be sent {when}. The Gemini API \
             refuses built-in tools beside function declarations outside Gemini 3's \
             tool-combination mode, which massgen does not use (MassGen 0.1.97 drops them \
             the same way, without a word); to keep them, give this agent none of those \
             functions, or search through an MCP server instead",
            agent.id
        ),
        ignored: None,
    })
}

#[cfg(test)]
mod tests {
    use crate::config::{Env, from_text};

    fn warnings(text: &str) -> Vec<String> {
        from_text(text, "g.yaml", &Env::default())
            .unwrap()
            .warnings
            .into_iter()
            .map(|warning| {
                format!(
                    "{}: {}",
                    warning.loc.map_or(0, |loc| loc.line),
                    warning.message
                )
            })
            .collect()
    }

    fn gemini(extra: &str) -> String {
        format!(
            "agents:\n  - id: scout\n    backend:\n      type: gemini\n      model: gemini-2.5-flash\n      \
             enable_web_search: true\n{extra}"
        )
    }

    #[test]
    fn file_and_mcp_tools_push_the_built_in_tools_out_of_every_call() {
        let found = warnings(&gemini(
            "      enable_code_execution: true\n      cwd: workspace\n      mcp_servers:\n        \
             - {name: fetch, type: stdio, command: uvx, args: [mcp-server-fetch]}\n",
        ));
        assert_eq!(found.len(), 1, "{found:?}");
        let warning = &found[0];
        assert!(
            warning.starts_with(
                "6: agent `scout`: Gemini's Google Search and code \
             execution (`enable_web_search`, `enable_code_execution`) will not be sent on any \
             call: every call also offers its file tools (`cwd`) and its MCP tools \
             (`mcp_servers`)."
            ),
            "{warning}"
        );
        assert!(warning.contains("MassGen 0.1.97 drops them"), "{warning}");
    }

    #[test]
    fn task_planning_counts_and_broadcast_costs_the_coordination_rounds_only() {
        let planning = warnings(&format!(
            "{}orchestrator:\n  coordination: {{enable_agent_task_planning: true}}\n",
            gemini("")
        ));
        assert_eq!(planning.len(), 1, "{planning:?}");
        assert!(
            planning[0].contains(
                "Gemini's Google Search (`enable_web_search`) will not be sent on any call: \
                 every call also offers the task-plan tools"
            ),
            "{planning:?}"
        );
        let broadcast = warnings(&format!(
            "{}orchestrator:\n  coordination: {{broadcast: agents}}\n",
            gemini("")
        ));
        assert_eq!(broadcast.len(), 1, "{broadcast:?}");
        assert!(
            broadcast[0]
                .contains("will not be sent on coordination rounds, which also offer `ask_others`"),
            "{broadcast:?}"
        );
        assert!(
            broadcast[0].contains("the final presentation keep them"),
            "{broadcast:?}"
        );
    }

    #[test]
    fn nothing_is_said_when_every_call_keeps_them() {
        // Coordination rounds offer only workflow tools: they go as JSON text, and the
        // built-in tools are sent.
        assert_eq!(warnings(&gemini("")), Vec::<String>::new());
        // Other backends take their built-in tools beside functions.
        let claude = "agents:\n  - id: c\n    backend: {type: claude, model: claude-sonnet-4-5, \
                      enable_web_search: true, cwd: workspace}\n";
        assert_eq!(warnings(claude), Vec::<String>::new());
        // A Gemini agent with functions but no built-in tool loses nothing.
        let plain = "agents:\n  - id: g\n    backend: {type: gemini, model: gemini-2.5-flash, \
                     cwd: workspace}\n";
        assert_eq!(warnings(plain), Vec::<String>::new());
    }
}
