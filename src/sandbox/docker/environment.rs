//! One agent's [`ContainerSpec`] from its Docker settings and its sandbox plan, as MassGen
//! builds its container: the agent's paths mounted at their own paths (the workspace and
//! writable paths read-write, the rest read-only), the credential files it names read-only
//! under `/home/massgen`, its extra mounts, caches under the workspace, and the variables it
//! passes — their values kept apart, for the `docker` client's environment only.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::spec::{ContainerSpec, Mount};
use crate::config::{DockerCredentials, DockerSettings};
use crate::sandbox::Plan;

/// Where MassGen's image keeps its user's home.
const CONTAINER_HOME: &str = "/home/massgen";

/// The spec, and the values of its passed variables (secret: never logged).
pub fn container_spec(
    settings: &DockerSettings,
    plan: &Plan,
    name: String,
) -> (ContainerSpec, Vec<(String, String)>) {
    let home = directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf());
    let mut mounts: Vec<Mount> = Vec::new();
    let mut add = |host: &Path, target: &Path, read_only: bool| {
        if host != plan.workspace && !mounts.iter().any(|mount| mount.target == target) {
            mounts.push(Mount {
                host: host.to_path_buf(),
                target: target.to_path_buf(),
                read_only,
            });
        }
    };
    for path in &plan.writable {
        add(path, path, false);
    }
    for path in &plan.readable {
        add(path, path, true);
    }
    if let Some(home) = &home {
        for kind in &settings.credentials.mount {
            let host = home.join(kind.home_path());
            if host.exists() {
                add(
                    &host,
                    &Path::new(CONTAINER_HOME).join(kind.home_path()),
                    true,
                );
            } else {
                tracing::warn!(path = %host.display(), "docker credential mount not found; skipped");
            }
        }
    }
    for extra in &settings.credentials.additional_mounts {
        let host = expand_home(&extra.host, home.as_deref());
        match host.canonicalize() {
            Ok(host) => add(&host, &extra.bind, extra.read_only),
            Err(_) => {
                tracing::warn!(path = %host.display(), "docker additional mount not found; skipped");
            }
        }
    }
    let secrets = passed_variables(&settings.credentials, home.as_deref());
    let spec = ContainerSpec {
        name,
        image: settings.image.clone(),
        network: settings.network,
        memory_limit: settings.memory_limit.clone(),
        cpu_limit: settings.cpu_limit,
        enable_sudo: settings.enable_sudo,
        workspace: plan.workspace.clone(),
        mounts,
        env: cache_variables(&plan.workspace),
        passed_env: secrets.iter().map(|(name, _)| name.clone()).collect(),
    };
    (spec, secrets)
}

/// MassGen's: package managers' caches and homes under the writable workspace.
fn cache_variables(workspace: &Path) -> Vec<(String, String)> {
    let cache = workspace.join(".cache").display().to_string();
    let data = workspace.join(".local/share").display().to_string();
    [
        ("XDG_CACHE_HOME", cache.clone()),
        ("XDG_DATA_HOME", data.clone()),
        ("PIP_CACHE_DIR", format!("{cache}/pip")),
        ("UV_CACHE_DIR", format!("{cache}/uv")),
        ("UV_LINK_MODE", "copy".into()),
        ("PYTHONPYCACHEPREFIX", format!("{cache}/python")),
        ("npm_config_cache", format!("{cache}/npm")),
        ("PNPM_HOME", format!("{data}/pnpm")),
        (
            "NODE_PATH",
            "/usr/lib/node_modules:/usr/local/lib/node_modules".into(),
        ),
        ("CARGO_HOME", format!("{data}/cargo")),
        ("RUSTUP_HOME", format!("{data}/rustup")),
        ("GOMODCACHE", format!("{cache}/go/mod")),
        ("GRADLE_USER_HOME", format!("{data}/gradle")),
        (
            "PLAYWRIGHT_BROWSERS_PATH",
            format!("{CONTAINER_HOME}/.cache/ms-playwright"),
        ),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value))
    .collect()
}

/// MassGen's order: the env files (`~/.massgen/.env`, `env_file`, `./.env`, later ones
/// winning; filtered by `env_vars_from_file`), then all of massgen's environment with
/// `pass_all_env`, then the `env_vars` massgen's environment has.
fn passed_variables(credentials: &DockerCredentials, home: Option<&Path>) -> Vec<(String, String)> {
    let mut variables: BTreeMap<String, String> = BTreeMap::new();
    if let Some(env_file) = &credentials.env_file {
        let mut files: Vec<PathBuf> = home
            .map(|home| home.join(".massgen/.env"))
            .into_iter()
            .collect();
        files.push(expand_home(env_file, home));
        files.push(PathBuf::from(".env"));
        let mut seen = Vec::new();
        for file in files {
            let file = file.canonicalize().unwrap_or(file);
            if seen.contains(&file) {
                continue;
            }
            let Ok(entries) = dotenvy::from_path_iter(&file) else {
                seen.push(file);
                continue;
            };
            for (name, value) in entries.flatten() {
                let wanted = credentials.env_vars_from_file.is_empty()
                    || credentials.env_vars_from_file.contains(&name);
                if wanted {
                    variables.insert(name, value);
                }
            }
            seen.push(file);
        }
    }
    if credentials.pass_all_env {
        variables.extend(std::env::vars_os().filter_map(|(name, value)| {
            Some((name.into_string().ok()?, value.into_string().ok()?))
        }));
    }
    for name in &credentials.env_vars {
        match std::env::var(name) {
            Ok(value) => {
                variables.insert(name.clone(), value);
            }
            Err(_) => tracing::warn!(variable = %name, "docker env_vars: not set; not passed"),
        }
    }
    variables.into_iter().collect()
}

fn expand_home(path: &Path, home: Option<&Path>) -> PathBuf {
    match (path.strip_prefix("~"), home) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => path.to_path_buf(),
    }
}
