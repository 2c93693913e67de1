//! The `massgen` binary: parse the command line and hand over to [`massgen::cli`].

use std::process::ExitCode;

use clap::Parser;
use massgen::cli::{Args, Exit};

fn main() -> ExitCode {
    // First, while this process has one thread: the helper that starts an agent's command
    // in namespaces of its own is this binary run again.
    if let Some(code) = massgen::sandbox::run_helper() {
        return code;
    }
    if let Ok(program) = std::env::current_exe() {
        massgen::sandbox::set_helper_program(program);
    }
    match Args::try_parse() {
        Ok(args) => massgen::cli::run(args).into(),
        Err(error) => {
            let _ = error.print();
            // `--help` and `--version` succeed; bad arguments are a usage error (1).
            if error.use_stderr() {
                Exit::Config.into()
            } else {
                Exit::Success.into()
            }
        }
    }
}
