//! The filesystem server's reading tools: read_text_file, read_multiple_files,
//! list_directory, directory_tree, search_files, get_file_info, list_allowed_directories.

use std::path::Path;
use std::time::SystemTime;

use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use serde_json::{Value, json};
use walkdir::WalkDir;

use super::args::{Args, ToolError, ToolResult, io_error};
use super::text::{self, End, READ_CAP};
use crate::tools::permissions::{Access, PathPolicy};

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
    let path = policy.check(raw, Access::Read)?;
    let end = if tail.is_some() {
        End::Finish
    } else {
        End::Start
    };
    let text = text::read_text(&path, raw, end)?;
    policy.record_read(&path);
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
        let part = match roots.check(raw, Access::Read) {
            Err(refusal) => {
                let part = format!("{raw}: Error - {}", refusal.reason);
                refusals.push(refusal);
                part
            }
            Ok(path) => match text::read_text(&path, raw, End::Start) {
                Ok(text) => {
                    policy.record_read(&path);
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
    let path = policy.check(raw, Access::Read)?;
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(&path).map_err(|error| io_error("list", &path, &error))? {
        let entry = entry.map_err(|error| io_error("list", &path, &error))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let tag = match entry.file_type() {
            Ok(kind) if kind.is_dir() => "[DIR]",
            Ok(kind) if kind.is_symlink() => "[LINK]",
            Ok(_) | Err(_) => "[FILE]",
        };
        entries.push((name, tag));
    }
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
    let path = policy.check(raw, Access::Read)?;
    if !path.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{raw}` is not a directory; directory_tree needs one."
        )));
    }
    let mut budget = LIST_CAP;
    let tree = tree(&path, &mut budget).map_err(|error| io_error("list", &path, &error))?;
    let mut out = serde_json::to_string_pretty(&tree).unwrap_or_default();
    if budget == 0 {
        out.push_str(&format!(
            "\n[Cut at {LIST_CAP} entries; ask for a subdirectory to see more.]"
        ));
    }
    Ok(out)
}

fn tree(dir: &Path, budget: &mut usize) -> std::io::Result<Vec<Value>> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|entry| entry.file_name());
    let mut nodes = Vec::new();
    for entry in entries {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            let children = if TREE_SKIPS.contains(&name.as_str()) {
                Vec::new()
            } else {
                tree(&entry.path(), budget)?
            };
            nodes.push(json!({"name": name, "type": "directory", "children": children}));
        } else if kind.is_symlink() {
            nodes.push(json!({"name": name, "type": "symlink"}));
        } else {
            nodes.push(json!({"name": name, "type": "file"}));
        }
    }
    Ok(nodes)
}

pub(super) fn search_files(policy: &PathPolicy, args: &Args) -> ToolResult {
    let raw = args.str("path")?;
    let pattern = args.str("pattern")?;
    let excludes = args.opt_strings("excludePatterns")?.unwrap_or_default();
    let root = policy.check(raw, Access::Read)?;
    if !root.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{raw}` is not a directory; search_files searches inside one."
        )));
    }
    let wanted = Wanted::new(pattern)?;
    let excluded = exclude_set(&excludes)?;
    let is_excluded = |path: &Path| {
        let relative = path.strip_prefix(&root).unwrap_or(path);
        excluded.is_match(relative) || path.file_name().is_some_and(|name| excluded.is_match(name))
    };
    let mut found = Vec::new();
    let walk = WalkDir::new(&root)
        .follow_links(false)
        .min_depth(1)
        .into_iter()
        .filter_entry(|entry| !is_excluded(entry.path()));
    for entry in walk.flatten() {
        let relative = entry.path().strip_prefix(&root).unwrap_or(entry.path());
        if wanted.matches(relative) {
            found.push(entry.path().display().to_string());
            if found.len() == LIST_CAP {
                found.push(format!(
                    "[Stopped at {LIST_CAP} matches; narrow the pattern.]"
                ));
                break;
            }
        }
    }
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
    let path = policy.check(raw, Access::Read)?;
    let meta = std::fs::metadata(&path).map_err(|error| io_error("inspect", &path, &error))?;
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
        lines.push(format!("binary: {}", text::looks_binary(&path)));
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
