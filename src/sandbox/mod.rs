//! The OS sandbox of `execute_command`: each command starts confined by Landlock (Linux)
//! with `no_new_privs`, in its own process group and temp dir, and is killed with every
//! process it started — also those that left its group — when the call ends.
//!
//! How: Landlock and `no_new_privs` are per-thread credentials that a child inherits, so
//! each command is spawned from a fresh thread that restricted itself first and then ends;
//! massgen's own threads stay unrestricted (no `unsafe`, no helper binary).
//!
//! What a command may do (Linux, Landlock ABI 1+):
//! - read and execute the system directories in [`landlock`]'s list (`/usr`, `/etc`, …;
//!   not the user's home) and the agent's roots (workspace, peers' copies, context paths);
//! - write only its workspace, its own temp dir (`TMPDIR`) and the context paths the policy
//!   lets it write at that moment; make no device nodes anywhere;
//! - with `command_line_network: false`, neither connect nor bind TCP (ABI 4+; UDP from
//!   ABI 10); with ABI 6+, signal no process and reach no abstract unix socket outside it.
//!
//! Where Landlock is missing (older kernel, not Linux) or `MASSGEN_SANDBOX=off` is set,
//! commands run with the pattern filters of `execute_command` only, and the first such
//! command says so loudly (a warning in the log and a line in its result).
//! `massgen --sandbox-check` prints what is enforced on this machine.

pub mod check;
#[cfg(target_os = "linux")]
mod landlock;
mod launch;
mod procs;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

pub use launch::{Launch, LaunchError, Running, launch};
pub use procs::{end_all_commands, end_commands_in};

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
    /// TCP allowed (`command_line_network`, default true).
    pub network: bool,
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

/// Each loud warning is given once per process.
#[derive(Debug, Default)]
pub struct Warned {
    unconfined: AtomicBool,
    network: AtomicBool,
}

/// Warnings of this process.
pub static WARNED: Warned = Warned {
    unconfined: AtomicBool::new(false),
    network: AtomicBool::new(false),
};

impl Warned {
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
