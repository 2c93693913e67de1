//! A backend's command line: `enable_mcp_command_line`, the command filters, the network
//! switch and `command_line_execution_mode` with its `command_line_docker_*` and
//! `command_line_srt_*` settings. Bad values are load errors, as in MassGen.

use std::path::PathBuf;

use super::Note;
use crate::config::command_mode::{
    CredentialMount, DEFAULT_DOCKER_IMAGE, DockerCredentials, DockerNetwork, DockerPackages,
    DockerSettings, ExecutionMode, ExtraMount, SUDO_DOCKER_IMAGE, SrtReadMode, SrtSettings,
};
use crate::config::error::{Problem, did_you_mean};
use crate::config::fields::Fields;
use crate::config::tools::CommandLineConfig;
use crate::config::yaml_node::Value;

pub(super) fn command_line(
    backend: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Option<CommandLineConfig>, Problem> {
    if backend.bool("enable_mcp_command_line")? != Some(true) {
        return Ok(None);
    }
    let name = backend.choice(
        "command_line_execution_mode",
        &ExecutionMode::NAMES,
        |name| {
            let name = name.trim().to_ascii_lowercase();
            ExecutionMode::NAMES
                .contains(&name.as_str())
                .then_some(name)
        },
    )?;
    // MassGen checks both modes' settings whichever mode runs.
    let docker = docker(backend, notes)?;
    let srt = srt(backend, notes)?;
    let mode = match name.as_deref() {
        Some("docker") => ExecutionMode::Docker(Box::new(docker)),
        Some("srt") => ExecutionMode::Srt(srt),
        _ => ExecutionMode::Local,
    };
    let patterns = |key: &str| -> Result<Vec<String>, Problem> {
        let patterns = backend.strings(key)?;
        for pattern in &patterns {
            if let Err(error) = regex::Regex::new(pattern) {
                return Err(Problem::at(
                    backend.get(key).map_or(backend.loc(), |node| node.loc),
                    format!(
                        "`{}` holds an invalid pattern \"{pattern}\": {error}",
                        backend.key_path(key)
                    ),
                )
                .help("give regular expressions, like `^git .*` or `^ls`"));
            }
        }
        Ok(patterns)
    };
    Ok(Some(CommandLineConfig {
        allowed_commands: patterns("command_line_allowed_commands")?,
        blocked_commands: patterns("command_line_blocked_commands")?,
        network: backend.bool("command_line_network")?.unwrap_or(true),
        mode,
        ..CommandLineConfig::default()
    }))
}

fn docker(backend: &Fields<'_>, notes: &mut Vec<Note>) -> Result<DockerSettings, Problem> {
    let enable_sudo = backend
        .bool("command_line_docker_enable_sudo")?
        .unwrap_or(false);
    let image = backend
        .string("command_line_docker_image")?
        .filter(|image| !image.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_DOCKER_IMAGE.to_string());
    let image = if enable_sudo && image == DEFAULT_DOCKER_IMAGE {
        SUDO_DOCKER_IMAGE.to_string()
    } else {
        image
    };
    let credentials = match nested(backend, "command_line_docker_credentials")? {
        Some(fields) => credentials(&fields, notes)?,
        None => DockerCredentials::default(),
    };
    let packages = match nested(backend, "command_line_docker_packages")? {
        Some(fields) => packages(&fields, enable_sudo, notes)?,
        None => DockerPackages::default(),
    };
    Ok(DockerSettings {
        image,
        network: backend
            .choice(
                "command_line_docker_network_mode",
                &DockerNetwork::NAMES,
                DockerNetwork::from_name,
            )?
            .unwrap_or_default(),
        memory_limit: memory_limit(backend)?,
        cpu_limit: cpu_limit(backend)?,
        enable_sudo,
        credentials,
        packages,
        written_at: backend
            .get("command_line_execution_mode")
            .map(|node| node.loc),
    })
}

/// Docker's notation: bytes, or a number with `b`, `k`, `m` or `g`.
fn memory_limit(backend: &Fields<'_>) -> Result<Option<String>, Problem> {
    const KEY: &str = "command_line_docker_memory_limit";
    let Some(limit) = backend.string(KEY)? else {
        return Ok(None);
    };
    let limit = limit.trim().to_string();
    let digits = limit.trim_end_matches(['b', 'k', 'm', 'g', 'B', 'K', 'M', 'G']);
    let unit_len = limit.len() - digits.len();
    if unit_len <= 1 && !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return Ok(Some(limit));
    }
    Err(Problem::at(
        backend.get(KEY).map_or(backend.loc(), |node| node.loc),
        format!(
            "`{}` cannot be \"{limit}\": Docker takes a whole number with `b`, `k`, `m` or `g`",
            backend.key_path(KEY)
        ),
    )
    .help(format!("write it like `{KEY}: \"2g\"` or `\"512m\"`")))
}

fn cpu_limit(backend: &Fields<'_>) -> Result<Option<f64>, Problem> {
    const KEY: &str = "command_line_docker_cpu_limit";
    let Some(cpus) = backend.number(KEY)? else {
        return Ok(None);
    };
    if cpus.is_finite() && cpus > 0.0 && cpus <= 1024.0 {
        return Ok(Some(cpus));
    }
    Err(Problem::at(
        backend.get(KEY).map_or(backend.loc(), |node| node.loc),
        format!("`{}` is {cpus}; give CPUs above 0", backend.key_path(KEY)),
    )
    .help(format!("write it like `{KEY}: 2.0`")))
}

