//! The workspace_tools server: copy_file, delete_file, compare_files, compare_directories.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::args::{Args, ToolError, ToolResult, io_error};
use super::fs_write::make_parent;
use super::text;
use crate::tools::permissions::{Access, PathPolicy};

/// Most differing files whose diffs compare_directories shows.
const DIFFS_SHOWN: usize = 10;

pub(super) fn copy_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let source_raw = args.str_either(&["source_path", "source"])?;
    let destination_raw = args.str_either(&["destination_path", "destination"])?;
    let overwrite = args.flag("overwrite")?;
    let roots = policy.on_disk();
    let source = roots.check(source_raw, Access::Read)?;
    let destination = roots.check(destination_raw, Access::Write)?;
    let Ok(meta) = std::fs::metadata(&source) else {
        return Err(ToolError::Failed(format!("`{source_raw}` does not exist.")));
    };
    if destination.starts_with(&source) {
        return Err(ToolError::Failed(format!(
            "`{destination_raw}` is inside `{source_raw}`; a directory cannot be copied into \
             itself."
        )));
    }
    let exists = std::fs::symlink_metadata(&destination).is_ok();
    if exists && !overwrite {
        return Err(ToolError::Failed(format!(
            "`{destination_raw}` already exists. Pass `overwrite: true` to replace it, or pick \
             another name."
        )));
    }
    if !meta.is_dir() {
        if destination.is_dir() {
            return Err(ToolError::Failed(format!(
                "`{destination_raw}` is a directory; give the full destination file path."
            )));
        }
        make_parent(&destination)?;
        let bytes = std::fs::copy(&source, &destination)
            .map_err(|error| io_error("copy", &source, &error))?;
        policy.record_created(&destination);
        return Ok(format!(
            "Copied {} to {} ({bytes} bytes)",
            source.display(),
            destination.display()
        ));
    }
    // Every file is checked before anything is copied, so a refusal leaves nothing behind.
    let mut plan: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut skipped = 0usize;
    for item in WalkDir::new(&source).follow_links(false).min_depth(1) {
        let item = item
            .map_err(|error| ToolError::Failed(format!("Could not list {source_raw}: {error}.")))?;
        if item.file_type().is_symlink() {
            skipped += 1;
            continue;
        }
        let relative = item.path().strip_prefix(&source).unwrap_or(item.path());
        let from = roots.check(&item.path().to_string_lossy(), Access::Read)?;
        let to = roots.check(&destination.join(relative).to_string_lossy(), Access::Write)?;
        plan.push((from, to));
    }
    if exists {
        let entry = roots.check(destination_raw, Access::Delete)?;
        remove(&entry)?;
    }
    std::fs::create_dir_all(&destination)
        .map_err(|error| io_error("create", &destination, &error))?;
    let mut files = 0usize;
    for (from, to) in &plan {
        if from.is_dir() {
            std::fs::create_dir_all(to).map_err(|error| io_error("create", to, &error))?;
        } else {
            make_parent(to)?;
            std::fs::copy(from, to).map_err(|error| io_error("copy", from, &error))?;
            files += 1;
        }
        policy.record_created(to);
    }
    policy.record_created(&destination);
    let note = if skipped > 0 {
        format!(" ({skipped} symbolic links were not copied)")
    } else {
        String::new()
    };
    Ok(format!(
        "Copied directory {} to {} ({files} files){note}",
        source.display(),
        destination.display()
    ))
}

pub(super) fn delete_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let recursive = args.flag("recursive")?;
    let entry = policy.check(raw, Access::Delete)?;
    let Ok(meta) = std::fs::symlink_metadata(&entry) else {
        return Err(ToolError::Failed(format!("`{raw}` does not exist.")));
    };
    if meta.is_dir() && !recursive {
        let empty = std::fs::read_dir(&entry)
            .map_err(|error| io_error("list", &entry, &error))?
            .next()
            .is_none();
        if !empty {
            return Err(ToolError::Failed(format!(
                "`{raw}` is a directory that is not empty. Pass `recursive: true` to delete it \
                 with everything inside."
            )));
        }
    }
    remove(&entry)?;
    Ok(format!("Deleted {}", entry.display()))
}

fn remove(entry: &Path) -> Result<(), ToolError> {
    let is_dir = std::fs::symlink_metadata(entry).is_ok_and(|meta| meta.is_dir());
    let removed = if is_dir {
        std::fs::remove_dir_all(entry)
    } else {
        std::fs::remove_file(entry)
    };
    removed.map_err(|error| io_error("delete", entry, &error))
}

pub(super) fn compare_files(policy: &PathPolicy, args: &Args) -> ToolResult {
    let first_raw = args.str_either(&["file1", "path1"])?;
    let second_raw = args.str_either(&["file2", "path2"])?;
    let context = args.opt_count("context_lines")?.unwrap_or(3);
    let roots = policy.on_disk();
    let first = roots.check(first_raw, Access::Read)?;
    let second = roots.check(second_raw, Access::Read)?;
    let old = text::read_whole(&first, first_raw)?;
    let new = text::read_whole(&second, second_raw)?;
    policy.record_read(&first);
    policy.record_read(&second);
    if old == new {
        return Ok(format!("{first_raw} and {second_raw} are identical."));
    }
    let context = usize::try_from(context).unwrap_or(3);
    let diff = text::unified_diff(&old, &new, first_raw, second_raw, context);
    let added = diff
        .lines()
        .filter(|line| line.starts_with('+') && !line.starts_with("+++"))
        .count();
    let removed = diff
        .lines()
        .filter(|line| line.starts_with('-') && !line.starts_with("---"))
        .count();
    Ok(format!(
        "{added} lines added, {removed} removed.\n```diff\n{diff}```"
    ))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    Link,
}

