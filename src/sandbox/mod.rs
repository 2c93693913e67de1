//! The OS sandbox of `execute_command`: each command starts confined by Landlock (Linux)
//! with `no_new_privs`, in its own process group and temp dir, and is killed with every
//! process it started — also those that left its group — when the call ends.
//!
//! How: where the kernel gives PID and mount namespaces (root, or unprivileged user
//! namespaces), massgen runs itself as a helper ([`helper`]: `massgen __sandbox-exec`) that
//! starts the command as pid 1 of a new PID namespace with a `/proc` of its own, then
//! confines it with Landlock and `no_new_privs`: the command sees only its own processes,
//! not massgen's environment (API keys), its parents' or its MCP servers'. Elsewhere
//! Landlock and `no_new_privs`, per-thread credentials that a child inherits, are applied
//! by a fresh thread that spawns the command and ends; the command then sees this user's
//! processes: massgen's own environment is closed to it only because massgen is not
//! dumpable (its `/proc` files belong to root), which does not stop a command run by
//! root, and its parents' environments are open. A root command loses `CAP_SYS_PTRACE`
//! either way (no ptrace or `/proc/PID/mem` of massgen, even without Landlock).
//! massgen's own threads stay unrestricted (no `unsafe`).
//!
//! What a command may do (Linux, Landlock ABI 1+):
//! - read and execute the system directories in [`landlock`]'s list (`/usr`, `/etc`, …;
//!   not the user's home) and the agent's roots (workspace, peers' copies, context paths);
//! - write only its workspace, its own temp dir (`TMPDIR`) and the context paths the policy
//!   lets it write at that moment; make no device nodes anywhere;
//! - with `command_line_network: false`, neither connect nor bind TCP (ABI 4+; UDP from
//!   ABI 10); with ABI 6+, signal no process and reach no abstract unix socket outside it.
//!
//! The first command without its own PID namespace says so in the log.
//! Where Landlock is missing (older kernel, not Linux) or `MASSGEN_SANDBOX=off` is set,
//! commands run with the pattern filters of `execute_command` only, and the first such
//! command says so loudly (a warning in the log and a line in its result).
//! `massgen --sandbox-check` prints what is enforced on this machine.

#[cfg(target_os = "linux")]
mod capabilities;
#[cfg(target_os = "linux")]
mod carve;
pub mod check;
pub mod docker;
#[cfg(target_os = "linux")]
mod helper;
#[cfg(target_os = "linux")]
mod landlock;
mod launch;
mod namespace;
#[cfg(target_os = "linux")]
mod probe;
mod procs;
#[cfg(target_os = "linux")]
mod report;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

pub use launch::{Launch, LaunchError, Running, launch};
pub use namespace::{helper_program, set_helper_program};
pub use procs::end_commands_in;

/// Ends every command of this process and removes the Docker containers it started: when
/// massgen exits.
pub fn end_all_commands() {
    procs::end_all_commands();
    docker::remove_all();
}

/// Runs the sandbox helper when this process was started as one (argv\[1\] names a helper
/// mode) and returns its exit code; `None` otherwise. `main` calls it before anything else.
pub fn run_helper() -> Option<std::process::ExitCode> {
    #[cfg(target_os = "linux")]
    return helper::dispatch();
    #[cfg(not(target_os = "linux"))]
    None
}

/// The environment variable that turns the sandbox off (`off`, `0`, `false` or `no`).
pub const ENV_SWITCH: &str = "MASSGEN_SANDBOX";

/// What one command may touch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// The agent's workspace: read, write and execute.
    pub workspace: PathBuf,
    /// Read (and execute) only: peers' copies, read-only context paths.
    pub readable: Vec<PathBuf>,
    /// Also written: context paths while the policy allows writing them.
    pub writable: Vec<PathBuf>,
    /// TCP allowed (`command_line_network`, default true; never under srt).
    pub network: bool,
    /// Everything readable but [`Plan::deny_read`] (srt's `open` read mode), not only the
    /// system directories and the paths above.
    pub read_everything: bool,
    /// Never readable, even inside a readable system directory (srt's `deny_read`).
    pub deny_read: Vec<PathBuf>,
}

