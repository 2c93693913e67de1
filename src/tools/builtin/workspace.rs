//! The workspace_tools server: copy_file, delete_file, compare_files, compare_directories.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

use rustix::fs::Mode;

use super::args::{Args, ToolError, ToolResult, io_error};
use super::{open, text};
use crate::tools::permissions::{Access, Located, OnDisk, PathPolicy, Refusal};
use crate::workspace::beneath::{self, Kind, Step};

/// Most differing files whose diffs compare_directories shows.
const DIFFS_SHOWN: usize = 10;

pub(super) fn copy_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let source_raw = args.str_either(&["source_path", "source"])?;
    let destination_raw = args.str_either(&["destination_path", "destination"])?;
    let overwrite = args.flag("overwrite")?;
    let roots = policy.on_disk();
    let source = roots.locate(source_raw, Access::Read)?;
    let destination = roots.locate(destination_raw, Access::Write)?;
    let Ok(meta) = std::fs::metadata(source.path()) else {
        return Err(ToolError::Failed(format!("`{source_raw}` does not exist.")));
    };
    if destination.path().starts_with(source.path()) {
        return Err(ToolError::Failed(format!(
            "`{destination_raw}` is inside `{source_raw}`; a directory cannot be copied into \
             itself."
        )));
    }
    let exists = open::exists(&destination)?;
    if exists && !overwrite {
        return Err(ToolError::Failed(format!(
            "`{destination_raw}` already exists. Pass `overwrite: true` to replace it, or pick \
             another name."
        )));
    }
    if !meta.is_dir() {
        if destination.path().is_dir() {
            return Err(ToolError::Failed(format!(
                "`{destination_raw}` is a directory; give the full destination file path."
            )));
        }
        let bytes = open::copy(&source, &destination)?;
        policy.record_created(destination.path());
        return Ok(format!(
            "Copied {} to {} ({bytes} bytes)",
            source.path().display(),
            destination.path().display()
        ));
    }
    // Every file is checked before anything is copied, so a refusal leaves nothing behind.
    let (plan, skipped) = copy_plan(&roots, &source, &destination, source_raw)?;
    if exists {
        open::remove(&roots.locate(destination_raw, Access::Delete)?)?;
    }
    destination
        .create_dirs()
        .map_err(|error| open::failed(&destination, "create", &error))?;
    let mut files = 0usize;
    for (from, to, kind) in &plan {
        if *kind == Kind::Dir {
            to.create_dirs()
                .map_err(|error| open::failed(to, "create", &error))?;
        } else {
            open::copy(from, to)?;
            files += 1;
        }
        policy.record_created(to.path());
    }
    policy.record_created(destination.path());
    let note = if skipped > 0 {
        format!(" ({skipped} symbolic links were not copied)")
    } else {
        String::new()
    };
    Ok(format!(
        "Copied directory {} to {} ({files} files){note}",
        source.path().display(),
        destination.path().display()
    ))
}

/// What goes where in a directory copy: each entry, its destination and its kind.
type CopyPlan = Vec<(Located, Located, Kind)>;

/// Each entry below `source` with where it goes below `destination`, every one allowed;
/// symlinks are counted, not copied.
fn copy_plan(
    roots: &OnDisk<'_>,
    source: &Located,
    destination: &Located,
    source_raw: &str,
) -> Result<(CopyPlan, usize), ToolError> {
    let dir = source
        .open(beneath::DIR, Mode::empty())
        .map_err(|error| open::failed(source, "list", &error))?;
    let mut plan = Vec::new();
    let mut skipped = 0usize;
    let mut refused: Option<Refusal> = None;
    beneath::walk(dir.as_fd(), &mut |entry| {
        if entry.kind == Kind::Symlink {
            skipped += 1;
            return Ok(Step::Pass);
        }
        let at = |base: &Path| base.join(entry.relative).to_string_lossy().into_owned();
        let from = roots.locate(&at(source.path()), Access::Read);
        let to = roots.locate(&at(destination.path()), Access::Write);
        match (from, to) {
            (Ok(from), Ok(to)) => plan.push((from, to, entry.kind)),
            (Err(refusal), _) | (_, Err(refusal)) => {
                refused = Some(refusal);
                return Ok(Step::Stop);
            }
        }
        Ok(Step::Enter)
    })
    .map_err(|error| ToolError::Failed(format!("Could not list {source_raw}: {error}.")))?;
    match refused {
        Some(refusal) => Err(ToolError::Refused(refusal)),
        None => Ok((plan, skipped)),
    }
}

