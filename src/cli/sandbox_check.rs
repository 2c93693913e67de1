//! `massgen --sandbox-check`: prints what the sandbox of `execute_command` enforces here.

use super::Exit;
use crate::sandbox::{Mode, check};

/// Prints the report; 0 when commands' files are confined, 1 (as [`Exit::Config`]) when
/// only the command filters apply (no Landlock, not Linux, or `MASSGEN_SANDBOX=off`).
pub fn run() -> Exit {
    let report = check::run(Mode::from_env());
    super::stdout::write(&report.to_string());
    if report.enforced {
        Exit::Success
    } else {
        Exit::Config
    }
}