/// Whether commands are confined: on unless the user turned it off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Confine with what the kernel offers; say so once where it offers nothing.
    Auto,
    /// `MASSGEN_SANDBOX=off`: the pattern filters only (the escape hatch).
    Off,
}

impl Mode {
    /// [`ENV_SWITCH`] as set now.
    pub fn from_env() -> Self {
        Self::parse(std::env::var(ENV_SWITCH).ok().as_deref())
    }

    fn parse(value: Option<&str>) -> Self {
        match value.map(|value| value.trim().to_ascii_lowercase()) {
            Some(value) if ["off", "0", "false", "no"].contains(&value.as_str()) => Self::Off,
            Some(_) | None => Self::Auto,
        }
    }
}

/// How a command was confined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Confinement {
    /// Landlock enforced reads and writes.
    Landlock {
        /// The Landlock ABI in effect (1-7 on today's kernels).
        abi: u8,
        /// TCP connect and bind were denied.
        network_denied: bool,
        /// The plan asked for no network and this kernel could not deny it.
        network_unenforced: bool,
    },
    /// Only the pattern filters apply; why.
    Filters { reason: String },
}

/// Which processes a command can see in `/proc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Its own PID namespace and `/proc`: only its own processes.
    PidNamespace,
    /// All of this user's processes: its parents' environments are readable, massgen's
    /// own only by root (massgen is not dumpable). Why there is no namespace.
    Shared { reason: String },
}

/// Each loud warning is given once per process.
#[derive(Debug, Default)]
pub struct Warned {
    unconfined: AtomicBool,
    network: AtomicBool,
    processes: AtomicBool,
}

/// Warnings of this process.
pub static WARNED: Warned = Warned {
    unconfined: AtomicBool::new(false),
    network: AtomicBool::new(false),
    processes: AtomicBool::new(false),
};

impl Warned {
    /// Logs, once, that commands share massgen's `/proc`; the text, or `None` when there
    /// is nothing to say or it was said before.
    pub fn isolation_notice(&self, isolation: &Isolation) -> Option<String> {
        let Isolation::Shared { reason } = isolation else {
            return None;
        };
        if self.processes.swap(true, Ordering::SeqCst) {
            return None;
        }
        let own = if rustix::process::geteuid().is_root() {
            "as massgen runs as root, its own environment (API keys) is readable to them too"
        } else {
            "massgen's own environment is closed to them"
        };
        let text = format!(
            "commands do not get a PID namespace of their own ({reason}): they can see every \
             process of this user in /proc and read the environment of massgen's parent \
             processes (your shell's, API keys included); {own}. Run `massgen \
             --sandbox-check` for details."
        );
        tracing::warn!("{text}");
        Some(text)
    }

    /// The line to add to the first command's result where confinement falls short, also
    /// logged as a warning; `None` when there is nothing to say or it was said before.
    pub fn notice(&self, confinement: &Confinement) -> Option<String> {
        let (flag, text) = match confinement {
            Confinement::Filters { reason } => (
                &self.unconfined,
                format!(
                    "WARNING: commands run WITHOUT an OS sandbox ({reason}); only massgen's \
                     command filters stand between them and your files. Run `massgen \
                     --sandbox-check` for details."
                ),
            ),
            Confinement::Landlock {
                network_unenforced: true,
                abi,
                ..
            } => (
                &self.network,
                format!(
                    "WARNING: `command_line_network: false` is not enforced: this kernel's \
                     Landlock ABI {abi} cannot deny TCP (ABI 4, Linux 6.7, can); only files \
                     are confined."
                ),
            ),
            Confinement::Landlock { .. } => return None,
        };
        if flag.swap(true, Ordering::SeqCst) {
            return None;
        }
        tracing::warn!("{text}");
        Some(text)
    }
}

#[cfg(test)]
mod tests;
