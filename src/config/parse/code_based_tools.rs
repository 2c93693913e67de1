//! A backend's code-based tool keys (`enable_code_based_tools`, `direct_mcp_servers`,
//! `shared_tools_directory`), as MassGen's filesystem manager reads them.

use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::tools::CodeBasedTools;

/// `None` unless `enable_code_based_tools: true`; the two other keys only refine it, so
/// without it they change nothing (as in MassGen), but they must still be well formed.
pub(super) fn parse_code_based_tools(
    backend: &Fields<'_>,
) -> Result<Option<CodeBasedTools>, Problem> {
    let enabled = backend.bool("enable_code_based_tools")?.unwrap_or(false);
    let direct_servers = backend.strings("direct_mcp_servers")?;
    if direct_servers.iter().any(|name| name.trim().is_empty()) {
        return Err(blank(
            backend,
            "direct_mcp_servers",
            "names a server with an empty name",
            "list the `mcp_servers` names to keep as direct tools: direct_mcp_servers: [context7]",
        ));
    }
    let shared_directory = backend.string("shared_tools_directory")?;
    if shared_directory
        .as_deref()
        .is_some_and(|dir| dir.trim().is_empty())
    {
        return Err(blank(
            backend,
            "shared_tools_directory",
            "is empty",
            "name a directory (relative to the project) for the generated tools: \
             shared_tools_directory: shared_tools",
        ));
    }
    Ok(enabled.then_some(CodeBasedTools {
        direct_servers,
        shared_directory,
    }))
}

fn blank(backend: &Fields<'_>, key: &str, what: &str, help: &str) -> Problem {
    let message = format!("`{}` {what}", backend.key_path(key));
    match backend.get(key) {
        Some(node) => Problem::at(node.loc, message),
        None => Problem::at(backend.loc(), message),
    }
    .help(help)
}

#[cfg(test)]
#[path = "code_based_tools_tests.rs"]
mod tests;
