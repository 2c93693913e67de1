//! [`BuiltinTools`]: the native file, workspace and command tools an agent with a workspace
//! gets, named and shaped like MassGen's MCP servers (`mcp__filesystem__…`,
//! `mcp__workspace_tools__…`, `mcp__command_line__…`) so MassGen prompts and `exclude_tools`
//! lists keep working. Every path goes through the agent's [`PathPolicy`].

mod args;
mod command;
mod diff;
mod fs_read;
mod fs_write;
mod open;
mod preview;
mod specs;
mod text;
mod workspace;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::backend::ToolSpec;
use crate::config::ToolSettings;
use crate::tools::ToolOutcome;
use crate::tools::permissions::{PathPolicy, Refusal};

use args::{Args, ToolError, ToolResult};
use command::CommandRunner;

/// What a built-in tool call returned, and the refusal when the path policy said no.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinOutcome {
    pub outcome: ToolOutcome,
    pub refusal: Option<Refusal>,
}

impl BuiltinOutcome {
    fn from_result(result: ToolResult) -> Self {
        match result {
            Ok(output) => Self {
                outcome: ToolOutcome { ok: true, output },
                refusal: None,
            },
            Err(ToolError::Failed(output)) => Self {
                outcome: ToolOutcome { ok: false, output },
                refusal: None,
            },
            Err(ToolError::Refused(refusal)) => Self {
                outcome: ToolOutcome {
                    ok: false,
                    output: refusal.reason.clone(),
                },
                refusal: Some(refusal),
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Server {
    Filesystem,
    WorkspaceTools,
    CommandLine,
}

/// Whether `name` is one of the MCP servers the built-in tools are named after.
pub fn is_builtin_server(name: &str) -> bool {
    [
        Server::Filesystem,
        Server::WorkspaceTools,
        Server::CommandLine,
    ]
    .into_iter()
    .any(|server| server.name() == name)
}

impl Server {
    fn name(self) -> &'static str {
        match self {
            Server::Filesystem => "filesystem",
            Server::WorkspaceTools => "workspace_tools",
            Server::CommandLine => "command_line",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    ReadTextFile,
    ReadMultipleFiles,
    WriteFile,
    EditFile,
    CreateDirectory,
    ListDirectory,
    DirectoryTree,
    SearchFiles,
    GetFileInfo,
    MoveFile,
    ListAllowedDirectories,
    CopyFile,
    DeleteFile,
    CompareFiles,
    CompareDirectories,
    ExecuteCommand,
}

/// The deprecated name the filesystem server still answers to.
const READ_FILE_ALIAS: &str = "mcp__filesystem__read_file";

impl Tool {
    const ALL: [Tool; 16] = [
        Tool::ReadTextFile,
        Tool::ReadMultipleFiles,
        Tool::WriteFile,
        Tool::EditFile,
        Tool::CreateDirectory,
        Tool::ListDirectory,
        Tool::DirectoryTree,
        Tool::SearchFiles,
        Tool::GetFileInfo,
        Tool::MoveFile,
        Tool::ListAllowedDirectories,
        Tool::CopyFile,
        Tool::DeleteFile,
        Tool::CompareFiles,
        Tool::CompareDirectories,
        Tool::ExecuteCommand,
    ];

    fn server(self) -> Server {
        match self {
            Tool::ReadTextFile
            | Tool::ReadMultipleFiles
            | Tool::WriteFile
            | Tool::EditFile
            | Tool::CreateDirectory
            | Tool::ListDirectory
            | Tool::DirectoryTree
            | Tool::SearchFiles
            | Tool::GetFileInfo
            | Tool::MoveFile
            | Tool::ListAllowedDirectories => Server::Filesystem,
            Tool::CopyFile | Tool::DeleteFile | Tool::CompareFiles | Tool::CompareDirectories => {
                Server::WorkspaceTools
            }
            Tool::ExecuteCommand => Server::CommandLine,
        }
    }

    fn bare(self) -> &'static str {
        match self {
            Tool::ReadTextFile => "read_text_file",
            Tool::ReadMultipleFiles => "read_multiple_files",
            Tool::WriteFile => "write_file",
            Tool::EditFile => "edit_file",
            Tool::CreateDirectory => "create_directory",
            Tool::ListDirectory => "list_directory",
            Tool::DirectoryTree => "directory_tree",
            Tool::SearchFiles => "search_files",
            Tool::GetFileInfo => "get_file_info",
            Tool::MoveFile => "move_file",
            Tool::ListAllowedDirectories => "list_allowed_directories",
            Tool::CopyFile => "copy_file",
            Tool::DeleteFile => "delete_file",
            Tool::CompareFiles => "compare_files",
            Tool::CompareDirectories => "compare_directories",
            Tool::ExecuteCommand => "execute_command",
        }
    }

    /// `mcp__<server>__<tool>`, the name models see.
    fn name(self) -> String {
        format!("mcp__{}__{}", self.server().name(), self.bare())
    }
}

/// The built-in tools for one agent.
pub struct BuiltinTools {
    policy: Arc<PathPolicy>,
    offered: Vec<Tool>,
    read_file_alias: bool,
    command: Option<Arc<CommandRunner>>,
}

impl BuiltinTools {
    /// The tools `settings` allows: the filesystem server always, workspace tools unless
    /// `exclude_file_operations`, `execute_command` only with a command line configured,
    /// then the backend's `allowed_tools` / `exclude_tools` lists by full name.
    pub fn new(policy: Arc<PathPolicy>, settings: &ToolSettings) -> Self {
        let offered = Tool::ALL
            .into_iter()
            .filter(|tool| match tool.server() {
                Server::Filesystem => true,
                Server::WorkspaceTools => !settings.exclude_file_operations,
                Server::CommandLine => settings.command_line.is_some(),
            })
            .filter(|tool| settings.offers(&tool.name()))
            .collect::<Vec<_>>();
        let read_file_alias =
            offered.contains(&Tool::ReadTextFile) && settings.offers(READ_FILE_ALIAS);
        let command = settings
            .command_line
            .as_ref()
            .map(|config| Arc::new(CommandRunner::new(config)));
        Self {
            policy,
            offered,
            read_file_alias,
            command,
        }
    }

    pub fn policy(&self) -> &Arc<PathPolicy> {
        &self.policy
    }

    /// The offered tools with their JSON schemas (the `read_file` alias is accepted but not
    /// listed).
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.offered.iter().map(|tool| specs::spec(*tool)).collect()
    }

    pub fn handles(&self, name: &str) -> bool {
        self.lookup(name).is_some()
    }

    fn lookup(&self, name: &str) -> Option<Tool> {
        if name == READ_FILE_ALIAS && self.read_file_alias {
            return Some(Tool::ReadTextFile);
        }
        self.offered
            .iter()
            .copied()
            .find(|tool| tool.name() == name)
    }

    /// The change a `write_file` or `edit_file` call would make, as a unified diff against
    /// the file on disk; `None` for other calls and paths the agent may not write.
    pub fn write_preview(&self, name: &str, arguments: &str) -> Option<String> {
        preview::write_preview(self.lookup(name)?, &self.policy, arguments)
    }

    /// Runs one call. Never panics; bad arguments and refused paths come back as
    /// `ok: false` outcomes the model can read.
    pub async fn call(&self, name: &str, arguments_json: &str) -> BuiltinOutcome {
        let Some(tool) = self.lookup(name) else {
            return BuiltinOutcome::from_result(Err(ToolError::Failed(format!(
                "`{name}` is not one of your tools. Use only the tools you were given."
            ))));
        };
        let args = match Args::parse(name, arguments_json) {
            Ok(args) => args,
            Err(error) => return BuiltinOutcome::from_result(Err(error)),
        };
        let result = if tool == Tool::ExecuteCommand {
            match &self.command {
                Some(runner) => runner.run(&self.policy, &args).await,
                None => Err(ToolError::Failed(format!(
                    "`{name}` is not enabled for this agent."
                ))),
            }
        } else {
            let policy = Arc::clone(&self.policy);
            tokio::task::spawn_blocking(move || run_file_tool(tool, &policy, &args))
                .await
                .unwrap_or_else(|error| {
                    Err(ToolError::Failed(format!(
                        "`{name}` stopped unexpectedly ({error}). Try again, or another way."
                    )))
                })
        };
        BuiltinOutcome::from_result(result)
    }
}

fn run_file_tool(tool: Tool, policy: &PathPolicy, args: &Args) -> ToolResult {
    match tool {
        Tool::ReadTextFile => fs_read::read_text_file(policy, args),
        Tool::ReadMultipleFiles => fs_read::read_multiple_files(policy, args),
        Tool::ListDirectory => fs_read::list_directory(policy, args),
        Tool::DirectoryTree => fs_read::directory_tree(policy, args),
        Tool::SearchFiles => fs_read::search_files(policy, args),
        Tool::GetFileInfo => fs_read::get_file_info(policy, args),
        Tool::ListAllowedDirectories => Ok(fs_read::list_allowed_directories(policy)),
        Tool::WriteFile => fs_write::write_file(policy, args),
        Tool::EditFile => fs_write::edit_file(policy, args),
        Tool::CreateDirectory => fs_write::create_directory(policy, args),
        Tool::MoveFile => fs_write::move_file(policy, args),
        Tool::CopyFile => workspace::copy_file(policy, args),
        Tool::DeleteFile => workspace::delete_file(policy, args),
        Tool::CompareFiles => workspace::compare_files(policy, args),
        Tool::CompareDirectories => workspace::compare_directories(policy, args),
        Tool::ExecuteCommand => Err(ToolError::Failed(format!(
            "`{}` does not run as a file tool.",
            args.tool()
        ))),
    }
}
