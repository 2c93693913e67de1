//! `command_line_execution_mode` and its Docker and srt settings as configs write them:
//! what they load into, the errors of bad values, and the warning where Docker is missing.

use std::path::PathBuf;

use crate::config::{CredentialMount, DockerNetwork, Env, ExecutionMode, SrtReadMode, from_text};

const HEAD: &str = "agent:\n  id: a\n  backend:\n    type: scripted\n    cwd: workspace\n    \
                    enable_mcp_command_line: true\n";

fn mode(keys: &str, env: &Env) -> (ExecutionMode, Vec<String>) {
    let loaded = from_text(&format!("{HEAD}{keys}"), "t.yaml", env).unwrap();
    let command_line = loaded.config.agents[0].backend.tools.command_line.clone();
    let warnings = loaded.warnings.iter().map(ToString::to_string).collect();
    (
        command_line.expect("execute_command stays on").mode,
        warnings,
    )
}

fn error(keys: &str) -> String {
    from_text(&format!("{HEAD}{keys}"), "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn docker_settings_load_and_warn_where_no_daemon_answers() {
    let keys = "    command_line_execution_mode: docker\n    \
                command_line_docker_network_mode: bridge\n    \
                command_line_docker_memory_limit: 512m\n    \
                command_line_docker_credentials:\n      mount: [ssh_keys, gh_config]\n      \
                env_vars: [GITHUB_TOKEN]\n      extra: 1\n    \
                command_line_docker_packages: {preinstall: {python: [requests], system: [jq]}}\n";
    let (found, warnings) = mode(keys, &Env::default());
    let ExecutionMode::Docker(docker) = found else {
        panic!("{found:?}");
    };
    assert_eq!(docker.network, DockerNetwork::Bridge);
    assert_eq!(docker.memory_limit.as_deref(), Some("512m"));
    assert_eq!(
        docker.credentials.mount,
        [CredentialMount::SshKeys, CredentialMount::GhConfig]
    );
    assert_eq!(docker.packages.python, ["requests"]);
    assert!(
        docker.packages.system.is_empty(),
        "system packages need sudo"
    );
    let fallback: Vec<&String> = warnings
        .iter()
        .filter(|warning| warning.contains("no Docker daemon answers"))
        .collect();
    assert_eq!(fallback.len(), 1, "{warnings:?}");
    assert!(
        fallback[0].starts_with("t.yaml:7:")
            && fallback[0].contains("agent `a`")
            && fallback[0].contains("massgen's own OS sandbox")
            && fallback[0].contains("the image `ghcr.io/massgen/mcp-runtime:latest`")
            && fallback[0].contains("the memory and CPU limits")
            && fallback[0].contains("the credential and extra mounts")
            && fallback[0].contains("the passed environment variables")
            && fallback[0].contains("the preinstalled packages"),
        "{}",
        fallback[0]
    );
    assert!(
        !fallback[0].contains("ignored:"),
        "a warning, not an ignored key"
    );
    assert!(
        warnings.iter().any(
            |w| w.contains("unknown key `agent.backend.command_line_docker_credentials.extra`")
        )
    );
    assert!(warnings.iter().any(|w| {
        w.contains("ignored: agent.backend.command_line_docker_packages.preinstall.system")
    }));
    assert!(
        !warnings
            .iter()
            .any(|w| w.contains("command_line_docker_network_mode")),
        "{warnings:?}"
    );
    let with_daemon = Env::default().with_docker_probe(|| true);
    let (_, warnings) = mode(keys, &with_daemon);
    assert!(
        !warnings.iter().any(|w| w.contains("Docker daemon")),
        "{warnings:?}"
    );
}

#[test]
fn bad_docker_and_srt_values_are_load_errors() {
    for (keys, says) in [
        (
            "    command_line_execution_mode: podman\n",
            "valid values: local, docker, srt",
        ),
        (
            "    command_line_docker_network_mode: nat\n",
            "valid values: none, bridge, host",
        ),
        (
            "    command_line_docker_memory_limit: lots\n",
            "`agent.backend.command_line_docker_memory_limit` cannot be \"lots\"",
        ),
        (
            "    command_line_docker_cpu_limit: 0\n",
            "give CPUs above 0",
        ),
        (
            "    command_line_docker_credentials: {mount: [ssh_key]}\n",
            "did you mean \"ssh_keys\"?",
        ),
        (
            "    command_line_docker_credentials: {additional_mounts: {/x: {mode: rx}}}\n",
            "Valid values: ro, rw",
        ),
        (
            "    command_line_srt_read_mode: loose\n",
            "valid values: confined, strict, open",
        ),
    ] {
        let message = error(keys);
        assert!(message.contains(says), "{keys}: {message}");
    }
}

#[test]
fn srt_settings_load_and_domains_are_said_to_stay_denied() {
    let (found, warnings) = mode(
        "    command_line_execution_mode: srt\n    command_line_srt_read_mode: open\n    \
         command_line_srt_allow_read: [/data]\n    command_line_srt_deny_read: [/etc/hosts]\n    \
         command_line_srt_network_allowed_domains: [pypi.org]\n",
        &Env::default(),
    );
    let ExecutionMode::Srt(srt) = found else {
        panic!("{found:?}");
    };
    assert_eq!(srt.read_mode, SrtReadMode::Open);
    assert_eq!(srt.allow_read, [PathBuf::from("/data")]);
    assert_eq!(srt.deny_read, [PathBuf::from("/etc/hosts")]);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("command_line_srt_network_allowed_domains")
                && w.contains("reach no network at all")),
        "{warnings:?}"
    );
    let (local, warnings) = mode("", &Env::default());
    assert_eq!(local, ExecutionMode::Local);
    assert!(warnings.is_empty(), "{warnings:?}");
}
