//! The filesystem server's reading tools: read_text_file, read_multiple_files,
//! list_directory, directory_tree, search_files, get_file_info, list_allowed_directories.

use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::path::Path;
use std::time::SystemTime;

use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use rustix::fs::Mode;
use serde_json::{Value, json};

use super::args::{Args, ToolError, ToolResult, io_error};
use super::open;
use super::text::{self, End, READ_CAP};
use crate::tools::permissions::{Access, Located, PathPolicy};
use crate::workspace::beneath::{self, Kind, Step};

/// Most entries a listing, tree or search returns.
const LIST_CAP: usize = 1000;
/// Directories directory_tree does not open.
const TREE_SKIPS: [&str; 2] = [".git", "node_modules"];

pub(super) fn read_text_file(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let head = args.opt_count("head")?;
    let tail = args.opt_count("tail")?;
    if head.is_some() && tail.is_some() {
        return Err(ToolError::Failed(
            "Give `head` or `tail`, not both; read the file twice for both ends.".into(),
        ));
    }
    let located = policy.locate(raw, Access::Read)?;
    let end = if tail.is_some() {
        End::Finish
    } else {
        End::Start
    };
    let text = text::read_text(open::read(&located)?, located.path(), raw, end)?;
    policy.record_read(located.path());
    let count = |lines: u64| usize::try_from(lines).unwrap_or(usize::MAX);
    Ok(match (head, tail) {
        (Some(lines), _) => text::head(&text.content, count(lines)),
        (None, Some(lines)) => text::tail(&text.content, count(lines)),
        (None, None) if text.cut => format!(
            "{}\n\n[Showing the first {READ_CAP} of {} bytes. Use `head` or `tail` to read \
             other parts.]",
            text.content, text.size
        ),
        (None, None) => text.content,
    })
}

pub(super) fn read_multiple_files(policy: &PathPolicy, args: &Args) -> ToolResult {
    let paths = args.strings("paths")?;
    if paths.is_empty() {
        return Err(ToolError::Failed(
            "`paths` is empty; list the files to read.".into(),
        ));
    }
    let roots = policy.on_disk();
    let mut parts = Vec::new();
    let mut refusals = Vec::new();
    let mut total = 0usize;
    for raw in &paths {
        if total as u64 > READ_CAP {
            parts.push(format!(
                "{raw}: not read; the reply is already {total} bytes. Read it on its own."
            ));
            continue;
        }
        let part = match roots.locate(raw, Access::Read) {
            Err(refusal) => {
                let part = format!("{raw}: Error - {}", refusal.reason);
                refusals.push(refusal);
                part
            }
            Ok(located) => match open::read(&located)
                .and_then(|file| text::read_text(file, located.path(), raw, End::Start))
            {
                Ok(text) => {
                    policy.record_read(located.path());
                    let note = if text.cut { "\n[cut at 1 MiB]" } else { "" };
                    format!("{raw}:\n{}{note}\n", text.content)
                }
                Err(ToolError::Failed(message)) => format!("{raw}: Error - {message}"),
                Err(ToolError::Refused(refusal)) => format!("{raw}: Error - {}", refusal.reason),
            },
        };
        total += part.len();
        parts.push(part);
    }
    if refusals.len() == paths.len()
        && let Some(first) = refusals.into_iter().next()
    {
        return Err(ToolError::Refused(first));
    }
    Ok(parts.join("\n---\n"))
}

pub(super) fn list_directory(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let located = policy.locate(raw, Access::Read)?;
    let path = located.path();
    let dir = open_dir(&located, "list")?;
    let listed = beneath::entries(dir.as_fd()).map_err(|error| io_error("list", path, &error))?;
    let mut entries: Vec<(String, &str)> = listed
        .into_iter()
        .map(|(name, kind)| {
            let tag = match kind {
                Kind::Dir => "[DIR]",
                Kind::Symlink => "[LINK]",
                Kind::File | Kind::Other => "[FILE]",
            };
            (name.to_string_lossy().into_owned(), tag)
        })
        .collect();
    entries.sort();
    if entries.is_empty() {
        return Ok(format!("{} is empty.", path.display()));
    }
    let shown = entries.len().min(LIST_CAP);
    let mut lines: Vec<String> = entries[..shown]
        .iter()
        .map(|(name, tag)| format!("{tag} {name}"))
        .collect();
    if entries.len() > shown {
        lines.push(format!(
            "… and {} more; use search_files to narrow down.",
            entries.len() - shown
        ));
    }
    Ok(lines.join("\n"))
}

