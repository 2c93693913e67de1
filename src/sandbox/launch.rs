//! Starting one command: its temp dir and marker, confinement on a fresh thread, and the
//! [`Running`] handle that ends it with everything it started.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use super::{Confinement, Mode, Plan, WARNED, procs};

/// What to run: no shell, the environment given and nothing else.
#[derive(Clone, Debug)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub env: Vec<(&'static str, OsString)>,
}

#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error("`{program}` was not found on PATH (or {cwd} does not exist). Check the program name.")]
    NotFound { program: String, cwd: String },
    #[error(
        "`{program}` may not be run here: the sandbox lets commands run programs only from \
         system directories and the workspace ({error}). Copy it into your workspace, or ask \
         the user to set MASSGEN_SANDBOX=off."
    )]
    Denied { program: String, error: String },
    #[error("`{program}` could not be started: {error}.")]
    Spawn { program: String, error: String },
    #[error(
        "The command's temp dir {dir} could not be made: {error}. Check that the system temp dir is writable."
    )]
    TempDir { dir: String, error: String },
    #[error(
        "The sandbox could not be set up: {0}. Set MASSGEN_SANDBOX=off to run commands without it."
    )]
    Sandbox(String),
}

/// A started command. Dropping it (or [`end`](Self::end)) kills the command, its group and
/// every process it started, and removes its temp dir.
#[derive(Debug)]
pub struct Running {
    pub child: tokio::process::Child,
    pub confinement: Confinement,
    /// The loud line for the first unconfined command of this process.
    pub notice: Option<String>,
    key: String,
    tmp: PathBuf,
    ended: bool,
}

impl Running {
    pub fn end(&mut self) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        procs::end(&self.key);
        if let Err(error) = std::fs::remove_dir_all(&self.tmp) {
            tracing::debug!(%error, dir = %self.tmp.display(), "command temp dir not removed");
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.end();
    }
}

/// Starts `launch` confined to `plan` (unless `mode` is off) with stdin from /dev/null and
/// stdout and stderr piped, in its own process group, with `TMPDIR` and a marker added to
/// its environment. Needs a tokio runtime.
pub async fn launch(launch: Launch, plan: Plan, mode: Mode) -> Result<Running, LaunchError> {
    let key = procs::new_key();
    let tmp = std::env::temp_dir().join(format!("massgen-cmd-{key}"));
    make_private_dir(&tmp).map_err(|error| LaunchError::TempDir {
        dir: tmp.display().to_string(),
        error: error.to_string(),
    })?;
    let mut command = std::process::Command::new(&launch.program);
    command
        .args(&launch.args)
        .current_dir(&launch.cwd)
        .env_clear()
        .envs(launch.env.iter().map(|(name, value)| (*name, value)))
        .env("TMPDIR", &tmp)
        .env(procs::MARKER, &key)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let handle = tokio::runtime::Handle::current();
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let program = launch.program.clone();
    let cwd = launch.cwd.display().to_string();
    let spawner = std::thread::Builder::new()
        .name("massgen-sandbox".into())
        .spawn(move || {
            // Everything below runs on this thread only, which ends right after.
            let confinement = match mode {
                Mode::Off => Confinement::Filters {
                    reason: format!("{}=off is set", super::ENV_SWITCH),
                },
                Mode::Auto => match confine(&plan, &tmp) {
                    Ok(confinement) => confinement,
                    Err(error) => {
                        let _ = std::fs::remove_dir_all(&tmp);
                        let _ = sender.send(Err(LaunchError::Sandbox(error)));
                        return;
                    }
                },
            };
            let _runtime = handle.enter();
            let spawned = procs::spawn_registered(&key, &plan.workspace, || {
                let child = tokio::process::Command::from(command)
                    .kill_on_drop(true)
                    .spawn()?;
                let pid = child.id();
                Ok((child, pid))
            });
            let result = match spawned {
                Ok(child) => {
                    let notice = WARNED.notice(&confinement);
                    Ok(Running {
                        child,
                        confinement,
                        notice,
                        key,
                        tmp,
                        ended: false,
                    })
                }
                Err(error) => {
                    let _ = std::fs::remove_dir_all(&tmp);
                    Err(spawn_error(program, cwd, &error))
                }
            };
            // If the call was cancelled meanwhile, the command is dropped, so ended, here.
            let _ = sender.send(result);
        })
        .map_err(|error| LaunchError::Sandbox(format!("no thread to start it from: {error}")))?;
    let result = receiver.await.unwrap_or_else(|_| {
        Err(LaunchError::Sandbox(
            "the thread starting the command stopped".into(),
        ))
    });
    // The thread has sent its result and is ending; it is not waited for.
    drop(spawner);
    result
}

#[cfg(target_os = "linux")]
fn confine(plan: &Plan, tmp: &Path) -> Result<Confinement, String> {
    super::landlock::restrict_this_thread(plan, tmp).map_err(|error| error.to_string())
}

#[cfg(not(target_os = "linux"))]
fn confine(_plan: &Plan, _tmp: &Path) -> Result<Confinement, String> {
    Ok(Confinement::Filters {
        reason: "the OS sandbox exists on Linux only".into(),
    })
}

fn spawn_error(program: String, cwd: String, error: &std::io::Error) -> LaunchError {
    match error.kind() {
        std::io::ErrorKind::NotFound => LaunchError::NotFound { program, cwd },
        std::io::ErrorKind::PermissionDenied => LaunchError::Denied {
            program,
            error: error.to_string(),
        },
        _ => LaunchError::Spawn {
            program,
            error: error.to_string(),
        },
    }
}

/// A new directory only we may enter.
pub(super) fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}
