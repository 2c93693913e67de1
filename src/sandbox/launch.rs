//! Starting one command: its temp dir and marker, confinement on a fresh thread, and the
//! [`Running`] handle that ends it with everything it started.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use super::{Confinement, Isolation, Mode, Plan, WARNED, namespace, procs};

/// What to run: no shell, the environment given and nothing else.
#[derive(Clone, Debug)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub env: Vec<(&'static str, OsString)>,
    /// More variables, named at run time (an agent CLI's own settings).
    pub extra_env: Vec<(String, OsString)>,
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
    /// Whether other processes' `/proc` entries are out of its sight.
    pub isolation: Isolation,
    /// The loud line for the first unconfined command of this process.
    pub notice: Option<String>,
    key: String,
    tmp: PathBuf,
    ended: bool,
}

impl Running {
    fn new(
        child: tokio::process::Child,
        confinement: Confinement,
        isolation: Isolation,
        key: String,
        tmp: PathBuf,
    ) -> Self {
        let notice = WARNED.notice(&confinement);
        WARNED.isolation_notice(&isolation);
        Self {
            child,
            confinement,
            isolation,
            notice,
            key,
            tmp,
            ended: false,
        }
    }

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
/// its environment; in its own PID namespace where this machine allows (see
/// [`super::namespace`]). Needs a tokio runtime.
pub async fn launch(launch: Launch, plan: Plan, mode: Mode) -> Result<Running, LaunchError> {
    start_confined(launch, plan, mode, Stdin::Null).await
}

impl Launch {
    /// As [`launch`], with stdin piped too (a worker that takes requests on it). Never in
    /// a PID namespace of its own: the namespace helper takes its stdin to report on.
    pub async fn start_piped(self, plan: Plan, mode: Mode) -> Result<Running, LaunchError> {
        start_confined(self, plan, mode, Stdin::Piped).await
    }
}

/// Where a command's standard input comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stdin {
    Null,
    Piped,
}

