//! The load warning for `command_line_execution_mode: docker` where no Docker daemon
//! answers: the agent's commands run in massgen's own OS sandbox instead, and the warning
//! names what that changes for its settings.

use super::command_mode::{DockerNetwork, DockerSettings, ExecutionMode};
use super::env::Env;
use super::schema::Config;
use super::yaml_node::Location;

/// One warning per agent that runs commands in Docker, when `env` finds no daemon.
pub fn warnings(config: &Config, env: &Env) -> Vec<(Option<Location>, String)> {
    let docker_agents: Vec<(&str, &DockerSettings)> = config
        .agents
        .iter()
        .filter_map(|agent| {
            let command_line = agent.backend.tools.command_line.as_ref()?;
            match &command_line.mode {
                ExecutionMode::Docker(docker) => Some((agent.id.as_str(), docker.as_ref())),
                ExecutionMode::Local | ExecutionMode::Srt(_) => None,
            }
        })
        .collect();
    if docker_agents.is_empty() || env.docker_answers() {
        return Vec::new();
    }
    docker_agents
        .into_iter()
        .map(|(id, docker)| (docker.written_at, message(id, docker)))
        .collect()
}

fn message(id: &str, docker: &DockerSettings) -> String {
    let network = match docker.network {
        DockerNetwork::None => "no network (as `command_line_docker_network_mode: none`)",
        DockerNetwork::Bridge | DockerNetwork::Host => {
            "the network as `command_line_network` allows"
        }
    };
    let mut lost = vec![format!("the image `{}` and its programs", docker.image)];
    if docker.memory_limit.is_some() || docker.cpu_limit.is_some() {
        lost.push("the memory and CPU limits".into());
    }
    if docker.enable_sudo {
        lost.push("sudo".into());
    }
    let credentials = &docker.credentials;
    if !credentials.mount.is_empty() || !credentials.additional_mounts.is_empty() {
        lost.push("the credential and extra mounts".into());
    }
    if credentials.env_file.is_some()
        || !credentials.env_vars.is_empty()
        || credentials.pass_all_env
    {
        lost.push("the passed environment variables".into());
    }
    let packages = &docker.packages;
    if !(packages.python.is_empty() && packages.npm.is_empty() && packages.system.is_empty()) {
        lost.push("the preinstalled packages".into());
    }
    format!(
        "agent `{id}`: no Docker daemon answers (`docker info` failed), so its commands run in \
         massgen's own OS sandbox instead of a container — the same workspace and paths, \
         with {network}, but without {}. Start Docker to run them in containers.",
        lost.join(", ")
    )
}