fn credentials(fields: &Fields<'_>, notes: &mut Vec<Note>) -> Result<DockerCredentials, Problem> {
    unknown_keys(
        fields,
        &[
            "mount",
            "additional_mounts",
            "env_file",
            "env_vars",
            "env_vars_from_file",
            "pass_all_env",
        ],
        notes,
    );
    let mut mount = Vec::new();
    for name in fields.strings("mount")? {
        let Some(kind) = CredentialMount::from_name(&name) else {
            let help = match did_you_mean(&name, CredentialMount::NAMES.iter().copied()) {
                Some(close) => format!("did you mean \"{close}\"? "),
                None => String::new(),
            };
            return Err(Problem::at(
                fields.get("mount").map_or(fields.loc(), |node| node.loc),
                format!("`{}` cannot hold \"{name}\"", fields.key_path("mount")),
            )
            .help(format!(
                "{help}Valid values: {}",
                CredentialMount::NAMES.join(", ")
            )));
        };
        mount.push(kind);
    }
    Ok(DockerCredentials {
        mount,
        additional_mounts: additional_mounts(fields)?,
        env_file: fields.string("env_file")?.map(PathBuf::from),
        env_vars: fields.strings("env_vars")?,
        env_vars_from_file: fields.strings("env_vars_from_file")?,
        pass_all_env: fields.bool("pass_all_env")?.unwrap_or(false),
    })
}

/// `{host_path: {bind: container_path, mode: ro|rw}}`.
fn additional_mounts(fields: &Fields<'_>) -> Result<Vec<ExtraMount>, Problem> {
    let Some(mounts) = nested(fields, "additional_mounts")? else {
        return Ok(Vec::new());
    };
    mounts
        .entries
        .iter()
        .map(|entry| {
            let mount = Fields::of(&entry.value, mounts.key_path(&entry.key))?;
            let read_only = mount
                .choice("mode", &["ro", "rw"], |mode| match mode.trim() {
                    "ro" => Some(true),
                    "rw" => Some(false),
                    _ => None,
                })?
                .unwrap_or(true);
            Ok(ExtraMount {
                host: PathBuf::from(&entry.key),
                bind: PathBuf::from(mount.string("bind")?.unwrap_or_else(|| entry.key.clone())),
                read_only,
            })
        })
        .collect()
}

fn packages(
    fields: &Fields<'_>,
    enable_sudo: bool,
    notes: &mut Vec<Note>,
) -> Result<DockerPackages, Problem> {
    unknown_keys(fields, &["preinstall"], notes);
    let Some(preinstall) = nested(fields, "preinstall")? else {
        return Ok(DockerPackages::default());
    };
    unknown_keys(&preinstall, &["python", "npm", "system"], notes);
    let system = preinstall.strings("system")?;
    if !system.is_empty() && !enable_sudo {
        notes.push(Note {
            loc: preinstall.get("system").map(|node| node.loc),
            message: format!(
                "ignored: {} — system packages are installed with sudo, and \
                 `command_line_docker_enable_sudo` is off (as in MassGen)",
                preinstall.key_path("system")
            ),
            ignored: Some(preinstall.key_path("system")),
        });
    }
    Ok(DockerPackages {
        python: preinstall.strings("python")?,
        npm: preinstall.strings("npm")?,
        system: if enable_sudo { system } else { Vec::new() },
    })
}

fn srt(backend: &Fields<'_>, notes: &mut Vec<Note>) -> Result<SrtSettings, Problem> {
    let paths = |key: &str| -> Result<Vec<PathBuf>, Problem> {
        Ok(backend
            .strings(key)?
            .into_iter()
            .map(PathBuf::from)
            .collect())
    };
    let domains = backend.strings("command_line_srt_network_allowed_domains")?;
    if !domains.is_empty() {
        let key = backend.key_path("command_line_srt_network_allowed_domains");
        notes.push(Note {
            loc: backend
                .get("command_line_srt_network_allowed_domains")
                .map(|node| node.loc),
            message: format!(
                "ignored: {key} — MassGen's srt would let commands reach these domains; \
                 massgen's sandbox cannot allow by domain, so under srt commands reach no \
                 network at all"
            ),
            ignored: Some(key),
        });
    }
    Ok(SrtSettings {
        read_mode: backend
            .choice(
                "command_line_srt_read_mode",
                &SrtReadMode::NAMES,
                SrtReadMode::from_name,
            )?
            .unwrap_or_default(),
        allow_read: paths("command_line_srt_allow_read")?,
        deny_read: paths("command_line_srt_deny_read")?,
        allow_unix_sockets: paths("command_line_srt_allow_unix_sockets")?,
    })
}

/// The mapping under `key`, if written.
fn nested<'a>(fields: &Fields<'a>, key: &str) -> Result<Option<Fields<'a>>, Problem> {
    let Some(node) = fields.get(key) else {
        return Ok(None);
    };
    if !matches!(node.value, Value::Map(_)) {
        return Err(fields.wrong_type(key, node, "a mapping", &format!("{key}: {{…}}")));
    }
    Fields::of(node, fields.key_path(key)).map(Some)
}

fn unknown_keys(fields: &Fields<'_>, known: &[&str], notes: &mut Vec<Note>) {
    for entry in fields.unknown(known) {
        let path = fields.key_path(&entry.key);
        let suggestion = did_you_mean(&entry.key, known.iter().copied())
            .map(|close| format!("; did you mean `{close}`?"))
            .unwrap_or_default();
        notes.push(super::unknown_key_note(entry, path, &suggestion));
    }
}

#[cfg(test)]
#[path = "command_line_tests.rs"]
mod tests;
