//! The `docker` command lines massgen runs, built from an agent's settings and paths: one
//! `docker run -d` per agent and run (its workspace and roots mounted at their own paths,
//! as MassGen mounts them), `docker exec` per command, the kill of a command's processes,
//! and the container's removal. Pure: nothing here runs.

use std::path::PathBuf;

use crate::config::{DockerNetwork, DockerPackages};

/// One bind mount, at `target` in the container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mount {
    pub host: PathBuf,
    pub target: PathBuf,
    pub read_only: bool,
}

/// Everything `docker run` is told about one agent's container.
#[derive(Clone, Debug, PartialEq)]
pub struct ContainerSpec {
    pub name: String,
    pub image: String,
    pub network: DockerNetwork,
    pub memory_limit: Option<String>,
    pub cpu_limit: Option<f64>,
    pub enable_sudo: bool,
    /// Mounted read-write at its own path; the container's working directory.
    pub workspace: PathBuf,
    pub mounts: Vec<Mount>,
    /// Set as written (caches under the workspace: nothing secret).
    pub env: Vec<(String, String)>,
    /// Passed by name only: the values go in the `docker` client's own environment, so
    /// they never appear on a command line or in a log.
    pub passed_env: Vec<String>,
}

impl ContainerSpec {
    /// `docker run -d …`: the container waits (`tail -f /dev/null`) for commands.
    pub fn run_args(&self) -> Vec<String> {
        let mut args: Vec<String> = ["run", "-d", "--name", &self.name]
            .map(String::from)
            .to_vec();
        args.extend(["--label".into(), "massgen.container=1".into()]);
        args.extend(["--network".into(), self.network.name().into()]);
        if !self.enable_sudo {
            // Without sudo nothing in the container may gain privileges (setuid binaries).
            args.extend(["--security-opt".into(), "no-new-privileges".into()]);
        }
        if let Some(memory) = &self.memory_limit {
            args.extend(["--memory".into(), memory.clone()]);
        }
        if let Some(cpus) = self.cpu_limit {
            args.extend(["--cpus".into(), format!("{cpus}")]);
        }
        args.extend(["-w".into(), self.workspace.display().to_string()]);
        let workspace = Mount {
            host: self.workspace.clone(),
            target: self.workspace.clone(),
            read_only: false,
        };
        for mount in std::iter::once(&workspace).chain(&self.mounts) {
            args.extend(["--mount".into(), mount_option(mount)]);
        }
        for (name, value) in &self.env {
            args.extend(["-e".into(), format!("{name}={value}")]);
        }
        for name in &self.passed_env {
            args.extend(["-e".into(), name.clone()]);
        }
        args.push(self.image.clone());
        args.extend(["tail", "-f", "/dev/null"].map(String::from));
        args
    }
}

/// `type=bind,source=…,target=…[,readonly]`, each field quoted as Docker's CSV reader
/// expects when it holds a comma or a quote.
fn mount_option(mount: &Mount) -> String {
    let field = |text: String| {
        if text.contains([',', '"']) {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text
        }
    };
    let mut option = format!(
        "type=bind,{},{}",
        field(format!("source={}", mount.host.display())),
        field(format!("target={}", mount.target.display()))
    );
    if mount.read_only {
        option.push_str(",readonly");
    }
    option
}

/// `docker exec -w CWD NAME ARGV…`: one command, no shell (as massgen runs it locally).
pub fn exec_args(name: &str, cwd: &str, argv: &[String]) -> Vec<String> {
    let mut args: Vec<String> = ["exec", "-w", cwd, name].map(String::from).to_vec();
    args.extend(argv.iter().cloned());
    args
}

/// Kills every process in the container but its waiting `tail` (pid 1): a command that
/// timed out or was cancelled, with everything it started.
pub fn kill_args(name: &str) -> Vec<String> {
    ["exec", name, "sh", "-c", "kill -9 -1"]
        .map(String::from)
        .to_vec()
}

pub fn remove_args(name: &str) -> Vec<String> {
    ["rm", "-f", name].map(String::from).to_vec()
}

/// MassGen's pre-install commands, in its order: system packages (with sudo only), then
/// Python, then npm.
pub fn preinstall_commands(packages: &DockerPackages, sudo: bool) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    if sudo && !packages.system.is_empty() {
        let names = packages.system.join(" ");
        commands.push(vec![
            "sh".into(),
            "-c".into(),
            format!("sudo apt-get update && sudo apt-get install -y {names}"),
        ]);
    }
    if !packages.python.is_empty() {
        let mut pip = vec!["pip".to_string(), "install".into()];
        pip.extend(packages.python.iter().cloned());
        commands.push(pip);
    }
    if !packages.npm.is_empty() {
        let mut npm: Vec<String> = if sudo {
            vec!["sudo".into(), "npm".into()]
        } else {
            vec!["npm".into()]
        };
        npm.extend(["install".into(), "-g".into()]);
        npm.extend(packages.npm.iter().cloned());
        commands.push(npm);
    }
    commands
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
