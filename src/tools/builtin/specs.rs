//! The JSON schemas and descriptions models see for each built-in tool.

use serde_json::{Value, json};

use super::Tool;
use crate::backend::ToolSpec;

const PATH_NOTE: &str = "Relative paths are taken from your workspace.";

fn string(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

fn integer(description: &str) -> Value {
    json!({"type": "integer", "description": description})
}

/// A boolean that is `false` unless given.
fn flag(description: &str) -> Value {
    json!({"type": "boolean", "description": description, "default": false})
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

pub(super) fn spec(tool: Tool) -> ToolSpec {
    let (description, parameters) = match tool {
        Tool::ReadTextFile => (
            format!(
                "Read a text file. Optional `head` or `tail` reads only the first or last N \
                 lines. Binary files are refused; large files are cut at 1 MiB. {PATH_NOTE}"
            ),
            object(
                json!({
                    "path": string("File to read."),
                    "head": integer("Only the first N lines."),
                    "tail": integer("Only the last N lines.")
                }),
                &["path"],
            ),
        ),
        Tool::ReadMultipleFiles => (
            format!(
                "Read several text files at once; each comes back under its path, and a \
                 failure on one does not stop the others. {PATH_NOTE}"
            ),
            object(
                json!({"paths": {"type": "array", "items": {"type": "string"}, "description": "Files to read."}}),
                &["paths"],
            ),
        ),
        Tool::WriteFile => (
            format!(
                "Create a file or replace its whole content; missing parent directories are \
                 created. To change part of a file use edit_file. {PATH_NOTE}"
            ),
            object(
                json!({
                    "path": string("File to write."),
                    "content": string("The complete new content.")
                }),
                &["path", "content"],
            ),
        ),
        Tool::EditFile => (
            format!(
                "Replace exact text in a file. Each `oldText` must match exactly one place \
                 (whitespace included); edits apply in order. Returns a diff. `dryRun` shows \
                 the diff without writing. {PATH_NOTE}"
            ),
            object(
                json!({
                    "path": string("File to edit."),
                    "edits": {
                        "type": "array",
                        "items": object(
                            json!({
                                "oldText": string("Text to find, copied exactly."),
                                "newText": string("Text to put in its place.")
                            }),
                            &["oldText", "newText"],
                        )
                    },
                    "dryRun": flag("Preview the diff only.")
                }),
                &["path", "edits"],
            ),
        ),
        Tool::CreateDirectory => (
            format!("Create a directory, with any missing parents. {PATH_NOTE}"),
            object(json!({"path": string("Directory to create.")}), &["path"]),
        ),
        Tool::ListDirectory => (
            format!("List a directory: one `[DIR] name` or `[FILE] name` per line. {PATH_NOTE}"),
            object(json!({"path": string("Directory to list.")}), &["path"]),
        ),
        Tool::DirectoryTree => (
            format!(
                "A directory's files and subdirectories as a JSON tree (`name`, `type`, \
                 `children`); `.git` and `node_modules` are not opened. {PATH_NOTE}"
            ),
            object(json!({"path": string("Directory to show.")}), &["path"]),
        ),
        Tool::SearchFiles => (
            format!(
                "Find files and directories under `path` whose path matches a glob such as \
                 `*.rs` or `src/**/test_*.py` (without glob characters: names containing the \
                 text). Returns full paths. {PATH_NOTE}"
            ),
            object(
                json!({
                    "path": string("Directory to search in."),
                    "pattern": string("Glob, or part of a file name."),
                    "excludePatterns": {"type": "array", "items": {"type": "string"}, "description": "Globs or names to skip, such as `target` or `**/*.log`."}
                }),
                &["path", "pattern"],
            ),
        ),
        Tool::GetFileInfo => (
            format!("Size, times, type and permissions of a file or directory. {PATH_NOTE}"),
            object(json!({"path": string("File or directory.")}), &["path"]),
        ),
        Tool::MoveFile => (
            format!(
                "Move or rename a file or directory. Fails if the destination exists. \
                 {PATH_NOTE}"
            ),
            object(
                json!({
                    "source": string("What to move."),
                    "destination": string("Where it goes, including the new name.")
                }),
                &["source", "destination"],
            ),
        ),
        Tool::ListAllowedDirectories => (
            "List the directories you may use and what you may do in each.".to_string(),
            object(json!({}), &[]),
        ),
        Tool::CopyFile => (
            format!(
                "Copy a file or directory (for example from another agent's workspace or a \
                 context path) into your workspace. {PATH_NOTE}"
            ),
            object(
                json!({
                    "source_path": string("File or directory to copy."),
                    "destination_path": string("Where the copy goes."),
                    "overwrite": flag("Replace an existing destination.")
                }),
                &["source_path", "destination_path"],
            ),
        ),
        Tool::DeleteFile => (
            format!(
                "Delete a file or directory you have read or created in this session. \
                 Non-empty directories need `recursive: true`. {PATH_NOTE}"
            ),
            object(
                json!({
                    "path": string("File or directory to delete."),
                    "recursive": flag("Delete a directory with its contents.")
                }),
                &["path"],
            ),
        ),
        Tool::CompareFiles => (
            format!("Show a unified line diff between two text files. {PATH_NOTE}"),
            object(
                json!({
                    "file1": string("The original."),
                    "file2": string("The changed file."),
                    "context_lines": {"type": "integer", "description": "Unchanged lines around each change.", "default": 3}
                }),
                &["file1", "file2"],
            ),
        ),
        Tool::CompareDirectories => (
            format!(
                "Compare two directories: entries only in one, files that differ, and how many \
                 are identical. {PATH_NOTE}"
            ),
            object(
                json!({
                    "dir1": string("Left directory."),
                    "dir2": string("Right directory."),
                    "show_content_diff": flag("Include diffs of differing text files.")
                }),
                &["dir1", "dir2"],
            ),
        ),
        Tool::ExecuteCommand => (
            "Run one command in your workspace, without a shell: no pipes, redirection, `;` or \
             `&&` chains, variables or globbing. Paths outside the allowed directories are \
             refused. A `.venv` in the workspace is used automatically. Returns the exit code, \
             stdout and stderr (long output is cut in the middle)."
                .to_string(),
            object(
                json!({
                    "command": string("The command line, e.g. `python -m pytest tests -q`."),
                    "timeout": integer("Seconds before the command is killed (capped by the configuration)."),
                    "work_dir": string("Directory inside your workspace to run in; default the workspace.")
                }),
                &["command"],
            ),
        ),
    };
    ToolSpec {
        name: tool.name(),
        description,
        parameters,
    }
}
