//! The `massgen` binary: parse the command line and hand over to [`massgen::cli`].

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    massgen::cli::run(massgen::cli::Args::parse()).into()
}
