//! The paths a config grants agents — each agent's workspace (`cwd`), the orchestrator's
//! `context_paths`, `snapshot_storage` and `agent_temporary_workspace` — where they were
//! written, and the one check a run and `--validate` both apply to them.

use std::path::{Path, PathBuf};

use super::error::{ConfigError, Problem};
use super::granted::{GrantKind, GrantedPath};
use super::path_rules::{Grantor, Refusal, refusal, resolve};
use super::schema::Config;
use crate::config::yaml_node::{Node, Value};

/// The flag that lets a run use paths outside the project.
pub const ALLOW_FLAG: &str = "--allow-outside-project";

/// Every granted path of `config`, with the location `root` gives it.
pub fn collect(root: &Node, config: &Config) -> Vec<GrantedPath> {
    let mut granted = Vec::new();
    let (agents_key, agent_nodes) = agent_nodes(root);
    for (index, agent) in config.agents.iter().enumerate() {
        let Some(cwd) = &agent.backend.tools.cwd else {
            continue;
        };
        let key = match agents_key {
            AgentsKey::List => format!("agents[{index}].backend.cwd"),
            AgentsKey::One(name) => format!("{name}.backend.cwd"),
        };
        let loc = agent_nodes
            .get(index)
            .and_then(|node| node.get("backend"))
            .and_then(|backend| backend.get("cwd"))
            .map(|node| node.loc);
        granted.push(GrantedPath {
            key,
            written: cwd.clone(),
            kind: GrantKind::Workspace,
            loc,
        });
    }
    let orchestrator = root.get("orchestrator");
    let context_nodes = match orchestrator.and_then(|node| node.get("context_paths")) {
        Some(Node {
            value: Value::Seq(items),
            ..
        }) => items.as_slice(),
        Some(_) | None => &[],
    };
    for (index, context) in config.orchestrator.context_paths.iter().enumerate() {
        let loc = context_nodes
            .get(index)
            .map(|node| node.get("path").map_or(node.loc, |path| path.loc));
        granted.push(GrantedPath {
            key: format!("orchestrator.context_paths[{index}]"),
            written: context.path.display().to_string(),
            kind: GrantKind::Context,
            loc,
        });
    }
    for (key, value) in [
        ("snapshot_storage", &config.orchestrator.snapshot_storage),
        (
            "agent_temporary_workspace",
            &config.orchestrator.agent_temporary_workspace,
        ),
    ] {
        if let Some(written) = value {
            granted.push(GrantedPath {
                key: format!("orchestrator.{key}"),
                written: written.clone(),
                kind: GrantKind::MassgenDir,
                loc: orchestrator
                    .and_then(|node| node.get(key))
                    .map(|node| node.loc),
            });
        }
    }
    granted
}