pub(super) fn delete_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let recursive = args.flag("recursive")?;
    let entry = policy.locate(raw, Access::Delete)?;
    let Some((dir, name, kind)) = open::entry(&entry)? else {
        return Err(ToolError::Failed(format!("`{raw}` does not exist.")));
    };
    if kind == Kind::Dir && !recursive {
        let empty = beneath::child_dir(dir.as_fd(), &name, false)
            .and_then(|child| beneath::entries(child.as_fd()))
            .map_err(|error| open::failed(&entry, "list", &error))?
            .is_empty();
        if !empty {
            return Err(ToolError::Failed(format!(
                "`{raw}` is a directory that is not empty. Pass `recursive: true` to delete it \
                 with everything inside."
            )));
        }
    }
    beneath::remove_all(dir.as_fd(), &name)
        .map_err(|error| open::failed(&entry, "delete", &error))?;
    Ok(format!("Deleted {}", entry.path().display()))
}

pub(super) fn compare_files(policy: &PathPolicy, args: &Args) -> ToolResult {
    let first_raw = args.str_either(&["file1", "path1"])?;
    let second_raw = args.str_either(&["file2", "path2"])?;
    let context = args.opt_count("context_lines")?.unwrap_or(3);
    let roots = policy.on_disk();
    let first = roots.locate(first_raw, Access::Read)?;
    let second = roots.locate(second_raw, Access::Read)?;
    let old = text::read_whole(open::read(&first)?, first.path(), first_raw)?;
    let new = text::read_whole(open::read(&second)?, second.path(), second_raw)?;
    policy.record_read(first.path());
    policy.record_read(second.path());
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

/// An entry of a compared directory; a link with its target.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    File,
    Dir,
    Link(OsString),
}

pub(super) fn compare_directories(policy: &PathPolicy, args: &Args) -> ToolResult {
    let left_raw = args.str_either(&["dir1", "path1"])?;
    let right_raw = args.str_either(&["dir2", "path2"])?;
    let show_diffs = args.flag("show_content_diff")?;
    let roots = policy.on_disk();
    let left_at = roots.locate(left_raw, Access::Read)?;
    let right_at = roots.locate(right_raw, Access::Read)?;
    for (dir, raw) in [(&left_at, left_raw), (&right_at, right_raw)] {
        if !dir.path().is_dir() {
            return Err(ToolError::Failed(format!("`{raw}` is not a directory.")));
        }
    }
    let left_items = listing(&left_at)?;
    let right_items = listing(&right_at)?;
    let (left, right) = (left_at.path(), right_at.path());
    let mut only_left = Vec::new();
    let mut only_right = Vec::new();
    let mut differing = Vec::new();
    let mut unreadable = Vec::new();
    let mut identical = 0usize;
    for (relative, item) in &left_items {
        match right_items.get(relative) {
            None => only_left.push(relative.clone()),
            Some(other) if other != item => differing.push(relative.clone()),
            Some(Item::Dir) => {}
            Some(Item::Link(_)) => identical += 1,
            Some(Item::File) => {
                let checked =
                    |dir: &Path| roots.locate(&dir.join(relative).to_string_lossy(), Access::Read);
                let compared: Result<bool, ToolError> = match (checked(left), checked(right)) {
                    (Ok(a), Ok(b)) => same_contents(&a, &b),
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
                let located = roots.locate(&dir.join(item).to_string_lossy(), Access::Read)?;
                text::read_whole(open::read(&located)?, located.path(), &shown)
            };
            if let (Ok(old), Ok(new)) = (read(left), read(right)) {
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
fn listing(dir: &Located) -> Result<BTreeMap<PathBuf, Item>, ToolError> {
    let opened = dir
        .open(beneath::DIR, Mode::empty())
        .map_err(|error| open::failed(dir, "list", &error))?;
    let mut items = BTreeMap::new();
    beneath::walk(opened.as_fd(), &mut |entry| {
        let item = match entry.kind {
            Kind::Dir => Item::Dir,
            Kind::Symlink => {
                let target = rustix::fs::readlinkat(entry.parent, entry.name, Vec::new())?;
                Item::Link(OsString::from_vec(target.into_bytes()))
            }
            Kind::File | Kind::Other => Item::File,
        };
        items.insert(entry.relative.to_path_buf(), item);
        Ok(Step::Enter)
    })
    .map_err(|error| {
        ToolError::Failed(format!("Could not list {}: {error}.", dir.path().display()))
    })?;
    Ok(items)
}

/// Whether two files hold the same bytes, read a block at a time (files may be large).
fn same_contents(a: &Located, b: &Located) -> Result<bool, ToolError> {
    let (mut first, mut second) = (open::read(a)?, open::read(b)?);
    let read_error = |error: std::io::Error| io_error("read", a.path(), &error);
    let length = |file: &std::fs::File| file.metadata().map(|meta| meta.len());
    if length(&first).map_err(read_error)? != length(&second).map_err(read_error)? {
        return Ok(false);
    }
    let (mut left, mut right) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let read = first.read(&mut left).map_err(read_error)?;
        if read == 0 {
            return Ok(true);
        }
        second.read_exact(&mut right[..read]).map_err(read_error)?;
        if left[..read] != right[..read] {
            return Ok(false);
        }
    }
}
