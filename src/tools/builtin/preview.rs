//! The change a `write_file` or `edit_file` call would make, as a unified diff against the
//! file on disk (a new file is all added), shown when the call is put to a person.

use std::path::Path;

use super::Tool;
use super::args::Args;
use super::fs_write::apply_edits;
use super::text;
use crate::tools::permissions::{Access, PathPolicy};

/// The most diff lines shown; the rest is counted.
const MAX_LINES: usize = 200;
/// Files larger than this are not read for a preview.
const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The diff of `tool`'s call with `arguments`; `None` for other tools, a refused path, a
/// file that cannot be read, or arguments the call itself would fail on.
pub(super) fn write_preview(tool: Tool, policy: &PathPolicy, arguments: &str) -> Option<String> {
    let args = Args::parse(&tool.name(), arguments).ok()?;
    let raw = args.str("path").ok()?;
    let path = policy.check(raw, Access::Write).ok()?;
    let old = read_existing(&path)?;
    let new = match tool {
        Tool::WriteFile => args.str("content").ok()?.to_string(),
        Tool::EditFile => apply_edits(
            old.as_deref().unwrap_or_default(),
            &args.objects("edits").ok()?,
            raw,
        )
        .ok()?,
        _ => return None,
    };
    let from = if old.is_some() { raw } else { "/dev/null" };
    let diff = text::unified_diff(old.as_deref().unwrap_or_default(), &new, from, raw, 3);
    Some(cap(&diff))
}

/// `Some(None)` when there is no file yet; `None` when it cannot be previewed.
fn read_existing(path: &Path) -> Option<Option<String>> {
    match std::fs::metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Some(None),
        Err(_) => None,
        Ok(meta) if !meta.is_file() || meta.len() > MAX_BYTES => None,
        Ok(_) => std::fs::read_to_string(path).ok().map(Some),
    }
}

fn cap(diff: &str) -> String {
    let total = diff.lines().count();
    if total <= MAX_LINES {
        return diff.to_string();
    }
    let mut shown: String = diff
        .lines()
        .take(MAX_LINES)
        .flat_map(|line| [line, "\n"])
        .collect();
    shown.push_str(&format!("… {} more lines\n", total - MAX_LINES));
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn policy(dir: &Path) -> PathPolicy {
        PathPolicy::new(dir.to_path_buf(), Vec::new(), Vec::new())
    }

    #[test]
    fn a_new_file_is_all_added_and_an_edit_is_applied_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let policy = policy(dir.path());
        let new = write_preview(
            Tool::WriteFile,
            &policy,
            r#"{"path": "notes.txt", "content": "one\ntwo\n"}"#,
        )
        .unwrap();
        assert!(new.contains("--- /dev/null\n+++ notes.txt"), "{new}");
        assert!(new.contains("+one\n+two\n"), "{new}");
        assert!(!dir.path().join("notes.txt").exists());

        std::fs::write(dir.path().join("notes.txt"), "one\ntwo\n").unwrap();
        let edit = write_preview(
            Tool::EditFile,
            &policy,
            r#"{"path": "notes.txt", "edits": [{"oldText": "two", "newText": "three"}]}"#,
        )
        .unwrap();
        assert!(edit.contains("-two\n+three\n"), "{edit}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
            "one\ntwo\n"
        );
    }

    #[test]
    fn refused_paths_and_other_tools_have_no_preview_and_long_diffs_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        let policy = policy(&dir.path().join("ws"));
        std::fs::create_dir_all(dir.path().join("ws")).unwrap();
        let outside = PathBuf::from(dir.path()).join("elsewhere.txt");
        let arguments = serde_json::json!({"path": outside, "content": "x"}).to_string();
        assert_eq!(write_preview(Tool::WriteFile, &policy, &arguments), None);
        assert_eq!(
            write_preview(Tool::CreateDirectory, &policy, r#"{"path": "d"}"#),
            None
        );
        let content: String = (0..500).map(|n| format!("{n}\n")).collect();
        let arguments = serde_json::json!({"path": "big.txt", "content": content}).to_string();
        let capped = write_preview(Tool::WriteFile, &policy, &arguments).unwrap();
        assert_eq!(capped.lines().count(), MAX_LINES + 1);
        assert!(capped.ends_with("more lines\n"), "{capped}");
    }
}