enum AgentsKey {
    List,
    One(&'static str),
}

/// The agent nodes in config order, as `parse` reads them.
fn agent_nodes(root: &Node) -> (AgentsKey, Vec<&Node>) {
    if let Some(agent) = root.get("agent") {
        return (AgentsKey::One("agent"), vec![agent]);
    }
    match root.get("agents") {
        Some(Node {
            value: Value::Seq(items),
            ..
        }) => (AgentsKey::List, items.iter().collect()),
        Some(node) => (AgentsKey::One("agents"), vec![node]),
        None => (AgentsKey::List, Vec::new()),
    }
}

/// What a run in `project_dir` refuses of `config`'s granted paths: context paths that
/// do not exist, and — unless `allow_outside` — paths that are `/`, the home directory,
/// a system directory or outside the project. Empty when the run may go on.
pub fn check(config: &Config, project_dir: &Path, allow_outside: bool) -> Vec<ConfigError> {
    let project = project_dir
        .canonicalize()
        .unwrap_or_else(|_| project_dir.to_path_buf());
    let mut granted: Vec<&GrantedPath> = config.granted_paths.iter().collect();
    granted.sort_by_key(|granted| granted.loc);
    let mut errors = Vec::new();
    for granted in granted {
        let error = match check_one(granted, &project, allow_outside) {
            Ok(()) => continue,
            Err(problem) => problem.in_source(&config.source_name),
        };
        errors.push(error);
    }
    errors
}

fn check_one(granted: &GrantedPath, project: &Path, allow_outside: bool) -> Result<(), Problem> {
    let at = |message: String| match granted.loc {
        Some(loc) => Problem::at(loc, message),
        None => Problem::nowhere(message),
    };
    let target = target(granted, project);
    if granted.kind == GrantKind::Context && !target.exists() {
        return Err(at(format!(
            "context path `{}` ({}) does not exist",
            granted.written, granted.key
        ))
        .help(format!(
            "create it, or fix the path; relative paths are taken from {}",
            project.display()
        )));
    }
    if allow_outside {
        return Ok(());
    }
    let resolved = resolve(&target);
    let Some(refused) = refusal(&resolved, project, Grantor::Config) else {
        return Ok(());
    };
    let shown = if Path::new(&granted.written) == resolved {
        String::new()
    } else {
        // The layout's random suffix, shown as what it stands for.
        let resolved = resolved.display().to_string().replace("_00000000", "_<id>");
        format!(" resolves to {resolved}, which")
    };
    let what = match granted.kind {
        GrantKind::Workspace => "the workspace",
        GrantKind::Context => "context path",
        GrantKind::MassgenDir => "the directory",
    };
    let fix = match (granted.kind, &refused) {
        (GrantKind::Workspace, _) => {
            "use a plain name like `cwd: workspace` (it becomes .massgen/workspaces/workspace_<id>)"
        }
        (GrantKind::Context, Refusal::OutsideProject { .. }) => {
            "run massgen from a directory that contains it, or name a directory inside the project"
        }
        (GrantKind::Context, Refusal::Root | Refusal::Home(_) | Refusal::System { .. }) => {
            "name the directory inside it that the agents need"
        }
        (GrantKind::MassgenDir, _) => "use a name under .massgen/, or leave it out for the default",
    };
    Err(at(format!(
        "{what} `{}` ({}){shown} {}; massgen does not grant it to agents",
        granted.written,
        granted.key,
        refused.describe()
    ))
    .help(format!(
        "{fix}; or pass {ALLOW_FLAG} if you mean it (the project is {})",
        project.display()
    )))
}

/// Where the granted path is on disk, as the workspace layout places it.
fn target(granted: &GrantedPath, project: &Path) -> PathBuf {
    let written = Path::new(&granted.written);
    let massgen_dir = project.join(".massgen");
    match granted.kind {
        GrantKind::Context => project.join(written),
        GrantKind::Workspace if written.is_absolute() => written.to_path_buf(),
        GrantKind::Workspace if granted.written.starts_with(".massgen/") => project.join(written),
        // The layout adds `_<8 hex>` to a bare name; any 8 hex digits resolve alike.
        GrantKind::Workspace => massgen_dir.join("workspaces").join(format!(
            "{}_00000000",
            granted.written.trim_end_matches('/')
        )),
        GrantKind::MassgenDir if written.is_absolute() => written.to_path_buf(),
        GrantKind::MassgenDir => massgen_dir.join(granted.written.trim_start_matches(".massgen/")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Env, from_text};

    fn errors(yaml: &str, project: &Path) -> Vec<String> {
        let (config, _) = from_text(yaml, "t.yaml", &Env::default())
            .unwrap()
            .into_checked();
        check(&config, project, false)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn grants_are_checked_where_they_were_written() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(project.join("docs")).unwrap();
        let ok = "agent: {id: a, backend: {type: scripted, cwd: ws}}\n\
                  orchestrator: {context_paths: [docs, {path: ., permission: read}]}\n";
        assert_eq!(errors(ok, &project), Vec::<String>::new());
        let bad = "agents:\n  - id: a\n    backend: {type: scripted, cwd: /}\n\
                   orchestrator:\n  snapshot_storage: ../../../x\n  context_paths:\n    - missing\n";
        let found = errors(bad, &project);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(
            found[0].starts_with("t.yaml:3:36: the workspace `/`"),
            "{found:?}"
        );
        assert!(found[0].contains("root directory"), "{found:?}");
        assert!(
            found[1].starts_with("t.yaml:5:21: the directory `../../../x`"),
            "{found:?}"
        );
        assert!(found[1].contains("outside the project"), "{found:?}");
        assert!(
            found[2].starts_with("t.yaml:7:7: context path `missing`"),
            "{found:?}"
        );
    }
}