async fn start_confined(
    launch: Launch,
    plan: Plan,
    mode: Mode,
    stdin: Stdin,
) -> Result<Running, LaunchError> {
    let key = procs::new_key();
    let tmp = std::env::temp_dir().join(format!("massgen-cmd-{key}"));
    make_private_dir(&tmp).map_err(|error| LaunchError::TempDir {
        dir: tmp.display().to_string(),
        error: error.to_string(),
    })?;
    let handle = tokio::runtime::Handle::current();
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let spawner = std::thread::Builder::new()
        .name("massgen-sandbox".into())
        .spawn(move || {
            // Everything below runs on this thread only, which ends right after.
            let _runtime = handle.enter();
            let started = start(&launch, &plan, (mode, stdin), key, tmp.clone());
            if started.is_err() {
                let _ = std::fs::remove_dir_all(&tmp);
            }
            // If the call was cancelled meanwhile, the command is dropped, so ended, here.
            let _ = sender.send(started);
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

/// On the spawner thread: through the namespace helper where it can be had, else confined
/// from this thread.
fn start(
    launch: &Launch,
    plan: &Plan,
    (mode, stdin): (Mode, Stdin),
    key: String,
    tmp: PathBuf,
) -> Result<Running, LaunchError> {
    let why_not = match mode {
        Mode::Off => format!("{}=off is set", super::ENV_SWITCH),
        Mode::Auto if stdin == Stdin::Piped => {
            "it takes requests on its standard input, which the namespace helper keeps for \
             itself"
                .to_string()
        }
        Mode::Auto => match in_namespace(launch, plan, &key, &tmp) {
            Ok((child, confinement)) => {
                return Ok(Running::new(
                    child,
                    confinement,
                    Isolation::PidNamespace,
                    key,
                    tmp,
                ));
            }
            Err(namespace::Refused::Error(error)) => return Err(error),
            Err(namespace::Refused::Unavailable(reason)) => reason,
        },
    };
    let confinement = match mode {
        Mode::Off => Confinement::Filters {
            reason: why_not.clone(),
        },
        Mode::Auto => confine(plan, &tmp).map_err(LaunchError::Sandbox)?,
    };
    let mut command = base(launch.program.as_ref(), launch, &tmp, &key);
    command.args(&launch.args).stdin(match stdin {
        Stdin::Null => Stdio::null(),
        Stdin::Piped => Stdio::piped(),
    });
    let child = spawn(command, &key, plan)
        .map_err(|error| spawn_error(launch.program.clone(), launch, &error))?;
    let isolation = Isolation::Shared { reason: why_not };
    Ok(Running::new(child, confinement, isolation, key, tmp))
}

#[cfg(not(target_os = "linux"))]
fn in_namespace(
    _launch: &Launch,
    _plan: &Plan,
    _key: &str,
    _tmp: &Path,
) -> Result<(tokio::process::Child, Confinement), namespace::Refused> {
    Err(namespace::Refused::Unavailable(
        "PID namespaces exist on Linux only".into(),
    ))
}

/// Starts the command through the namespace helper, or says why not.
#[cfg(target_os = "linux")]
fn in_namespace(
    launch: &Launch,
    plan: &Plan,
    key: &str,
    tmp: &Path,
) -> Result<(tokio::process::Child, Confinement), namespace::Refused> {
    use namespace::Refused;
    if let Some(reason) = namespace::why_not() {
        return Err(Refused::Unavailable(reason));
    }
    let helper = namespace::helper_program()
        .ok_or_else(|| Refused::Unavailable("no helper program is set".into()))?;
    let (reader, writer) = std::io::pipe().map_err(|error| {
        Refused::Error(LaunchError::Sandbox(format!(
            "no pipe to the helper: {error}"
        )))
    })?;
    let argv: Vec<String> = std::iter::once(launch.program.clone())
        .chain(launch.args.iter().cloned())
        .collect();
    let helper_command = |mode: &str, pipe: std::io::PipeWriter| {
        let mut command = base(helper.as_os_str(), launch, tmp, key);
        command
            .args(namespace::command_args(mode, plan, tmp, &argv))
            .stdin(Stdio::from(pipe));
        command
    };
    // Root makes the namespaces from a thread of its own, sparing the outer helper.
    let unshared = match writer.try_clone() {
        Ok(pipe) if rustix::process::geteuid().is_root() => {
            spawn_unshared(helper_command(super::report::INNER, pipe), key, plan)
        }
        Ok(_) | Err(_) => None,
    };
    let spawned = match unshared {
        Some(spawned) => {
            // Only the helper may hold the pipe, or its end is never seen.
            drop(writer);
            spawned
        }
        None => spawn(helper_command(super::report::OUTER, writer), key, plan),
    };
    let child = match spawned {
        Ok(child) => child,
        Err(error) if launch.cwd.is_dir() => {
            return Err(Refused::Error(LaunchError::Sandbox(format!(
                "the sandbox helper {} could not start: {error}",
                helper.display()
            ))));
        }
        Err(error) => {
            return Err(Refused::Error(spawn_error(
                launch.program.clone(),
                launch,
                &error,
            )));
        }
    };
    // The command (spawned with the pipe's other end dropped) has started or failed once
    // the helper lets go of the pipe.
    match namespace::outcome(reader, &launch.program, &launch.cwd) {
        Ok(confinement) => Ok((child, confinement)),
        Err(refused) => {
            procs::end(key);
            drop(child);
            if let Refused::Unavailable(reason) = &refused {
                namespace::mark_unavailable(reason);
            }
            Err(refused)
        }
    }
}

/// Spawns `command` (the inner helper) from a thread that made new PID and mount
/// namespaces for the processes it starts; `None` where the kernel refused them.
#[cfg(target_os = "linux")]
fn spawn_unshared(
    command: std::process::Command,
    key: &str,
    plan: &Plan,
) -> Option<std::io::Result<tokio::process::Child>> {
    use rustix::thread::UnshareFlags;
    let handle = tokio::runtime::Handle::current();
    std::thread::scope(|scope| {
        scope
            .spawn(move || {
                let _runtime = handle.enter();
                #[allow(deprecated)] // Sound: `unshare` is unsafe only with `CLONE_FILES`.
                rustix::thread::unshare(UnshareFlags::NEWPID | UnshareFlags::NEWNS).ok()?;
                Some(spawn(command, key, plan))
            })
            .join()
            .ok()
            .flatten()
    })
}

/// `program` run in the command's directory with only the command's environment, its
/// output piped, in a process group of its own.
fn base(
    program: &std::ffi::OsStr,
    launch: &Launch,
    tmp: &Path,
    key: &str,
) -> std::process::Command {
    let mut command = std::process::Command::new(program);
    command
        .current_dir(&launch.cwd)
        .env_clear()
        .envs(launch.env.iter().map(|(name, value)| (*name, value)))
        .envs(launch.extra_env.iter().map(|(name, value)| (name, value)))
        .env("TMPDIR", tmp)
        .env(procs::MARKER, key)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command
}

/// Spawns `command` (consumed, so the parent's copies of its pipes close) registered as
/// `key`.
fn spawn(
    command: std::process::Command,
    key: &str,
    plan: &Plan,
) -> std::io::Result<tokio::process::Child> {
    procs::spawn_registered(key, &plan.workspace, || {
        let child = tokio::process::Command::from(command)
            .kill_on_drop(true)
            .spawn()?;
        let pid = child.id();
        Ok((child, pid))
    })
}

/// Restricts this thread with Landlock, and takes `CAP_SYS_PTRACE` from it (root), so that
/// the command cannot read massgen's `/proc` files.
#[cfg(target_os = "linux")]
fn confine(plan: &Plan, tmp: &Path) -> Result<Confinement, String> {
    let confinement =
        super::landlock::restrict_this_thread(plan, tmp).map_err(|error| error.to_string())?;
    super::capabilities::drop_process_tracing()?;
    Ok(confinement)
}

#[cfg(not(target_os = "linux"))]
fn confine(_plan: &Plan, _tmp: &Path) -> Result<Confinement, String> {
    Ok(Confinement::Filters {
        reason: "the OS sandbox exists on Linux only".into(),
    })
}

fn spawn_error(program: String, launch: &Launch, error: &std::io::Error) -> LaunchError {
    match error.kind() {
        std::io::ErrorKind::NotFound => LaunchError::NotFound {
            program,
            cwd: launch.cwd.display().to_string(),
        },
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