pub(super) fn directory_tree(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let located = policy.locate(raw, Access::Read)?;
    let path = located.path();
    if !path.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{raw}` is not a directory; directory_tree needs one."
        )));
    }
    let dir = open_dir(&located, "list")?;
    let mut budget = LIST_CAP;
    let tree = tree(dir.as_fd(), &mut budget).map_err(|error| io_error("list", path, &error))?;
    let mut out = serde_json::to_string_pretty(&tree).unwrap_or_default();
    if budget == 0 {
        out.push_str(&format!(
            "\n[Cut at {LIST_CAP} entries; ask for a subdirectory to see more.]"
        ));
    }
    Ok(out)
}

/// The opened directory `located`, or why not.
fn open_dir(located: &Located, action: &str) -> Result<std::os::fd::OwnedFd, ToolError> {
    located
        .open(beneath::DIR, Mode::empty())
        .map_err(|error| open::failed(located, action, &error))
}

fn tree(dir: BorrowedFd<'_>, budget: &mut usize) -> io::Result<Vec<Value>> {
    let mut nodes = Vec::new();
    for (name, kind) in beneath::entries(dir)? {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let shown = name.to_string_lossy().into_owned();
        match kind {
            Kind::Dir => {
                let children = if TREE_SKIPS.contains(&shown.as_str()) {
                    Vec::new()
                } else {
                    match beneath::child_dir(dir, &name, false) {
                        Ok(child) => tree(child.as_fd(), budget)?,
                        Err(error) if beneath::changed(&error) => Vec::new(),
                        Err(error) => return Err(error),
                    }
                };
                nodes.push(json!({"name": shown, "type": "directory", "children": children}));
            }
            Kind::Symlink => nodes.push(json!({"name": shown, "type": "symlink"})),
            Kind::File | Kind::Other => nodes.push(json!({"name": shown, "type": "file"})),
        }
    }
    Ok(nodes)
}

pub(super) fn search_files(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let pattern = args.str("pattern")?;
    let excludes = args.opt_strings("excludePatterns")?.unwrap_or_default();
    let located = policy.locate(raw, Access::Read)?;
    let root = located.path();
    if !root.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{raw}` is not a directory; search_files searches inside one."
        )));
    }
    let wanted = Wanted::new(pattern)?;
    let excluded = exclude_set(&excludes)?;
    let dir = open_dir(&located, "search")?;
    let mut found = Vec::new();
    beneath::walk(dir.as_fd(), &mut |entry| {
        if excluded.is_match(entry.relative) || excluded.is_match(entry.name) {
            return Ok(Step::Pass);
        }
        if wanted.matches(entry.relative) {
            found.push(root.join(entry.relative).display().to_string());
            if found.len() == LIST_CAP {
                found.push(format!(
                    "[Stopped at {LIST_CAP} matches; narrow the pattern.]"
                ));
                return Ok(Step::Stop);
            }
        }
        Ok(Step::Enter)
    })
    .map_err(|error| io_error("search", root, &error))?;
    if found.is_empty() {
        return Ok(format!(
            "No matches found for `{pattern}` in {}.",
            root.display()
        ));
    }
    Ok(found.join("\n"))
}

/// A glob (`**/*.rs`) matched against the path relative to the search root, and against the
/// file name alone when it has no `/`; without glob characters, a case-insensitive part of
/// the file name.
enum Wanted {
    Glob { glob: GlobMatcher, by_name: bool },
    Part(String),
}

impl Wanted {
    fn new(pattern: &str) -> Result<Self, ToolError> {
        if !pattern.contains(['*', '?', '[', '{']) {
            return Ok(Wanted::Part(pattern.to_lowercase()));
        }
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|error| bad_glob(pattern, &error))?;
        Ok(Wanted::Glob {
            glob: glob.compile_matcher(),
            by_name: !pattern.contains('/'),
        })
    }

    fn matches(&self, relative: &Path) -> bool {
        let name = relative.file_name().unwrap_or_default();
        match self {
            Wanted::Glob { glob, by_name } => {
                glob.is_match(relative) || (*by_name && glob.is_match(name))
            }
            Wanted::Part(part) => name.to_string_lossy().to_lowercase().contains(part),
        }
    }
}

fn exclude_set(patterns: &[String]) -> Result<GlobSet, ToolError> {
    let mut set = GlobSetBuilder::new();
    for pattern in patterns {
        set.add(Glob::new(pattern).map_err(|error| bad_glob(pattern, &error))?);
    }
    set.build()
        .map_err(|error| ToolError::Failed(format!("`excludePatterns` are not valid: {error}.")))
}

fn bad_glob(pattern: &str, error: &globset::Error) -> ToolError {
    ToolError::Failed(format!(
        "`{pattern}` is not a valid glob ({error}). Use patterns such as `*.rs` or `**/test_*.py`."
    ))
}

pub(super) fn get_file_info(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let located = policy.locate(raw, Access::Read)?;
    let path = located.path();
    let file = open::read(&located)?;
    let meta = file
        .metadata()
        .map_err(|error| io_error("inspect", path, &error))?;
    let time = |when: std::io::Result<SystemTime>| {
        when.ok()
            .and_then(|when| jiff::Timestamp::try_from(when).ok())
            .map_or_else(|| "unknown".to_string(), |when| when.to_string())
    };
    let mut lines = vec![
        format!("path: {}", path.display()),
        format!("size: {}", meta.len()),
        format!("created: {}", time(meta.created())),
        format!("modified: {}", time(meta.modified())),
        format!("accessed: {}", time(meta.accessed())),
        format!("isDirectory: {}", meta.is_dir()),
        format!("isFile: {}", meta.is_file()),
    ];
    #[cfg(unix)]
    lines.push(format!(
        "permissions: {:o}",
        std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777
    ));
    if meta.is_file() {
        lines.push(format!("binary: {}", text::looks_binary(file)));
    }
    Ok(lines.join("\n"))
}

pub(super) fn list_allowed_directories(policy: &PathPolicy) -> String {
    let mut out = String::from("Allowed directories:");
    for line in policy.allowed_directories() {
        out.push('\n');
        out.push_str(&line);
    }
    out
}
