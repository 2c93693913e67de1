//! Where one command runs under the agent's `command_line_execution_mode`: in massgen's
//! OS sandbox (`local`; `srt` with MassGen's srt policy on the plan; `docker` where no
//! daemon answers), or in the agent's Docker container, started on its first command and
//! started again when the agent's paths change.

use std::path::{Path, PathBuf};

use tokio::sync::Mutex;

use crate::config::{
    DockerNetwork, DockerSettings, ExecutionMode, SRT_SECRET_HOME_PATHS, SRT_SECRET_PATHS,
    SrtReadMode, SrtSettings,
};
use crate::sandbox::docker::{self, Container, Exec};
use crate::sandbox::{self, Launch, Mode, Plan, Running};

/// A started command, in the sandbox or in a container.
pub(super) enum Started {
    Local(Running),
    Docker(Exec),
}

impl Started {
    pub(super) fn child(&mut self) -> &mut tokio::process::Child {
        match self {
            Self::Local(running) => &mut running.child,
            Self::Docker(exec) => &mut exec.child,
        }
    }

    /// Ends the command with everything it started.
    pub(super) async fn end(&mut self) {
        match self {
            Self::Local(running) => running.end(),
            Self::Docker(exec) => exec.end().await,
        }
    }
}

/// One agent's execution mode and, in Docker, its container.
pub(super) struct Executor {
    mode: ExecutionMode,
    container: Mutex<Option<Container>>,
}

impl Executor {
    pub(super) fn new(mode: ExecutionMode) -> Self {
        Self {
            mode,
            container: Mutex::new(None),
        }
    }

    /// `plan` as the mode has it: srt denies the network and sets reads; Docker's
    /// fallback keeps `network_mode: none`'s promise of no network.
    pub(super) fn adjust(&self, plan: &mut Plan) {
        match &self.mode {
            ExecutionMode::Local => {}
            ExecutionMode::Srt(srt) => srt_plan(srt, plan),
            ExecutionMode::Docker(settings) => {
                if settings.network == DockerNetwork::None {
                    plan.network = false;
                }
            }
        }
    }

    /// Starts `launch` under `plan`, and the notice its result should carry.
    pub(super) async fn start(
        &self,
        launch: Launch,
        plan: Plan,
    ) -> Result<(Started, Option<String>), String> {
        let ExecutionMode::Docker(settings) = &self.mode else {
            return local(launch, plan).await;
        };
        let answers = tokio::task::spawn_blocking(docker::daemon_answers)
            .await
            .unwrap_or(false);
        if !answers {
            return local(launch, plan).await;
        }
        let mut container = self.container.lock().await;
        let notice = ensure(&mut container, settings, &plan).await?;
        let Some(running) = container.as_ref() else {
            return Err("the agent's container is gone".into());
        };
        let argv: Vec<String> = std::iter::once(launch.program.clone())
            .chain(launch.args)
            .collect();
        let exec = running.exec(&launch.cwd, &argv).map_err(|error| {
            format!(
                "the docker client could not run `{}`: {error}",
                argv.join(" ")
            )
        })?;
        Ok((Started::Docker(exec), notice))
    }
}

async fn local(launch: Launch, plan: Plan) -> Result<(Started, Option<String>), String> {
    let mut running = sandbox::launch(launch, plan, Mode::from_env())
        .await
        .map_err(|error| error.to_string())?;
    let notice = running.notice.take();
    Ok((Started::Local(running), notice))
}

/// The agent's container for `plan`'s paths: the running one, or a new one when there is
/// none or the paths changed (a context path became writable). Its set-up notice, once.
async fn ensure(
    container: &mut Option<Container>,
    settings: &DockerSettings,
    plan: &Plan,
) -> Result<Option<String>, String> {
    let name = docker::container_name(&plan.workspace);
    let (spec, secrets) = docker::container_spec(settings, plan, name);
    if let Some(running) = container.as_ref()
        && running.mounts() == spec.mounts.as_slice()
    {
        return Ok(None);
    }
    if let Some(old) = container.take() {
        old.remove().await;
    }
    let mut started = docker::start(spec, &secrets, &settings.packages).await?;
    let notice = started.notice.take();
    *container = Some(started);
    Ok(notice)
}

/// MassGen's srt policy on massgen's sandbox: no network; reads confined (massgen's
/// default already keeps the home directory out) or, in `open` mode, everything but the
/// secret stores; `allow_read` and the unix sockets readable, `deny_read` never.
fn srt_plan(srt: &SrtSettings, plan: &mut Plan) {
    plan.network = false;
    let resolved = |path: &PathBuf| path.canonicalize().unwrap_or_else(|_| path.clone());
    plan.readable.extend(
        srt.allow_read
            .iter()
            .chain(&srt.allow_unix_sockets)
            .map(resolved),
    );
    plan.deny_read = srt.deny_read.iter().map(resolved).collect();
    if srt.read_mode == SrtReadMode::Open {
        plan.read_everything = true;
        let home = directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf());
        if let Some(home) = home {
            plan.deny_read
                .extend(SRT_SECRET_HOME_PATHS.iter().map(|path| home.join(path)));
        }
        plan.deny_read.extend(
            SRT_SECRET_PATHS
                .iter()
                .map(|path| Path::new(path).to_path_buf()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srt_denies_the_network_and_adds_its_reads() {
        let srt = SrtSettings {
            read_mode: SrtReadMode::Open,
            allow_read: vec!["/data/x".into()],
            deny_read: vec!["/etc/hidden".into()],
            allow_unix_sockets: vec!["/run/a.sock".into()],
        };
        let mut plan = Plan {
            network: true,
            ..Plan::default()
        };
        Executor::new(ExecutionMode::Srt(srt)).adjust(&mut plan);
        assert!(!plan.network && plan.read_everything);
        assert_eq!(
            plan.readable,
            [PathBuf::from("/data/x"), "/run/a.sock".into()]
        );
        assert!(plan.deny_read.contains(&"/etc/hidden".into()));
        assert!(plan.deny_read.contains(&"/etc/shadow".into()));
        let mut confined = Plan {
            network: true,
            ..Plan::default()
        };
        Executor::new(ExecutionMode::Srt(SrtSettings::default())).adjust(&mut confined);
        assert!(!confined.network && !confined.read_everything);
        assert!(confined.deny_read.is_empty());
    }
}
