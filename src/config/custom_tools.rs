//! A backend's `custom_tools`: Python functions offered to its model as
//! `custom_tool__<name>`, one [`CustomToolConfig`] per function, with their files found
//! relative to the current directory, then the config file's.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The prefix of every custom tool's offered name, as MassGen names them.
pub const CUSTOM_TOOL_PREFIX: &str = "custom_tool__";

/// One Python function offered as a tool.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomToolConfig {
    /// The entry's key path (`agents[0].backend.custom_tools[1]`), for messages.
    pub entry: String,
    /// `path` as written; `None` means one of MassGen's own tools (`massgen.tool`).
    pub written_path: Option<String>,
    /// Where `path` was found: absolute when it exists under the current directory or
    /// the config's; else as written (a `massgen/…` path may still be in the installed
    /// massgen package).
    pub path: Option<PathBuf>,
    /// `function` (or `func`): the function's name in the file.
    pub function: String,
    /// `name`: the tool's name; the function's when absent.
    pub name: Option<String>,
    /// `description`: replaces the docstring's.
    pub description: Option<String>,
    /// `preset_args`: hidden from the model and passed on every call.
    pub preset_args: serde_json::Map<String, serde_json::Value>,
    /// `category` (shown where MCP tools show their server); `default` when absent.
    pub category: String,
    /// `timeout` (seconds, massgen's own key): one call's limit; MCP's default otherwise.
    pub timeout: Duration,
    /// `strict: false` keeps it out of `enable_strict_tool_use`.
    pub strict: bool,
}

impl CustomToolConfig {
    /// The name the model sees: `custom_tool__<name>`.
    pub fn offered_name(&self) -> String {
        let bare = self.name.as_deref().unwrap_or(&self.function);
        if bare.starts_with(CUSTOM_TOOL_PREFIX) {
            bare.to_string()
        } else {
            format!("{CUSTOM_TOOL_PREFIX}{bare}")
        }
    }

    /// The file as the user wrote it, or where MassGen's own tools are.
    pub fn shown_path(&self) -> String {
        self.written_path
            .clone()
            .unwrap_or_else(|| "massgen.tool (MassGen's own tools)".to_string())
    }
}

/// Resolves every relative `path` of `tools`: under `cwd` if it exists there, else under
/// `config_dir` if it exists there, else left as written.
pub fn resolve_paths<'a>(
    tools: impl Iterator<Item = &'a mut CustomToolConfig>,
    cwd: Option<&Path>,
    config_dir: Option<&Path>,
) {
    for tool in tools {
        let Some(written) = tool.written_path.as_deref() else {
            continue;
        };
        let written = PathBuf::from(written);
        if written.is_absolute() {
            tool.path = Some(written);
            continue;
        }
        let found = [cwd, config_dir]
            .into_iter()
            .flatten()
            .map(|base| base.join(&written))
            .find(|candidate| candidate.exists());
        tool.path = Some(found.unwrap_or(written));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(path: &str) -> CustomToolConfig {
        CustomToolConfig {
            entry: "custom_tools[0]".into(),
            written_path: Some(path.into()),
            path: None,
            function: "f".into(),
            name: None,
            description: None,
            preset_args: serde_json::Map::new(),
            category: "default".into(),
            timeout: Duration::from_secs(30),
            strict: true,
        }
    }

    #[test]
    fn a_path_is_found_in_the_current_directory_first_then_beside_the_config() {
        let cwd = tempfile::tempdir().unwrap();
        let config = tempfile::tempdir().unwrap();
        std::fs::write(config.path().join("only_there.py"), "").unwrap();
        std::fs::write(config.path().join("both.py"), "").unwrap();
        std::fs::write(cwd.path().join("both.py"), "").unwrap();
        let mut tools = [tool("only_there.py"), tool("both.py"), tool("massgen/x.py")];
        resolve_paths(tools.iter_mut(), Some(cwd.path()), Some(config.path()));
        assert_eq!(tools[0].path, Some(config.path().join("only_there.py")));
        assert_eq!(tools[1].path, Some(cwd.path().join("both.py")));
        assert_eq!(tools[2].path, Some(PathBuf::from("massgen/x.py")));
        assert_eq!(tools[2].written_path.as_deref(), Some("massgen/x.py"));
    }

    #[test]
    fn the_offered_name_is_prefixed_once() {
        let mut named = tool("a.py");
        assert_eq!(named.offered_name(), "custom_tool__f");
        named.name = Some("custom_tool__g".into());
        assert_eq!(named.offered_name(), "custom_tool__g");
        named.name = Some("sum".into());
        assert_eq!(named.offered_name(), "custom_tool__sum");
    }
}
