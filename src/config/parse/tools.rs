//! A backend's tool keys (`cwd`, `mcp_servers` in list or mapping form, allow and exclude
//! lists, the command line) and the orchestrator's `context_paths`.

use std::path::PathBuf;
use std::time::Duration;

use super::super::error::Problem;
use super::super::fields::Fields;
use super::super::keys;
use super::super::schema::Secret;
use super::super::tools::{
    CommandLineConfig, ContextPath, DEFAULT_CALL_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, McpServerConfig,
    McpTransport, Permission, ToolSettings,
};
use super::super::yaml::{Node, Value};
use super::{Note, check_keys};

pub(super) fn parse_tool_settings(
    backend: &Fields<'_>,
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
    Ok(ToolSettings {
        cwd: backend.string("cwd")?.filter(|cwd| !cwd.trim().is_empty()),
        mcp_servers,
        exclude_tools: backend.strings("exclude_tools")?,
        allowed_tools,
        command_line: command_line(backend, notes)?,
        exclude_file_operations: backend
            .bool("exclude_file_operation_mcps")?
            .unwrap_or(false),
    })
}

fn command_line(
    backend: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Option<CommandLineConfig>, Problem> {
    if backend.bool("enable_mcp_command_line")? != Some(true) {
        return Ok(None);
    }
    if let Some(mode) = backend.string("command_line_execution_mode")?
        && mode != "local"
    {
        // Running locally what the user meant to isolate in a container would be worse
        // than not running it.
        notes.push(Note {
            loc: backend
                .get("command_line_execution_mode")
                .map(|node| node.loc),
            message: format!(
                "ignored: {} — only `local` is supported yet, so execute_command is off for \
                 this agent",
                backend.key_path("command_line_execution_mode")
            ),
            ignored: Some(backend.key_path("command_line_execution_mode")),
        });
        return Ok(None);
    }
    let patterns = |key: &str| -> Result<Vec<String>, Problem> {
        let patterns = backend.strings(key)?;
        for pattern in &patterns {
            if let Err(error) = regex::Regex::new(pattern) {
                return Err(Problem::at(
                    backend.get(key).map_or(backend.loc(), |node| node.loc),
                    format!(
                        "`{}` holds an invalid pattern \"{pattern}\": {error}",
                        backend.key_path(key)
                    ),
                )
                .help("give regular expressions, like `^git .*` or `^ls`"));
            }
        }
        Ok(patterns)
    };
    Ok(Some(CommandLineConfig {
        allowed_commands: patterns("command_line_allowed_commands")?,
        blocked_commands: patterns("command_line_blocked_commands")?,
        ..CommandLineConfig::default()
    }))
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
    check_keys(
        server,
        keys::MCP_SERVER,
        keys::MCP_SERVER_UNSUPPORTED,
        notes,
    );
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
    let allowed_tools = server
        .get("allowed_tools")
        .map(|_| server.strings("allowed_tools"))
        .transpose()?;
    Ok(McpServerConfig {
        name,
        transport,
        connect_timeout: seconds(server, "connect_timeout")?.unwrap_or(DEFAULT_CONNECT_TIMEOUT),
        call_timeout: seconds(server, "timeout")?.unwrap_or(DEFAULT_CALL_TIMEOUT),
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

fn seconds(fields: &Fields<'_>, key: &str) -> Result<Option<Duration>, Problem> {
    let Some(seconds) = fields.number(key)? else {
        return Ok(None);
    };
    if seconds.is_finite() && (0.1..=86_400.0).contains(&seconds) {
        Ok(Some(Duration::from_secs_f64(seconds)))
    } else {
        Err(Problem::at(
            fields.get(key).map_or(fields.loc(), |node| node.loc),
            format!(
                "`{}` is {seconds}; give seconds between 0.1 and 86400",
                fields.key_path(key)
            ),
        )
        .help(format!("e.g. `{key}: 30`")))
    }
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
            check_keys(&fields, keys::CONTEXT_PATH, &[], notes);
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
mod tests {
    use crate::config::{Env, McpTransport, Permission, from_text};

    fn load(yaml: &str) -> crate::config::Config {
        from_text(yaml, "t.yaml", &Env::default()).unwrap().config
    }

    fn error(yaml: &str) -> String {
        from_text(yaml, "t.yaml", &Env::default())
            .unwrap_err()
            .to_string()
    }

    const HEAD: &str = "agent:\n  id: a\n  backend:\n    type: scripted\n";

    #[test]
    fn servers_in_list_and_mapping_form_read_the_same() {
        let list = load(&format!(
            "{HEAD}    mcp_servers:\n      - name: fs\n        type: stdio\n        command: npx\n        \
             args: [\"-y\", \"server\"]\n        env: {{TOKEN: abc}}\n        timeout: 5\n      \
             - {{name: web, type: streamable-http, url: \"http://localhost:9/mcp\", headers: {{Authorization: x}}}}\n"
        ));
        let mapping = load(&format!(
            "{HEAD}    mcp_servers:\n      fs: {{type: stdio, command: npx, args: [\"-y\", \"server\"], \
             env: {{TOKEN: abc}}, timeout: 5}}\n      web: {{url: \"http://localhost:9/mcp\", \
             headers: {{Authorization: x}}}}\n"
        ));
        let servers = &list.agents[0].backend.tools.mcp_servers;
        assert_eq!(servers, &mapping.agents[0].backend.tools.mcp_servers);
        assert_eq!(servers.len(), 2);
        assert_eq!(servers[0].call_timeout.as_secs(), 5);
        assert_eq!(servers[1].connect_timeout.as_secs(), 30);
        let McpTransport::Stdio {
            command, args, env, ..
        } = &servers[0].transport
        else {
            panic!("{:?}", servers[0].transport);
        };
        assert_eq!((command.as_str(), args.len()), ("npx", 2));
        assert_eq!(env[0].1.expose(), "abc");
        assert!(
            !format!("{:?}", servers).contains("abc"),
            "secrets stay out of debug output"
        );
    }

    #[test]
    fn tool_filters_command_line_and_workspace() {
        let config = load(&format!(
            "{HEAD}    cwd: workspace\n    exclude_tools: [mcp__fs__delete]\n    \
             enable_mcp_command_line: true\n    command_line_allowed_commands: [\"^ls\"]\n    \
             mcp_servers: [{{name: fs, command: x, allowed_tools: [read, mcp__fs__list]}}]\n"
        ));
        let tools = &config.agents[0].backend.tools;
        assert_eq!(tools.cwd.as_deref(), Some("workspace"));
        assert!(!tools.offers("mcp__fs__delete") && tools.offers("mcp__fs__read"));
        let server = &tools.mcp_servers[0];
        assert!(server.offers("read", "mcp__fs__read"));
        assert!(server.offers("list", "mcp__fs__list"));
        assert!(!server.offers("write", "mcp__fs__write"));
        let command_line = tools.command_line.as_ref().unwrap();
        assert_eq!(command_line.allowed_commands, ["^ls"]);
    }

    #[test]
    fn docker_command_lines_are_turned_off_with_a_warning() {
        let loaded = from_text(
            &format!(
                "{HEAD}    enable_mcp_command_line: true\n    command_line_execution_mode: docker\n"
            ),
            "t.yaml",
            &Env::default(),
        )
        .unwrap();
        assert!(loaded.config.agents[0].backend.tools.command_line.is_none());
        assert!(
            loaded.warnings[0]
                .message
                .contains("only `local` is supported yet")
        );
    }

    #[test]
    fn context_paths_take_permissions_and_protected_paths() {
        let config = load(&format!(
            "{HEAD}orchestrator:\n  context_paths:\n    - {{path: ./docs, permission: write, \
             protected_paths: [secret.md]}}\n    - ./src\n"
        ));
        let paths = &config.orchestrator.context_paths;
        assert_eq!(paths[0].permission, Permission::Write);
        assert_eq!(
            paths[0].protected_paths,
            [std::path::PathBuf::from("secret.md")]
        );
        assert_eq!(paths[1].permission, Permission::Read);
    }

    #[test]
    fn bad_servers_say_what_and_where() {
        let missing = error(&format!(
            "{HEAD}    mcp_servers: [{{name: fs, type: stdio}}]\n"
        ));
        assert!(
            missing.contains("mcp_servers[0].command` is missing"),
            "{missing}"
        );
        let twice = error(&format!(
            "{HEAD}    mcp_servers: [{{name: fs, command: a}}, {{name: fs, command: b}}]\n"
        ));
        assert!(twice.contains("two MCP servers"), "{twice}");
        let kind = error(&format!(
            "{HEAD}    mcp_servers: {{fs: {{type: sse, url: x}}}}\n"
        ));
        assert!(kind.contains("cannot be \"sse\""), "{kind}");
        let url = error(&format!(
            "{HEAD}    mcp_servers: {{fs: {{url: localhost}}}}\n"
        ));
        assert!(url.contains("must be an http(s) URL"), "{url}");
        let pattern = error(&format!(
            "{HEAD}    enable_mcp_command_line: true\n    command_line_blocked_commands: [\"(\"]\n"
        ));
        assert!(pattern.contains("invalid pattern"), "{pattern}");
        let permission = error(&format!(
            "{HEAD}orchestrator:\n  context_paths: [{{path: x, permission: rw}}]\n"
        ));
        assert!(
            permission.contains("valid values: read, write"),
            "{permission}"
        );
    }
}
