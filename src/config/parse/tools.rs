//! A backend's tool keys (`cwd`, `mcp_servers` in list or mapping form with their
//! `security`, allow and exclude lists, `auto_discover_custom_tools`) and the
//! orchestrator's `context_paths`. The command line is read in `command_line`.

use std::path::PathBuf;

use super::Note;
use super::key_table::KeyTable;
use crate::config::backend_kind::BackendKind;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::key_notes::Section;
use crate::config::secret::Secret;
use crate::config::tools::{
    ContextPath, DEFAULT_CALL_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, McpServerConfig, McpTransport,
    Permission, StrictTools, ToolSettings,
};
use crate::config::yaml_node::{Node, Value};

pub(super) fn parse_tool_settings(
    backend: &Fields<'_>,
    kind: BackendKind,
    notes: &mut Vec<Note>,
) -> Result<ToolSettings, Problem> {
    let mcp_servers = match backend.get("mcp_servers") {
        Some(node) => parse_servers(backend, node, notes)?,
        None => Vec::new(),
    };
    let allowed_tools = backend
        .get("allowed_tools")
        .map(|_| backend.strings("allowed_tools"))
        .transpose()?;
    let custom_tools = super::custom_tools::parse_custom_tools(backend, notes)?;
    Ok(ToolSettings {
        cwd: backend.string("cwd")?.filter(|cwd| !cwd.trim().is_empty()),
        mcp_servers,
        exclude_tools: backend.strings("exclude_tools")?,
        allowed_tools,
        command_line: super::command_line::command_line(backend, notes)?,
        exclude_file_operations: backend
            .bool("exclude_file_operation_mcps")?
            .unwrap_or(false),
        execution: super::tool_execution::parse_tool_execution(backend)?,
        auto_discover: backend.bool("auto_discover_custom_tools")?.unwrap_or(false),
        // MassGen reads it for Claude only; elsewhere its note says so.
        strict_tools: if kind == BackendKind::Claude {
            super::strict_tools::parse_strict_tools(backend, &custom_tools)?
        } else {
            StrictTools::default()
        },
        custom_tools,
        code_based: super::code_based_tools::parse_code_based_tools(backend)?,
        multimodal_tools: backend.bool("enable_multimodal_tools")?.unwrap_or(false),
        permissions: None,
    })
}

/// The list form `[{name, type, …}]` or the mapping form `{name: {type, …}}`.
fn parse_servers(
    backend: &Fields<'_>,
    node: &Node,
    notes: &mut Vec<Note>,
) -> Result<Vec<McpServerConfig>, Problem> {
    let path = backend.key_path("mcp_servers");
    let mut servers: Vec<McpServerConfig> = Vec::new();
    match &node.value {
        Value::Seq(items) => {
            for (index, item) in items.iter().enumerate() {
                let fields = Fields::of(item, format!("{path}[{index}]"))?;
                let name = fields.required_string("name", "search")?;
                servers.push(parse_server(name, &fields, notes)?);
            }
        }
        Value::Map(entries) => {
            for entry in entries {
                let fields = Fields::of(&entry.value, format!("{path}.{}", entry.key))?;
                servers.push(parse_server(entry.key.clone(), &fields, notes)?);
            }
        }
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => {
            return Err(backend.wrong_type(
                "mcp_servers",
                node,
                "a list of servers",
                "mcp_servers: [{name: search, type: stdio, command: npx, args: [...]}]",
            ));
        }
    }
    for (index, server) in servers.iter().enumerate() {
        if servers[..index]
            .iter()
            .any(|other| other.name == server.name)
        {
            return Err(Problem::at(
                node.loc,
                format!("two MCP servers in `{path}` are named `{}`", server.name),
            )
            .help("give every server its own name; tools are exposed as mcp__<name>__<tool>"));
        }
    }
    Ok(servers)
}

