//! The async runtimes the commands run on, built once per command; a runtime that cannot
//! start is an execution error the user is told about.

use tokio::runtime::{Builder, Runtime};

use super::exit::Exit;

/// One worker per core: `serve` and `eval` run many turns at once.
pub fn multi_thread() -> Result<Runtime, Exit> {
    report(Builder::new_multi_thread().enable_all().build())
}

/// One thread: an interactive session's single turn at a time.
pub fn current_thread() -> Result<Runtime, Exit> {
    report(Builder::new_current_thread().enable_all().build())
}

fn report(built: std::io::Result<Runtime>) -> Result<Runtime, Exit> {
    built.map_err(|error| {
        eprintln!("error: cannot start the async runtime: {error}");
        Exit::Execution
    })
}
