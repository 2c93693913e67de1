//! Reading the diagnostic report a `submit_checklist` call names in `report_path`, as
//! MassGen 0.1.97 resolves it: relative to the agent's workspace (the working directory
//! without one), and never outside it.

use std::path::{Component, Path, PathBuf};

use crate::orchestrator::coordination::Report;

/// The `report_path` argument of a `submit_checklist` call, when it names one.
pub fn report_path(arguments: &str) -> Option<String> {
    let arguments: serde_json::Value = serde_json::from_str(arguments).ok()?;
    arguments
        .get("report_path")?
        .as_str()
        .map(str::trim)
        .filter(|path| !path.is_empty())
        .map(str::to_string)
}

/// `path` without `.` and with `..` taken back, not touching the disk.
fn normalized(path: &Path) -> PathBuf {
    let mut clean = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

/// What `report_path` holds, read from inside `workspace`.
pub fn read(report_path: Option<&str>, workspace: Option<&Path>) -> Report {
    let Some(raw) = report_path else {
        return Report::Missing;
    };
    let root = match workspace {
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir().unwrap_or_default(),
    };
    let root = normalized(&root);
    let candidate = normalized(&root.join(raw));
    if !candidate.starts_with(&root) {
        return Report::Unreadable(format!(
            "Report path must stay inside workspace ({}) unless it is an allowed external \
             evaluator artifact.",
            root.display()
        ));
    }
    if !candidate.exists() {
        return Report::Unreadable(format!("Report file not found: {}", candidate.display()));
    }
    if !candidate.is_file() {
        return Report::Unreadable(format!(
            "Report path is not a file: {}",
            candidate.display()
        ));
    }
    match std::fs::read_to_string(&candidate) {
        Ok(text) => Report::Text(text),
        Err(error) => Report::Unreadable(format!("Unable to read report file: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_read_from_inside_the_workspace_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("tasks")).unwrap();
        std::fs::write(dir.path().join("tasks/report.md"), "## Gaps").unwrap();
        let read_at = |path: &str| read(Some(path), Some(dir.path()));
        assert_eq!(read_at("tasks/report.md"), Report::Text("## Gaps".into()));
        let inside = dir.path().join("tasks/report.md");
        assert_eq!(
            read_at(inside.to_str().unwrap()),
            Report::Text("## Gaps".into())
        );
        assert!(
            matches!(read_at("../outside.md"), Report::Unreadable(reason) if reason.starts_with("Report path must stay inside"))
        );
        assert!(
            matches!(read_at("tasks/none.md"), Report::Unreadable(reason) if reason.starts_with("Report file not found"))
        );
        assert!(
            matches!(read_at("tasks"), Report::Unreadable(reason) if reason.starts_with("Report path is not a file"))
        );
        assert_eq!(read(None, Some(dir.path())), Report::Missing);
        assert_eq!(
            report_path(r#"{"scores": {}, "report_path": " tasks/r.md "}"#).as_deref(),
            Some("tasks/r.md")
        );
        assert_eq!(report_path(r#"{"scores": {}}"#), None);
    }
}
