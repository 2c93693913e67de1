//! A saved plan's `context_paths` at execution: data, never a grant. Agents get only what
//! the config and this run's command line grant; the plan's entries that those grants do
//! not already cover (path and permission) are named in one warning.

use std::path::{Path, PathBuf};

use crate::config::{Permission, resolve_path};
use crate::protocol::ContextPath;
use crate::workspace::ContextRootSpec;

use super::SavedPlan;

/// The most entries checked one by one; the rest of a longer list are counted as not
/// granted without resolving each (a crafted metadata file can list millions).
const MAX_CHECKED: usize = 1000;
/// The most entries a warning names.
const MAX_NAMED: usize = 5;
/// The most characters of a path a warning shows.
const MAX_SHOWN_CHARS: usize = 200;

/// The entries of the plan's `context_paths` that `granted` (the config's context paths
/// and the paths attached on this run's command line, absolute) does not cover: not at or
/// under a granted path, or writable where that grant is read-only. Relative entries are
/// taken from `project_dir`.
pub fn ungranted_context(
    plan: &SavedPlan,
    granted: &[ContextRootSpec],
    project_dir: &Path,
) -> Vec<ContextPath> {
    let grants: Vec<(PathBuf, Permission)> = granted
        .iter()
        .map(|grant| {
            (
                resolve_path(&project_dir.join(&grant.path)),
                grant.permission,
            )
        })
        .collect();
    let entries = &plan.metadata.context_paths;
    let checked = entries.iter().take(MAX_CHECKED).filter(|entry| {
        let wanted = resolve_path(&project_dir.join(&entry.path));
        !grants.iter().any(|(path, permission)| {
            wanted.starts_with(path) && (!entry.writable || *permission == Permission::Write)
        })
    });
    checked
        .chain(entries.iter().skip(MAX_CHECKED))
        .cloned()
        .collect()
}

/// The one warning for `refused` entries of the plan's metadata: what, where, and how to
/// grant a path for real. `None` when there are none.
pub fn ungranted_warning(
    plan: &SavedPlan,
    refused: &[ContextPath],
    config_name: &str,
) -> Option<String> {
    if refused.is_empty() {
        return None;
    }
    let mut named: Vec<String> = refused
        .iter()
        .take(MAX_NAMED)
        .map(|entry| {
            let permission = if entry.writable { "write" } else { "read" };
            format!("{} ({permission})", shown(&entry.path))
        })
        .collect();
    if refused.len() > MAX_NAMED {
        named.push(format!("and {} more", refused.len() - MAX_NAMED));
    }
    Some(format!(
        "{} lists context paths this run does not grant, so agents do not get them: {}. A \
         plan's files are data, not grants: only the config and the command line give agents \
         paths\n  help: attach a path to the question (massgen --execute-plan {} \"@path\", \
         @path:w to write) or list it under orchestrator.context_paths in {config_name}",
        plan.dir.join(super::storage::METADATA).display(),
        named.join(", "),
        plan.id,
    ))
}

/// `path` quoted with control and bidirectional characters escaped, cut to a readable
/// length.
fn shown(path: &Path) -> String {
    let text = path.display().to_string();
    let mut cut: String = text.chars().take(MAX_SHOWN_CHARS).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    format!("{cut:?}")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::plan::PlanMetadata;

    fn plan(dir: &Path, entries: &[(&str, bool)]) -> SavedPlan {
        let mut metadata =
            PlanMetadata::from_bytes(br#"{"status": "ready"}"#, "20260101_000000_000000").unwrap();
        metadata.context_paths = entries
            .iter()
            .map(|(path, writable)| ContextPath {
                path: PathBuf::from(path),
                writable: *writable,
            })
            .collect();
        SavedPlan {
            id: "plan_20260101_000000_000000".into(),
            dir: dir.join(".massgen/plans/plan_20260101_000000_000000"),
            metadata,
        }
    }

    fn grant(path: &Path, permission: Permission) -> ContextRootSpec {
        ContextRootSpec {
            path: path.to_path_buf(),
            permission,
            protected: Vec::new(),
        }
    }

    #[test]
    fn only_entries_inside_a_grant_at_no_higher_permission_are_covered() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(project.join("docs/inner")).unwrap();
        std::fs::create_dir_all(project.join("src")).unwrap();
        let granted = [
            grant(&project.join("docs"), Permission::Write),
            grant(&project.join("src"), Permission::Read),
        ];
        let saved = plan(
            &project,
            &[
                ("docs/inner", true),
                ("src", false),
                ("src", true),
                ("/", false),
                ("docs/../..", false),
            ],
        );
        let refused: Vec<(String, bool)> = ungranted_context(&saved, &granted, &project)
            .into_iter()
            .map(|entry| (entry.path.display().to_string(), entry.writable))
            .collect();
        assert_eq!(
            refused,
            [
                ("src".to_string(), true),
                ("/".to_string(), false),
                ("docs/../..".to_string(), false)
            ]
        );
    }

    #[test]
    fn the_warning_names_the_file_and_escapes_what_it_shows() {
        let dir = tempfile::tempdir().unwrap();
        let entries: Vec<(&str, bool)> = std::iter::once(("/tmp/\u{202e}x\n", true))
            .chain(std::iter::repeat_n(("/", false), 7))
            .collect();
        let saved = plan(dir.path(), &entries);
        let refused = ungranted_context(&saved, &[], dir.path());
        let warning = ungranted_warning(&saved, &refused, "c.yaml").unwrap();
        assert!(warning.contains("plan_metadata.json"), "{warning}");
        assert!(warning.contains("\\u{202e}x\\n\" (write)"), "{warning}");
        assert!(warning.contains("and 3 more"), "{warning}");
        assert!(
            warning.contains("orchestrator.context_paths in c.yaml"),
            "{warning}"
        );
        assert!(!warning.contains('\u{202e}'));
        assert_eq!(ungranted_warning(&saved, &[], "c.yaml"), None);
    }
}
