//! The exact `docker` argument lists built from a config: mounts, network, sudo, limits,
//! the passed environment, and the per-command `exec`.

use std::path::PathBuf;

use super::*;
use crate::config::{
    DockerCredentials, DockerNetwork, DockerPackages, DockerSettings, Env, ExecutionMode,
    ExtraMount, from_text,
};
use crate::sandbox::Plan;
use crate::sandbox::docker::{container_name, container_spec};

fn settings(yaml_keys: &str) -> DockerSettings {
    let text = format!(
        "agent:\n  id: a\n  backend:\n    type: scripted\n    cwd: workspace\n    \
         enable_mcp_command_line: true\n    command_line_execution_mode: docker\n{yaml_keys}"
    );
    let config = from_text(&text, "t.yaml", &Env::default()).unwrap().config;
    let mode = &config.agents[0]
        .backend
        .tools
        .command_line
        .as_ref()
        .unwrap()
        .mode;
    match mode {
        ExecutionMode::Docker(docker) => (**docker).clone(),
        other => panic!("{other:?}"),
    }
}

fn plan() -> Plan {
    Plan {
        workspace: "/w/ws".into(),
        readable: vec!["/w/peers".into(), "/w/docs".into()],
        writable: vec!["/w/out".into()],
        ..Plan::default()
    }
}

#[test]
fn defaults_run_massgens_image_without_network_or_privileges() {
    let (spec, secrets) = container_spec(&settings(""), &plan(), "massgen-ws-1".into());
    assert!(secrets.is_empty());
    let args = spec.run_args();
    let head: Vec<&str> = args.iter().take(13).map(String::as_str).collect();
    assert_eq!(
        head,
        [
            "run",
            "-d",
            "--name",
            "massgen-ws-1",
            "--label",
            "massgen.container=1",
            "--network",
            "none",
            "--security-opt",
            "no-new-privileges",
            "-w",
            "/w/ws",
            "--mount",
        ]
    );
    let mounts: Vec<&str> = args
        .windows(2)
        .filter(|pair| pair[0] == "--mount")
        .map(|pair| pair[1].as_str())
        .collect();
    assert_eq!(
        mounts,
        [
            "type=bind,source=/w/ws,target=/w/ws",
            "type=bind,source=/w/out,target=/w/out",
            "type=bind,source=/w/peers,target=/w/peers,readonly",
            "type=bind,source=/w/docs,target=/w/docs,readonly",
        ]
    );
    assert!(args.contains(&"XDG_CACHE_HOME=/w/ws/.cache".to_string()));
    assert_eq!(
        args[args.len() - 4..],
        [
            "ghcr.io/massgen/mcp-runtime:latest",
            "tail",
            "-f",
            "/dev/null"
        ]
    );
}

#[test]
fn network_sudo_and_limits_reach_the_command_line() {
    let docker = settings(
        "    command_line_docker_network_mode: bridge\n    command_line_docker_enable_sudo: true\n    \
         command_line_docker_memory_limit: 2g\n    command_line_docker_cpu_limit: 1.5\n",
    );
    assert_eq!(docker.network, DockerNetwork::Bridge);
    let (spec, _) = container_spec(&docker, &plan(), "n".into());
    let args = spec.run_args().join(" ");
    assert!(
        args.contains("--network bridge --memory 2g --cpus 1.5 -w /w/ws"),
        "{args}"
    );
    assert!(!args.contains("no-new-privileges"), "{args}");
    assert!(
        args.contains(" ghcr.io/massgen/mcp-runtime-sudo:latest tail"),
        "{args}"
    );
    let own = settings(
        "    command_line_docker_image: python:3.12\n    command_line_docker_enable_sudo: true\n",
    );
    assert_eq!(own.image, "python:3.12");
}

#[test]
fn passed_variables_go_by_name_and_extra_mounts_keep_their_mode() {
    let dir = tempfile::tempdir().unwrap();
    let host = dir.path().canonicalize().unwrap();
    let mut docker = settings("");
    docker.credentials = DockerCredentials {
        additional_mounts: vec![ExtraMount {
            host: host.clone(),
            bind: "/data,x".into(),
            read_only: false,
        }],
        env_vars: vec!["PATH".into(), "MASSGEN_SURELY_UNSET_VAR".into()],
        ..DockerCredentials::default()
    };
    let (spec, secrets) = container_spec(&docker, &plan(), "n".into());
    assert_eq!(secrets.len(), 1);
    assert_eq!(secrets[0].0, "PATH");
    let args = spec.run_args();
    let path_value = std::env::var("PATH").unwrap();
    assert!(
        !args.iter().any(|arg| arg.contains(&path_value)),
        "values stay off the command line"
    );
    assert!(args.windows(2).any(|pair| pair == ["-e", "PATH"]));
    assert!(args.contains(&format!(
        "type=bind,source={},\"target=/data,x\"",
        host.display()
    )));
}

#[test]
fn commands_run_without_a_shell_and_are_killed_and_removed_by_name() {
    let argv = vec!["python3".to_string(), "-c".into(), "print(1)".into()];
    assert_eq!(
        exec_args("c1", "/w/ws/sub", &argv),
        ["exec", "-w", "/w/ws/sub", "c1", "python3", "-c", "print(1)"]
    );
    assert_eq!(kill_args("c1"), ["exec", "c1", "sh", "-c", "kill -9 -1"]);
    assert_eq!(remove_args("c1"), ["rm", "-f", "c1"]);
    assert!(
        container_name(&PathBuf::from("/x/workspace_ab 12"))
            .starts_with("massgen-workspace_ab_12-")
    );
}

#[test]
fn packages_install_as_massgen_does() {
    let packages = DockerPackages {
        python: vec!["requests".into()],
        npm: vec!["typescript".into()],
        system: vec!["jq".into(), "git".into()],
    };
    assert_eq!(
        preinstall_commands(&packages, true),
        [
            vec![
                "sh".to_string(),
                "-c".into(),
                "sudo apt-get update && sudo apt-get install -y jq git".into()
            ],
            vec!["pip".into(), "install".into(), "requests".into()],
            vec![
                "sudo".into(),
                "npm".into(),
                "install".into(),
                "-g".into(),
                "typescript".into()
            ],
        ]
    );
    let without_sudo = preinstall_commands(&packages, false);
    assert_eq!(without_sudo.len(), 2);
    assert_eq!(without_sudo[1][0], "npm");
}
