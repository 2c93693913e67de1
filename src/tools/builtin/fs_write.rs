//! The filesystem server's writing tools: write_file, edit_file, create_directory, move_file.

use std::io::ErrorKind;
use std::path::Path;

use serde_json::Value;

use super::args::{Args, ToolError, ToolResult, io_error};
use super::text;
use crate::tools::permissions::{Access, PathPolicy, Refusal};

pub(super) fn write_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let content = args.str("content")?;
    let path = policy.check(raw, Access::Write)?;
    if path.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{raw}` is a directory; give a file path inside it."
        )));
    }
    make_parent(&path)?;
    std::fs::write(&path, content).map_err(|error| io_error("write", &path, &error))?;
    policy.record_created(&path);
    Ok(format!(
        "Successfully wrote {} bytes to {}",
        content.len(),
        path.display()
    ))
}

pub(super) fn edit_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let edits = args.objects("edits")?;
    let dry_run = args.flag("dryRun")?;
    if edits.is_empty() {
        return Err(ToolError::Failed(
            "`edits` is empty; give at least one {oldText, newText} pair.".into(),
        ));
    }
    let path = policy.check(raw, Access::Write)?;
    let original = text::read_whole(&path, raw)?;
    policy.record_read(&path);
    let mut content = original.clone();
    for (index, edit) in edits.iter().enumerate() {
        let number = index + 1;
        let field = |name: &str| match edit.get(name) {
            Some(Value::String(text)) => Ok(text.as_str()),
            Some(_) | None => Err(ToolError::Failed(format!(
                "Edit {number} needs `{name}` as a string."
            ))),
        };
        let old = field("oldText")?;
        let new = field("newText")?;
        if old.is_empty() {
            return Err(ToolError::Failed(format!(
                "Edit {number} has an empty `oldText`; copy the exact text to replace from the \
                 file. To rewrite the whole file use write_file."
            )));
        }
        match content.matches(old).count() {
            0 => {
                return Err(ToolError::Failed(format!(
                    "Edit {number}: `oldText` was not found in {raw} (after the earlier edits). \
                     Copy it exactly from read_text_file, whitespace and line breaks included. \
                     Nothing was changed."
                )));
            }
            1 => content = content.replacen(old, new, 1),
            places => {
                return Err(ToolError::Failed(format!(
                    "Edit {number}: `oldText` matches {places} places in {raw}. Include more of \
                     the surrounding lines so it matches exactly once. Nothing was changed."
                )));
            }
        }
    }
    if content == original {
        return Ok(format!("The edits leave {raw} unchanged."));
    }
    let diff = text::unified_diff(&original, &content, raw, raw, 3);
    if dry_run {
        return Ok(format!(
            "```diff\n{diff}```\n(dry run: nothing was written)"
        ));
    }
    std::fs::write(&path, &content).map_err(|error| io_error("write", &path, &error))?;
    policy.record_created(&path);
    Ok(format!("```diff\n{diff}```"))
}

pub(super) fn create_directory(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let path = policy.check(raw, Access::Write)?;
    if path.is_file() {
        return Err(ToolError::Failed(format!(
            "`{raw}` is a file, so no directory can be made there."
        )));
    }
    std::fs::create_dir_all(&path).map_err(|error| io_error("create", &path, &error))?;
    policy.record_created(&path);
    Ok(format!("Successfully created directory {}", path.display()))
}

pub(super) fn move_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let source_raw = args.str_either(&["source", "source_path"])?;
    let destination_raw = args.str_either(&["destination", "destination_path"])?;
    let roots = policy.on_disk();
    let source = roots.check(source_raw, Access::Write)?;
    if roots.is_root(&source) {
        return Err(ToolError::Refused(Refusal {
            path: source_raw.to_string(),
            reason: format!(
                "`{source_raw}` is one of the directories you were given; it cannot be moved. \
                 Move the files inside it instead."
            ),
        }));
    }
    if std::fs::symlink_metadata(&source).is_err() {
        return Err(ToolError::Failed(format!("`{source_raw}` does not exist.")));
    }
    let destination = roots.check(destination_raw, Access::Write)?;
    if std::fs::symlink_metadata(&destination).is_ok() {
        return Err(ToolError::Failed(format!(
            "`{destination_raw}` already exists and move_file does not overwrite. Pick another \
             name, or delete it first."
        )));
    }
    if destination.starts_with(&source) {
        return Err(ToolError::Failed(format!(
            "`{source_raw}` cannot be moved into itself."
        )));
    }
    make_parent(&destination)?;
    match std::fs::rename(&source, &destination) {
        Ok(()) => {}
        Err(error) if error.kind() == ErrorKind::CrossesDevices && source.is_file() => {
            std::fs::copy(&source, &destination)
                .map_err(|error| io_error("copy", &source, &error))?;
            std::fs::remove_file(&source).map_err(|error| io_error("remove", &source, &error))?;
        }
        Err(error) => return Err(io_error("move", &source, &error)),
    }
    policy.record_moved(&source, &destination);
    Ok(format!(
        "Successfully moved {} to {}",
        source.display(),
        destination.display()
    ))
}

/// Creates the missing directories above `path`.
pub(super) fn make_parent(path: &Path) -> Result<(), ToolError> {
    match path.parent() {
        Some(parent) => {
            std::fs::create_dir_all(parent).map_err(|error| io_error("create", parent, &error))
        }
        None => Ok(()),
    }
}