fn parse_server(
    name: String,
    server: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<McpServerConfig, Problem> {
    KeyTable::of(Section::McpServer).check(server, notes);
    if name.trim().is_empty() || name.contains("__") {
        return Err(Problem::at(
            server.loc(),
            format!("MCP server name \"{name}\" cannot be used in tool names"),
        )
        .help("use letters, digits, `-` and single `_`, like `search`"));
    }
    let kind = server.string("type")?;
    let transport = match kind.as_deref() {
        Some("stdio") => stdio(server)?,
        Some("streamable-http" | "streamable_http" | "http") => http(server)?,
        None if server.get("url").is_some() => http(server)?,
        None => stdio(server)?,
        Some(other) => {
            return Err(Problem::at(
                server.get("type").map_or(server.loc(), |node| node.loc),
                format!("`{}` cannot be \"{other}\"", server.key_path("type")),
            )
            .help("use `type: stdio` (command, args) or `type: streamable-http` (url)"));
        }
    };
    super::server_security::check(server, &transport, notes)?;
    let allowed_tools = server
        .get("allowed_tools")
        .map(|_| server.strings("allowed_tools"))
        .transpose()?;
    Ok(McpServerConfig {
        name,
        transport,
        connect_timeout: server
            .seconds("connect_timeout", 30)?
            .unwrap_or(DEFAULT_CONNECT_TIMEOUT),
        call_timeout: server
            .seconds("timeout", 30)?
            .unwrap_or(DEFAULT_CALL_TIMEOUT),
        allowed_tools,
        exclude_tools: server.strings("exclude_tools")?,
    })
}

fn stdio(server: &Fields<'_>) -> Result<McpTransport, Problem> {
    Ok(McpTransport::Stdio {
        command: server.required_string("command", "npx")?,
        args: server.strings("args")?,
        env: string_map(server, "env")?,
        cwd: server.string("cwd")?.map(PathBuf::from),
    })
}

fn http(server: &Fields<'_>) -> Result<McpTransport, Problem> {
    let url = server.required_string("url", "http://localhost:8000/mcp")?;
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(Problem::at(
            server.get("url").map_or(server.loc(), |node| node.loc),
            format!(
                "`{}` must be an http(s) URL, found \"{url}\"",
                server.key_path("url")
            ),
        )
        .help("write it like `url: http://localhost:8000/mcp`"));
    }
    // An IPv6 host without its closing bracket, or no host at all.
    server.http_url("url")?;
    Ok(McpTransport::StreamableHttp {
        url,
        headers: string_map(server, "headers")?,
    })
}

/// A `{KEY: value}` mapping whose values may be secret.
fn string_map(fields: &Fields<'_>, key: &str) -> Result<Vec<(String, Secret)>, Problem> {
    let Some(node) = fields.get(key) else {
        return Ok(Vec::new());
    };
    let map = Fields::of(node, fields.key_path(key))?;
    map.entries
        .iter()
        .map(|entry| {
            let value = map.string(&entry.key)?.unwrap_or_default();
            Ok((entry.key.clone(), Secret::new(value)))
        })
        .collect()
}

/// `orchestrator.context_paths: [{path, permission, protected_paths}]`.
pub(super) fn parse_context_paths(
    orchestrator: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Vec<ContextPath>, Problem> {
    let Some(node) = orchestrator.get("context_paths") else {
        return Ok(Vec::new());
    };
    let Value::Seq(items) = &node.value else {
        return Err(orchestrator.wrong_type(
            "context_paths",
            node,
            "a list of paths",
            "context_paths: [{path: ./src, permission: read}]",
        ));
    };
    let path = orchestrator.key_path("context_paths");
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            if let Some(text) = item.as_str() {
                return Ok(ContextPath {
                    path: PathBuf::from(text),
                    permission: Permission::Read,
                    protected_paths: Vec::new(),
                });
            }
            let fields = Fields::of(item, format!("{path}[{index}]"))?;
            KeyTable::of(Section::ContextPath).check(&fields, notes);
            Ok(ContextPath {
                path: PathBuf::from(fields.required_string("path", "./docs")?),
                permission: fields
                    .choice("permission", &Permission::NAMES, Permission::from_name)?
                    .unwrap_or_default(),
                protected_paths: fields
                    .strings("protected_paths")?
                    .into_iter()
                    .map(PathBuf::from)
                    .collect(),
            })
        })
        .collect()
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
