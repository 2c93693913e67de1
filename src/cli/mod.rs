//! The `massgen` command: parse arguments, load the config, run turns with a front end.

mod args;
mod exit;
mod front_end;
mod info;
mod plain_session;
mod setup;
mod tui_session;

use std::path::PathBuf;

pub use args::{Args, DisplayArg};
pub use exit::Exit;
use front_end::FrontEnd;

use crate::config::Env;

/// Runs the command and returns its exit code.
pub fn run(args: Args) -> Exit {
    if args.debug {
        let full_screen = match args.display {
            Some(DisplayArg::Tui) => true,
            Some(DisplayArg::Plain | DisplayArg::Quiet) => false,
            None => front_end::on_terminal(),
        };
        init_debug_logging(full_screen);
    }
    if args.list_examples {
        return info::list_examples();
    }
    if let Some(name) = &args.example {
        return info::print_example(name);
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let (env, env_warnings) = Env::load(&cwd);
    for warning in env_warnings {
        eprintln!("warning: {warning}");
    }
    if let Some(target) = &args.validate {
        return info::validate(target, &cwd, &env);
    }
    let prepared = match setup::prepare(&args, &cwd, &env) {
        Ok(prepared) => prepared,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return Exit::Execution;
        }
    };
    // Spawned rather than run in `block_on`, so the front end shares the worker threads
    // with the orchestrator and each event does not cross to another thread.
    let front_end = front_end::choose(
        args.display,
        prepared.config.ui.display,
        front_end::on_terminal(),
    );
    let exit = runtime.block_on(async move {
        if front_end == FrontEnd::Tui {
            tokio::spawn(tui_session::run(prepared, args, cwd))
                .await
                .unwrap_or(Exit::Execution)
        } else {
            tokio::spawn(plain_session::run(prepared, args, cwd))
                .await
                .unwrap_or(Exit::Execution)
        }
    });
    // The session has awaited every task it started; only a read of standard input that
    // will never finish may remain, and waiting for it would hang the exit.
    runtime.shutdown_background();
    exit
}

/// Debug logs go to standard error, or to `.massgen/massgen.log` while the full-screen
/// display owns the terminal.
fn init_debug_logging(to_file: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("massgen=debug"));
    if to_file {
        let path = PathBuf::from(".massgen").join("massgen.log");
        let file = std::fs::create_dir_all(".massgen").and_then(|()| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
        });
        if let Ok(file) = file {
            let _ = tracing_subscriber::fmt()
                .with_writer(std::sync::Mutex::new(file))
                .with_ansi(false)
                .with_env_filter(filter)
                .try_init();
        }
        return;
    }
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .try_init();
}
