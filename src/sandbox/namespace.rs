//! massgen's side of starting a command in its own PID and mount namespaces: which binary
//! serves as the helper ([`set_helper_program`]), whether this machine gives namespaces
//! (learnt from the first command), and one start through the helper.
// Off Linux only the helper's setting is used: commands never start in namespaces there.
#![cfg_attr(not(target_os = "linux"), allow(dead_code))]

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

#[cfg(target_os = "linux")]
use super::Confinement;
use super::LaunchError;
#[cfg(target_os = "linux")]
use super::report::{self, Kind, Message};

static HELPER: OnceLock<PathBuf> = OnceLock::new();
/// Why namespaces cannot be had here, once a helper said so.
static UNAVAILABLE: Mutex<Option<String>> = Mutex::new(None);

/// Names the massgen binary that starts commands in namespaces (`massgen __sandbox-exec`):
/// `main` passes its own path, tests `CARGO_BIN_EXE_massgen`. Without it (the library used
/// from elsewhere) commands share massgen's `/proc`. The first call wins.
pub fn set_helper_program(path: PathBuf) {
    let _ = HELPER.set(path);
}

/// The helper program, if set.
pub fn helper_program() -> Option<&'static Path> {
    HELPER.get().map(PathBuf::as_path)
}

fn unavailable() -> std::sync::MutexGuard<'static, Option<String>> {
    UNAVAILABLE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Why commands do not get their own PID namespace, or `None` when (as far as known) they do.
pub(super) fn why_not() -> Option<String> {
    if cfg!(not(target_os = "linux")) {
        return Some("PID namespaces exist on Linux only".into());
    }
    if HELPER.get().is_none() {
        return Some("no helper program is set (massgen used as a library)".into());
    }
    unavailable().clone()
}

/// Remembers that namespaces cannot be had, so later commands do not try again.
pub(super) fn mark_unavailable(reason: &str) {
    tracing::debug!(reason, "commands do not get a PID namespace");
    unavailable().get_or_insert_with(|| reason.to_string());
}

/// How a start through the helper went, short of a started command.
pub(super) enum Refused {
    /// No namespaces here (or no helper): start the command the other way.
    Unavailable(String),
    /// The command cannot run.
    Error(LaunchError),
}

#[cfg(target_os = "linux")]
/// The helper's arguments for `argv` under `plan`: `mode`, then the request.
pub(super) fn command_args(
    mode: &str,
    plan: &super::Plan,
    tmp: &Path,
    argv: &[String],
) -> Vec<std::ffi::OsString> {
    let mut args = vec![std::ffi::OsString::from(mode)];
    args.extend(report::encode(plan, tmp, argv));
    args
}

#[cfg(target_os = "linux")]
/// Waits for the helper's word on the command it is starting.
pub(super) fn outcome(
    pipe: std::io::PipeReader,
    program: &str,
    cwd: &Path,
) -> Result<Confinement, Refused> {
    let Some(messages) = report::read(pipe, report::PATIENCE) else {
        return Err(Refused::Error(LaunchError::Sandbox(format!(
            "the sandbox helper did not start the command within {} s",
            report::PATIENCE.as_secs()
        ))));
    };
    let mut started = None;
    for message in messages {
        match message {
            Message::Started(confinement) => started = Some(confinement),
            Message::Unavailable(reason) => return Err(Refused::Unavailable(reason)),
            Message::Failed(reason) => return Err(Refused::Error(LaunchError::Sandbox(reason))),
            Message::NotExecuted(kind, error) => {
                let program = program.to_string();
                return Err(Refused::Error(match kind {
                    Kind::NotFound => LaunchError::NotFound {
                        program,
                        cwd: cwd.display().to_string(),
                    },
                    Kind::Denied => LaunchError::Denied { program, error },
                    Kind::Other => LaunchError::Spawn { program, error },
                }));
            }
        }
    }
    // Said before its `exec`: without it the command never ran. Not taken for a machine
    // without namespaces (a binary replaced mid-run, a helper killed), so it fails closed.
    started.ok_or_else(|| {
        Refused::Error(LaunchError::Sandbox(format!(
            "the sandbox helper {} ended without starting the command; if massgen was \
             updated while running, restart it",
            helper_program().map_or_else(String::new, |path| path.display().to_string())
        )))
    })
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_helper_that_says_nothing_starts_nothing() {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(writer);
        let Err(Refused::Error(error)) = outcome(reader, "sh", Path::new("/")) else {
            panic!("a silent helper was taken for a started command");
        };
        assert!(
            error
                .to_string()
                .contains("ended without starting the command")
        );
    }
}
