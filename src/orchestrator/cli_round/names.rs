//! How the agent's tools are named on the bridge, and back.

use crate::backend::ToolSpec;

/// The tools the CLI reaches through the bridge: all of the agent's but massgen's built-in
/// file tools (the CLI has its own), MCP tools without the `mcp__` prefix
/// (the CLI adds its own for the bridge).
pub fn bridged_tools(tools: &[ToolSpec]) -> Vec<ToolSpec> {
    tools
        .iter()
        .filter(|tool| !is_builtin_file_tool(&tool.name))
        .map(|tool| ToolSpec {
            name: served_name(&tool.name).to_string(),
            ..tool.clone()
        })
        .collect()
}

/// massgen's built-in file tools; its command tool is served when the config offers it
/// (`enable_mcp_command_line`: the CLI's own shell is then off, so commands run where
/// massgen's command mode says, Docker included).
fn is_builtin_file_tool(name: &str) -> bool {
    name.strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
        .is_some_and(|(server, _)| {
            crate::tools::builtin::is_builtin_server(server) && server != COMMAND_SERVER
        })
}

const COMMAND_SERVER: &str = "command_line";

fn served_name(name: &str) -> &str {
    name.strip_prefix("mcp__").unwrap_or(name)
}

/// The agent's name for a tool the bridge served as `served`.
pub fn agent_name(tools: &[ToolSpec], served: &str) -> String {
    tools
        .iter()
        .map(|tool| tool.name.as_str())
        .find(|name| *name == served)
        .or_else(|| {
            tools
                .iter()
                .map(|tool| tool.name.as_str())
                .find(|name| served_name(name) == served)
        })
        .unwrap_or(served)
        .to_string()
}
