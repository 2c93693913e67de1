//! MassGen's code-based tools for one agent (`enable_code_based_tools`): its MCP servers'
//! tools written as Python modules (`servers/<server>/<tool>.py`, `custom_tools/`,
//! `.mcp/client.py`) in its workspace or a shared directory, and the tool bridge their
//! calls reach. `direct_mcp_servers` get no files and stay direct tools.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::bridge::{self, BridgeReply, BridgeServer, BridgeTools};
use super::code_files;
use super::servers::McpServers;
use crate::backend::ToolSpec;
use crate::config::{McpServerConfig, McpTransport};

/// Where one agent's generated tools are and what they cover; the bridge stops when this
/// is dropped.
pub struct CodeTools {
    /// The directory holding `servers/` (the workspace, or the shared directory's
    /// subdirectory for this set of servers).
    pub location: PathBuf,
    /// `shared_tools_directory` was set: `location` is shared and read-only.
    pub shared: bool,
    /// The servers written as code, config order.
    pub servers: Vec<String>,
    /// Full names of the tools now reached through code only (not offered directly).
    pub code_only: Vec<String>,
    _bridge: Option<BridgeServer>,
}

/// Writes the agent's code files and starts their bridge. `shared_base` is
/// `shared_tools_directory`, already resolved against the project.
pub async fn set_up(
    servers: Arc<McpServers>,
    configs: &[McpServerConfig],
    workspace: &Path,
    shared_base: Option<&Path>,
    direct: &[String],
) -> io::Result<CodeTools> {
    let by_server: Vec<(String, Vec<(String, ToolSpec)>)> = servers
        .tools_by_server()
        .into_iter()
        .filter(|(server, tools)| !direct.contains(server) && !tools.is_empty())
        .collect();
    let names: Vec<String> = by_server.iter().map(|(server, _)| server.clone()).collect();
    let location = match shared_base {
        Some(base) => base.join(servers_hash(&names)),
        None => workspace.to_path_buf(),
    };
    let servers_json = servers_json(configs, &names);
    match shared_base {
        Some(_) => {
            // Generated once per set of servers; every agent links to it.
            if !(location.join("servers").is_dir() && location.join(".mcp").is_dir()) {
                write_tree(&location, &by_server, &servers_json)?;
            }
            for dir in ["servers", "custom_tools"] {
                let link = workspace.join(dir);
                if std::fs::symlink_metadata(&link).is_err() {
                    std::os::unix::fs::symlink(location.join(dir), &link)?;
                }
            }
            write_client(&workspace.join(".mcp"), &servers_json)?;
        }
        None => write_tree(&location, &by_server, &servers_json)?,
    }
    let code_only: Vec<String> = by_server
        .iter()
        .flat_map(|(_, tools)| tools.iter().map(|(_, spec)| spec.name.clone()))
        .collect();
    let bridge = if by_server.is_empty() {
        None
    } else {
        let routes = by_server
            .iter()
            .flat_map(|(server, tools)| {
                tools
                    .iter()
                    .map(move |(tool, spec)| (format!("{server}/{tool}"), spec.clone()))
            })
            .collect();
        let bridge = bridge::serve(Arc::new(CodeCalls { servers, routes })).await?;
        let address = json!({ "url": bridge.address.url, "token": bridge.address.token });
        std::fs::write(
            workspace.join(".mcp").join("bridge.json"),
            format!("{address:#}\n"),
        )?;
        Some(bridge)
    };
    Ok(CodeTools {
        location,
        shared: shared_base.is_some(),
        servers: names,
        code_only,
        _bridge: bridge,
    })
}

/// `servers/`, `custom_tools/` and `.mcp/` under `root`, `servers/` written afresh.
fn write_tree(
    root: &Path,
    by_server: &[(String, Vec<(String, ToolSpec)>)],
    servers_json: &str,
) -> io::Result<()> {
    let servers_dir = root.join("servers");
    match std::fs::symlink_metadata(&servers_dir) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(&servers_dir)?,
        Ok(_) => std::fs::remove_file(&servers_dir)?,
        Err(_) => {}
    }
    std::fs::create_dir_all(&servers_dir)?;
    for (server, tools) in by_server {
        let dir = servers_dir.join(code_files::python_name(server));
        std::fs::create_dir_all(&dir)?;
        for (tool, spec) in tools {
            let module = code_files::tool_module(server, tool, &spec.description, &spec.parameters);
            let file = format!("{}.py", code_files::python_name(tool));
            std::fs::write(dir.join(file), module)?;
        }
        let tool_names: Vec<String> = tools.iter().map(|(tool, _)| tool.clone()).collect();
        std::fs::write(
            dir.join("__init__.py"),
            code_files::server_init(server, &tool_names),
        )?;
    }
    let names: Vec<String> = by_server.iter().map(|(server, _)| server.clone()).collect();
    std::fs::write(
        servers_dir.join("__init__.py"),
        code_files::servers_init(&names),
    )?;
    let custom = root.join("custom_tools");
    std::fs::create_dir_all(&custom)?;
    if !custom.join("__init__.py").exists() {
        std::fs::write(custom.join("__init__.py"), code_files::CUSTOM_TOOLS_INIT)?;
    }
    write_client(&root.join(".mcp"), servers_json)
}

fn write_client(dir: &Path, servers_json: &str) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("client.py"), code_files::CLIENT)?;
    std::fs::write(dir.join("servers.json"), servers_json)
}

/// `.mcp/servers.json`: how each server is reached (never its environment or headers,
/// which may hold secrets).
fn servers_json(configs: &[McpServerConfig], names: &[String]) -> String {
    let mut map = serde_json::Map::new();
    for config in configs.iter().filter(|config| names.contains(&config.name)) {
        let entry = match &config.transport {
            McpTransport::Stdio { command, args, .. } => {
                json!({ "type": "stdio", "command": command, "args": args })
            }
            McpTransport::StreamableHttp { url, .. } => {
                json!({ "type": "streamable-http", "url": url })
            }
        };
        map.insert(config.name.clone(), entry);
    }
    format!("{:#}\n", Value::Object(map))
}

/// Eight hex digits naming a set of servers' directory under `shared_tools_directory`
/// (MassGen names it by a hash of the sorted server names too).
fn servers_hash(names: &[String]) -> String {
    let mut sorted = names.to_vec();
    sorted.sort();
    let mut hash: u32 = 0x811c_9dc5;
    for byte in sorted.join("\n").bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("{hash:08x}")
}

/// The bridge's tools: `<server>/<tool>` → the server's tool, run on the agent's servers.
struct CodeCalls {
    servers: Arc<McpServers>,
    routes: HashMap<String, ToolSpec>,
}

impl BridgeTools for CodeCalls {
    fn tools(&self) -> Vec<ToolSpec> {
        self.routes
            .iter()
            .map(|(name, spec)| ToolSpec {
                name: name.clone(),
                ..spec.clone()
            })
            .collect()
    }

    fn call(&self, name: String, arguments: Value) -> BoxFuture<'static, BridgeReply> {
        let servers = Arc::clone(&self.servers);
        let full = self.routes.get(&name).map(|spec| spec.name.clone());
        Box::pin(async move {
            let Some(full) = full else {
                return BridgeReply {
                    text: format!("no tool named `{name}`"),
                    is_error: true,
                };
            };
            let outcome = servers.call(&full, &arguments.to_string()).await;
            BridgeReply {
                text: outcome.output,
                is_error: !outcome.ok,
            }
        })
    }
}
