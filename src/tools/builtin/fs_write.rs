//! The filesystem server's writing tools: write_file, edit_file, create_directory, move_file.

use std::io::{Seek, SeekFrom, Write};
use std::os::fd::AsFd;

use rustix::fs::AtFlags;
use rustix::io::Errno;
use serde_json::{Map, Value};

use super::args::{Args, ToolError, ToolResult, io_error};
use super::{open, text};
use crate::tools::permissions::{Access, PathPolicy, Refusal};
use crate::workspace::beneath::Kind;

pub(super) fn write_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let content = args.str("content")?;
    let located = policy.locate(raw, Access::Write)?;
    let path = located.path();
    if path.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{raw}` is a directory; give a file path inside it."
        )));
    }
    open::write(&located)?
        .write_all(content.as_bytes())
        .map_err(|error| io_error("write", path, &error))?;
    policy.record_created(path);
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
    let located = policy.locate(raw, Access::Write)?;
    let path = located.path();
    let mut file = open::read_write(&located)?;
    let reader = file
        .try_clone()
        .map_err(|error| io_error("read", path, &error))?;
    let original = text::read_whole(reader, path, raw)?;
    policy.record_read(path);
    let content = apply_edits(&original, &edits, raw)?;
    if content == original {
        return Ok(format!("The edits leave {raw} unchanged."));
    }
    let diff = text::unified_diff(&original, &content, raw, raw, 3);
    if dry_run {
        return Ok(format!(
            "```diff\n{diff}```\n(dry run: nothing was written)"
        ));
    }
    file.set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)))
        .and_then(|_| file.write_all(content.as_bytes()))
        .map_err(|error| io_error("write", path, &error))?;
    policy.record_created(path);
    Ok(format!("```diff\n{diff}```"))
}

/// `original` with `edits` (`{oldText, newText}`, each matching exactly once) applied in
/// order; `raw` names the file in messages.
pub(super) fn apply_edits(
    original: &str,
    edits: &[Map<String, Value>],
    raw: &str,
) -> Result<String, ToolError> {
    let mut content = original.to_string();
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
    Ok(content)
}

pub(super) fn create_directory(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let located = policy.locate(raw, Access::Write)?;
    let path = located.path();
    if path.is_file() {
        return Err(ToolError::Failed(format!(
            "`{raw}` is a file, so no directory can be made there."
        )));
    }
    located
        .create_dirs()
        .map_err(|error| open::failed(&located, "create", &error))?;
    policy.record_created(path);
    Ok(format!("Successfully created directory {}", path.display()))
}

pub(super) fn move_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let source_raw = args.str_either(&["source", "source_path"])?;
    let destination_raw = args.str_either(&["destination", "destination_path"])?;
    let roots = policy.on_disk();
    let source = roots.locate(source_raw, Access::Write)?;
    if roots.is_root(source.path()) {
        return Err(ToolError::Refused(Refusal {
            path: source_raw.to_string(),
            reason: format!(
                "`{source_raw}` is one of the directories you were given; it cannot be moved. \
                 Move the files inside it instead."
            ),
        }));
    }
    let Some((source_dir, source_name, kind)) = open::entry(&source)? else {
        return Err(ToolError::Failed(format!("`{source_raw}` does not exist.")));
    };
    let destination = roots.locate(destination_raw, Access::Write)?;
    if open::exists(&destination)? {
        return Err(ToolError::Failed(format!(
            "`{destination_raw}` already exists and move_file does not overwrite. Pick another \
             name, or delete it first."
        )));
    }
    if destination.path().starts_with(source.path()) {
        return Err(ToolError::Failed(format!(
            "`{source_raw}` cannot be moved into itself."
        )));
    }
    let (destination_dir, destination_name) = destination
        .parent(true)
        .map_err(|error| open::failed(&destination, "create the folders for", &error))?;
    let moved = rustix::fs::renameat(
        &source_dir,
        &source_name,
        &destination_dir,
        &destination_name,
    );
    match moved {
        Ok(()) => {}
        Err(Errno::XDEV) if kind == Kind::File => {
            open::copy(&source, &destination)?;
            rustix::fs::unlinkat(source_dir.as_fd(), &source_name, AtFlags::empty())
                .map_err(|error| io_error("remove", source.path(), &error.into()))?;
        }
        Err(error) => return Err(io_error("move", source.path(), &error.into())),
    }
    policy.record_moved(source.path(), destination.path());
    Ok(format!(
        "Successfully moved {} to {}",
        source.path().display(),
        destination.path().display()
    ))
}