pub(super) fn compare_directories(policy: &PathPolicy, args: &Args) -> ToolResult {
    let left_raw = args.str_either(&["dir1", "path1"])?;
    let right_raw = args.str_either(&["dir2", "path2"])?;
    let show_diffs = args.flag("show_content_diff")?;
    let roots = policy.on_disk();
    let left = roots.check(left_raw, Access::Read)?;
    let right = roots.check(right_raw, Access::Read)?;
    for (dir, raw) in [(&left, left_raw), (&right, right_raw)] {
        if !dir.is_dir() {
            return Err(ToolError::Failed(format!("`{raw}` is not a directory.")));
        }
    }
    let left_items = listing(&left)?;
    let right_items = listing(&right)?;
    let mut only_left = Vec::new();
    let mut only_right = Vec::new();
    let mut differing = Vec::new();
    let mut unreadable = Vec::new();
    let mut identical = 0usize;
    for (relative, kind) in &left_items {
        match right_items.get(relative) {
            None => only_left.push(relative.clone()),
            Some(other) if other != kind => differing.push(relative.clone()),
            Some(Kind::Dir) => {}
            Some(Kind::Link) => {
                let same = std::fs::read_link(left.join(relative)).ok()
                    == std::fs::read_link(right.join(relative)).ok();
                if same {
                    identical += 1
                } else {
                    differing.push(relative.clone())
                }
            }
            Some(Kind::File) => {
                let checked =
                    |dir: &Path| roots.check(&dir.join(relative).to_string_lossy(), Access::Read);
                let compared: Result<bool, ToolError> = match (checked(&left), checked(&right)) {
                    (Ok(a), Ok(b)) => {
                        same_contents(&a, &b).map_err(|error| io_error("read", &a, &error))
                    }
                    (Err(error), _) | (_, Err(error)) => Err(error.into()),
                };
                match compared {
                    Ok(true) => identical += 1,
                    Ok(false) => differing.push(relative.clone()),
                    Err(error) => unreadable.push((relative.clone(), error)),
                }
            }
        }
    }
    only_right.extend(
        right_items
            .keys()
            .filter(|key| !left_items.contains_key(*key))
            .cloned(),
    );
    let mut out = format!(
        "Comparing {} (left) with {} (right): {identical} identical, {} differing, {} only in \
         left, {} only in right.",
        left.display(),
        right.display(),
        differing.len(),
        only_left.len(),
        only_right.len()
    );
    for (title, items) in [
        ("Only in left", &only_left),
        ("Only in right", &only_right),
        ("Differing", &differing),
    ] {
        if !items.is_empty() {
            out.push_str(&format!("\n{title}:"));
            for item in items {
                out.push_str(&format!("\n  {}", item.display()));
            }
        }
    }
    for (item, error) in &unreadable {
        let why = match error {
            ToolError::Refused(refusal) => refusal.reason.as_str(),
            ToolError::Failed(message) => message.as_str(),
        };
        out.push_str(&format!("\nNot compared: {} ({why})", item.display()));
    }
    if show_diffs {
        for item in differing.iter().take(DIFFS_SHOWN) {
            let shown = item.to_string_lossy();
            let read = |dir: &Path| {
                let path = roots.check(&dir.join(item).to_string_lossy(), Access::Read)?;
                text::read_whole(&path, &shown)
            };
            if let (Ok(old), Ok(new)) = (read(&left), read(&right)) {
                let diff = text::unified_diff(
                    &old,
                    &new,
                    &format!("left/{shown}"),
                    &format!("right/{shown}"),
                    3,
                );
                out.push_str(&format!("\n```diff\n{diff}```"));
            }
        }
    }
    Ok(out)
}

/// Every entry under `dir` by path relative to it; symlinks are listed, never followed.
fn listing(dir: &Path) -> Result<BTreeMap<PathBuf, Kind>, ToolError> {
    let mut items = BTreeMap::new();
    for item in WalkDir::new(dir).follow_links(false).min_depth(1) {
        let item = item.map_err(|error| {
            ToolError::Failed(format!("Could not list {}: {error}.", dir.display()))
        })?;
        let kind = if item.file_type().is_dir() {
            Kind::Dir
        } else if item.file_type().is_symlink() {
            Kind::Link
        } else {
            Kind::File
        };
        let relative = item
            .path()
            .strip_prefix(dir)
            .unwrap_or(item.path())
            .to_path_buf();
        items.insert(relative, kind);
    }
    Ok(items)
}

/// Whether two files hold the same bytes, read a block at a time (files may be large).
fn same_contents(a: &Path, b: &Path) -> std::io::Result<bool> {
    use std::io::Read;

    if std::fs::metadata(a)?.len() != std::fs::metadata(b)?.len() {
        return Ok(false);
    }
    let (mut a, mut b) = (std::fs::File::open(a)?, std::fs::File::open(b)?);
    let (mut left, mut right) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let read = a.read(&mut left)?;
        if read == 0 {
            return Ok(true);
        }
        b.read_exact(&mut right[..read])?;
        if left[..read] != right[..read] {
            return Ok(false);
        }
    }
}
