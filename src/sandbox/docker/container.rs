//! The containers massgen started: made with `docker run`, commands run in them with
//! `docker exec`, a command's processes killed when it ends, and each container removed
//! when its agent's tools go — and any left when massgen exits.

use std::path::Path;
use std::process::{Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use super::spec::{self, ContainerSpec, Mount};
use crate::config::DockerPackages;

/// `docker run` may first pull the image.
const START_TIMEOUT: Duration = Duration::from_secs(600);
/// Each of MassGen's pre-install commands.
const INSTALL_TIMEOUT: Duration = Duration::from_secs(600);
const QUICK_TIMEOUT: Duration = Duration::from_secs(30);

/// The `docker` client massgen runs.
pub(super) const PROGRAM: &str = "docker";

/// Names of the containers this process started and has not removed.
fn live() -> MutexGuard<'static, Vec<String>> {
    static LIVE: Mutex<Vec<String>> = Mutex::new(Vec::new());
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// One agent's running container; dropping it removes the container.
#[derive(Debug)]
pub struct Container {
    name: String,
    workspace: String,
    mounts: Vec<Mount>,
    /// What went wrong setting it up that the first command should mention.
    pub notice: Option<String>,
    removed: bool,
}

/// Starts `spec`'s container with `secrets` in the client's environment and pre-installs
/// `packages`; a container of the same name left by an earlier run goes first.
pub async fn start(
    spec: ContainerSpec,
    secrets: &[(String, String)],
    packages: &DockerPackages,
) -> Result<Container, String> {
    let _ = docker(&spec::remove_args(&spec.name), &[], QUICK_TIMEOUT).await;
    live().push(spec.name.clone());
    let container = Container {
        name: spec.name.clone(),
        workspace: spec.workspace.display().to_string(),
        mounts: spec.mounts.clone(),
        notice: None,
        removed: false,
    };
    let started = docker(&spec.run_args(), secrets, START_TIMEOUT).await?;
    if !started.status.success() {
        return Err(format!(
            "`docker run` of image `{}` failed: {}",
            spec.image,
            last_line(&started.stderr)
        ));
    }
    tracing::info!(container = %spec.name, image = %spec.image, "docker container started");
    let mut container = container;
    let mut failed = Vec::new();
    for command in spec::preinstall_commands(packages, spec.enable_sudo) {
        let args = spec::exec_args(&container.name, &container.workspace, &command);
        match docker(&args, &[], INSTALL_TIMEOUT).await {
            Ok(output) if output.status.success() => {}
            Ok(output) => failed.push(format!(
                "`{}`: {}",
                command.join(" "),
                last_line(&output.stderr)
            )),
            Err(error) => failed.push(format!("`{}`: {error}", command.join(" "))),
        }
    }
    if !failed.is_empty() {
        container.notice = Some(format!(
            "Some pre-install packages failed (continuing anyway): {}",
            failed.join("; ")
        ));
    }
    Ok(container)
}

impl Container {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the container was started with, to tell when an agent's paths changed.
    pub fn mounts(&self) -> &[Mount] {
        &self.mounts
    }

    /// Removes the container now, before its name is used again.
    pub async fn remove(mut self) {
        self.removed = true;
        let _ = docker(&spec::remove_args(&self.name), &[], QUICK_TIMEOUT).await;
        live().retain(|live| *live != self.name);
    }

    /// Starts `argv` in `cwd` inside the container, its output piped.
    pub fn exec(&self, cwd: &Path, argv: &[String]) -> std::io::Result<Exec> {
        let child = tokio::process::Command::new(PROGRAM)
            .args(spec::exec_args(
                &self.name,
                &cwd.display().to_string(),
                argv,
            ))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        Ok(Exec {
            child,
            container: self.name.clone(),
            ended: false,
        })
    }
}

impl Drop for Container {
    fn drop(&mut self) {
        if self.removed {
            return;
        }
        let name = self.name.clone();
        let removal = std::thread::Builder::new()
            .name("massgen-docker-rm".into())
            .spawn(move || remove_now(&name));
        if removal.is_err() {
            remove_now(&self.name);
        }
    }
}

/// A command running in a container. Dropped before [`Exec::end`] (a cancelled call), it
/// kills the container's processes from a thread of its own.
#[derive(Debug)]
pub struct Exec {
    pub child: tokio::process::Child,
    container: String,
    ended: bool,
}

impl Exec {
    /// Kills what the command left running, and waits for that.
    pub async fn end(&mut self) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        let _ = self.child.start_kill();
        if let Err(error) = docker(&spec::kill_args(&self.container), &[], QUICK_TIMEOUT).await {
            tracing::warn!(container = %self.container, %error, "processes in the container not killed");
        }
    }
}

impl Drop for Exec {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        let kill = spec::kill_args(&self.container);
        let _ = std::thread::Builder::new()
            .name("massgen-docker-kill".into())
            .spawn(move || {
                let _ = std::process::Command::new(PROGRAM)
                    .args(kill)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
            });
    }
}

/// Removes every container this process started: when massgen exits.
pub fn remove_all() {
    let names: Vec<String> = live().clone();
    names.iter().for_each(|name| remove_now(name));
}

fn remove_now(name: &str) {
    let removed = std::process::Command::new(PROGRAM)
        .args(spec::remove_args(name))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if let Err(error) = removed {
        tracing::warn!(container = %name, %error, "docker container not removed");
    }
    live().retain(|live| live != name);
}

/// Runs the docker client with `args`, `env` added to its environment, within `timeout`.
async fn docker(
    args: &[String],
    env: &[(String, String)],
    timeout: Duration,
) -> Result<Output, String> {
    let output = tokio::process::Command::new(PROGRAM)
        .args(args)
        .envs(env.iter().map(|(name, value)| (name, value)))
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    match tokio::time::timeout(timeout, output).await {
        Ok(Ok(output)) => Ok(output),
        Ok(Err(error)) => Err(format!("the docker client could not run: {error}")),
        Err(_) => Err(format!(
            "docker did not answer within {} s",
            timeout.as_secs()
        )),
    }
}

fn last_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("no reason given")
        .trim()
        .to_string()
}
