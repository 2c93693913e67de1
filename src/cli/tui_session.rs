//! Runs the full-screen TUI over a fresh orchestrator (the default on a terminal).

use std::io::IsTerminal;
use std::path::PathBuf;

use super::args::Args;
use super::exit::Exit;
use super::setup::Prepared;
use crate::tui::TuiOptions;

pub async fn run(mut prepared: Prepared, args: Args, cwd: PathBuf) -> Exit {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        eprintln!(
            "error: the full-screen display needs a terminal\n  help: use --display plain \
             when piping or redirecting"
        );
        return Exit::Config;
    }
    let handle = prepared.spawn_orchestrator(&cwd);
    let options = TuiOptions {
        question: args.question.clone(),
        config_file: prepared.config_file,
    };
    match crate::tui::run(handle, options).await {
        Ok(()) => Exit::Success,
        Err(error) => {
            eprintln!("error: the terminal failed: {error}");
            Exit::Execution
        }
    }
}
