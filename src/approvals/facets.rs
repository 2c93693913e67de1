//! A tool call as the (action, target) facets rules are matched against: one `read_file` /
//! `write_file` per path, one `command` per simple command the text runs (plus a `read_url`
//! for each that reaches the network), `read_url(url)` for network tools, and
//! `mcp(server/tool)` for any other tool.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use super::argv::{SimpleCommand, simple_commands};
use super::boundary::Boundary;
use super::egress::{Egress, egress};
use crate::protocol::Action;

/// One thing a call does.
#[derive(Clone, Debug, PartialEq)]
pub struct Facet {
    pub action: Action,
    /// What the action applies to, as a check reports it.
    pub target: String,
    /// Every spelling a rule's glob may match (`./a.txt` and `/ws/a.txt`, `curl x` and
    /// `/usr/bin/curl x`, `linear/create` and `mcp__linear__create`).
    pub forms: Vec<String>,
    pub kind: FacetKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FacetKind {
    Command(SimpleCommand),
    /// A path, resolved against the workspace with `..` collapsed; `deletes` for tools
    /// that remove what they name.
    Path {
        resolved: PathBuf,
        deletes: bool,
    },
    /// A URL the call reaches; `from_command` is the index of the command facet it came
    /// from, with what the command reaches out with.
    Url {
        from_command: Option<(usize, Egress)>,
    },
    Tool,
}

const COMMAND_HINTS: [&str; 6] = [
    "bash",
    "shell",
    "exec",
    "execute_command",
    "run_command",
    "terminal",
];
const NETWORK_HINTS: [&str; 7] = [
    "fetch",
    "read_url",
    "websearch",
    "web_search",
    "browse",
    "http",
    "curl",
];
const FILESYSTEM_SERVERS: [&str; 3] = ["filesystem", "workspace_tools", "workspace_copy"];
const WRITE_HINTS: [&str; 9] = [
    "write",
    "edit",
    "create",
    "move",
    "copy",
    "delete",
    "remove",
    "apply_patch",
    "notebook",
];
const READ_HINTS: [&str; 10] = [
    "read", "grep", "glob", "list", "view", "search", "cat", "get_", "compare", "tree",
];
/// Argument keys that name paths a tool reads or writes.
const PATH_KEYS: [&str; 13] = [
    "path",
    "file_path",
    "paths",
    "source",
    "source_path",
    "destination",
    "destination_path",
    "target",
    "notebook_path",
    "file1",
    "file2",
    "dir1",
    "dir2",
];
const SOURCE_KEYS: [&str; 2] = ["source", "source_path"];

pub fn facets(tool: &str, arguments: &Value, boundary: &Boundary) -> Vec<Facet> {
    let lower = tool.to_lowercase();
    let (server, name) = split_tool(tool);
    if server.is_some_and(|server| FILESYSTEM_SERVERS.contains(&server)) {
        if let Some(found) = file_facets(&name.to_lowercase(), arguments, boundary) {
            return found;
        }
    } else if tool == "read_media" {
        let mut paths = Vec::new();
        media_paths(arguments, &mut paths);
        return path_facets(Action::ReadFile, paths, false, boundary);
    }
    let command = ["command", "cmd"]
        .iter()
        .find_map(|key| arguments.get(key).and_then(Value::as_str));
    if let Some(command) = command
        && COMMAND_HINTS.iter().any(|hint| lower.contains(hint))
    {
        return command_facets(command);
    }
    if let Some(url) = ["url", "uri"]
        .iter()
        .find_map(|key| arguments.get(key).and_then(Value::as_str))
        && NETWORK_HINTS.iter().any(|hint| lower.contains(hint))
    {
        return vec![Facet {
            action: Action::ReadUrl,
            target: url.to_string(),
            forms: vec![url.to_string()],
            kind: FacetKind::Url { from_command: None },
        }];
    }
    let target = match server {
        Some(server) => format!("{server}/{name}"),
        None => tool.to_string(),
    };
    vec![Facet {
        action: Action::Mcp,
        forms: vec![target.clone(), tool.to_string()],
        target,
        kind: FacetKind::Tool,
    }]
}

/// `mcp__server__tool` and `custom_tool__name` to their server and tool.
fn split_tool(tool: &str) -> (Option<&str>, &str) {
    if let Some(rest) = tool.strip_prefix("mcp__")
        && let Some((server, name)) = rest.split_once("__")
    {
        return (Some(server), name);
    }
    if let Some(name) = tool.strip_prefix("custom_tool__") {
        return (Some("custom_tool"), name);
    }
    (None, tool)
}

fn file_facets(name: &str, arguments: &Value, boundary: &Boundary) -> Option<Vec<Facet>> {
    let writes = WRITE_HINTS.iter().any(|hint| name.contains(hint));
    if !writes && !READ_HINTS.iter().any(|hint| name.contains(hint)) {
        return None;
    }
    let deletes = name.contains("delete") || name.contains("remove");
    let moves = name.contains("move");
    let mut found = Vec::new();
    for key in PATH_KEYS {
        let mut paths = Vec::new();
        match arguments.get(key) {
            Some(Value::String(path)) => paths.push(path.clone()),
            Some(Value::Array(items)) => {
                paths.extend(items.iter().filter_map(Value::as_str).map(str::to_string));
            }
            _ => continue,
        }
        // A copy reads its source; a move removes it.
        let action = if writes && (!SOURCE_KEYS.contains(&key) || moves) {
            Action::WriteFile
        } else {
            Action::ReadFile
        };
        found.extend(path_facets(action, paths, deletes, boundary));
    }
    if found.is_empty() {
        let action = if writes {
            Action::WriteFile
        } else {
            Action::ReadFile
        };
        found = path_facets(action, vec![String::new()], deletes, boundary);
    }
    Some(found)
}

/// `read_media`'s `files` (a mapping or a list) and `file_paths`, at any depth.
fn media_paths(value: &Value, paths: &mut Vec<String>) {
    match value {
        Value::Object(entries) => {
            for (key, value) in entries {
                if matches!(key.as_str(), "files" | "file_paths" | "path" | "file_path") {
                    match value {
                        Value::String(path) => paths.push(path.clone()),
                        Value::Array(items) => {
                            paths.extend(items.iter().filter_map(Value::as_str).map(str::to_string))
                        }
                        Value::Object(named) => paths
                            .extend(named.values().filter_map(Value::as_str).map(str::to_string)),
                        _ => {}
                    }
                } else {
                    media_paths(value, paths);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| media_paths(item, paths)),
        _ => {}
    }
}

fn path_facets(
    action: Action,
    paths: Vec<String>,
    deletes: bool,
    boundary: &Boundary,
) -> Vec<Facet> {
    let paths = if paths.is_empty() {
        vec![String::new()]
    } else {
        paths
    };
    paths
        .into_iter()
        .map(|path| {
            let base = boundary
                .workspace
                .as_deref()
                .or(boundary.writable.first().map(PathBuf::as_path));
            let resolved = resolve(&path, base);
            let mut forms = vec![resolved.display().to_string()];
            if let Some(relative) = base.and_then(|base| resolved.strip_prefix(base).ok()) {
                let relative = relative.display().to_string();
                forms.push(format!("./{relative}"));
                forms.push(relative);
            } else if !path.contains("..") && !forms.contains(&path) {
                forms.push(path.clone());
            }
            Facet {
                action,
                target: path,
                forms,
                kind: FacetKind::Path { resolved, deletes },
            }
        })
        .collect()
}

/// `path` made absolute against `base` (when relative and there is one), `.` and `..`
/// collapsed without touching the disk.
pub fn resolve(path: &str, base: Option<&Path>) -> PathBuf {
    let path = Path::new(path);
    let joined = match base {
        Some(base) if path.is_relative() => base.join(path),
        _ => path.to_path_buf(),
    };
    let mut resolved = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match resolved.components().next_back() {
                Some(Component::Normal(_)) => {
                    resolved.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => resolved.push(".."),
            },
            other => resolved.push(other),
        }
    }
    resolved
}

fn command_facets(command: &str) -> Vec<Facet> {
    let commands = simple_commands(command);
    if commands.is_empty() {
        return vec![Facet {
            action: Action::Command,
            target: String::new(),
            forms: vec![String::new()],
            kind: FacetKind::Command(SimpleCommand {
                argv: Vec::new(),
                program_path: None,
                redirects: Vec::new(),
                writes: false,
            }),
        }];
    }
    let mut found = Vec::new();
    let mut urls = Vec::new();
    for (index, command) in commands.into_iter().enumerate() {
        let line = command.line();
        let mut forms = vec![line.clone()];
        forms.extend(command.raw_line());
        if let Some(reach) = egress(&command) {
            urls.push(Facet {
                action: Action::ReadUrl,
                target: reach.url.clone(),
                forms: vec![reach.url.clone()],
                kind: FacetKind::Url {
                    from_command: Some((index, reach)),
                },
            });
        }
        found.push(Facet {
            action: Action::Command,
            target: line,
            forms,
            kind: FacetKind::Command(command),
        });
    }
    found.extend(urls);
    found
}

#[cfg(test)]
#[path = "facets_tests.rs"]
mod tests;
