//! The `massgen` command: parse arguments, load the config, run turns with a front end.

mod approval_flags;
mod args;
mod eval;
mod eval_args;
mod exit;
mod front_end;
mod generate_config;
mod info;
pub mod logging;
mod logs;
mod output_file;
mod plain_session;
mod question_input;
mod quickstart;
mod replay;
mod runtime;
mod sandbox_check;
mod serve;
mod setup;
mod stdout;
mod steering;
mod tui_session;

use std::path::PathBuf;

pub use args::{Args, Command, DisplayArg, ReplayArgs};
pub use eval_args::EvalArgs;
pub use exit::Exit;
use front_end::FrontEnd;

use crate::config::Env;

/// Commands agents run and MCP servers are our children: on Linux they could otherwise
/// read our environment, API keys included, from `/proc/<our pid>/environ`. A process
/// that is not dumpable keeps those files to itself (and writes no core dumps).
fn keep_environment_private() {
    #[cfg(target_os = "linux")]
    if let Err(error) =
        rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)
    {
        tracing::debug!(%error, "could not make the process non-dumpable");
    }
}

/// Runs the command and returns its exit code.
pub fn run(args: Args) -> Exit {
    keep_environment_private();
    if args.list_examples {
        return info::list_examples();
    }
    if args.sandbox_check {
        return sandbox_check::run();
    }
    if let Some(name) = &args.example {
        return info::print_example(name);
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    if let Some(Command::Replay(replay)) = &args.command {
        if args.run_options_given() {
            eprintln!(
                "error: massgen replay plays a recording: it takes no question, config, session \
                 or output options\n  help: massgen replay PATH [--speed X | --step] [--display \
                 plain|quiet|tui]"
            );
            return Exit::Config;
        }
        return replay::run(
            replay,
            replay.display.or(args.display),
            args.debug,
            args.no_mouse || replay.no_mouse,
        );
    }
    if let Some(Command::Logs(logs)) = &args.command {
        if args.run_options_given() {
            eprintln!(
                "error: massgen logs reads past runs: it takes no question, config, session or \
                 output options\n  help: massgen logs [summary|list|tools|open] [--json]; to ask \
                 \"logs\" as a question: massgen -- logs"
            );
            return Exit::Config;
        }
        return logs::run(logs, &cwd);
    }
    if args.list_sessions {
        return info::list_sessions(&cwd);
    }
    let command_line_limits = match crate::config::CommandLineLimits::parse(&args.limits) {
        Ok(limits) => limits,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    let (env, mut env_warnings) = Env::load(&cwd);
    let env = env
        .with_command_line_limits(command_line_limits)
        .with_docker_probe(crate::sandbox::docker::daemon_answers);
    // A session shows these with the config's warnings on whichever display it runs
    // (setup::report_warnings); the commands that start none print them now.
    let starts_session = args.command.is_none()
        && args.validate.is_none()
        && args.generate_config.is_none()
        && !(args.local && args.dry_run);
    if !starts_session {
        for warning in env_warnings.drain(..) {
            eprintln!("warning: {warning}");
        }
    }
    if args.local && args.dry_run {
        return match setup::local_config() {
            Ok(yaml) => {
                stdout::write(&yaml);
                Exit::Success
            }
            Err(message) => {
                eprintln!("error: {message}");
                Exit::Config
            }
        };
    }
    if let Some(Command::Serve(serve_args)) = &args.command {
        if args.question.is_some() || args.output_file.is_some() || args.automation {
            eprintln!(
                "error: massgen serve answers HTTP requests: it takes no question, output file \
                 or --automation\n  help: massgen [--config FILE] serve [--port N]"
            );
            return Exit::Config;
        }
        if let Err(message) = serve::refuse_display_flags(&args) {
            eprintln!("error: {message}");
            return Exit::Config;
        }
        return serve::run(&args, serve_args, &cwd, env);
    }
    if let Some(Command::Eval(eval_args)) = &args.command {
        if args.question.is_some() || args.output_file.is_some() || args.automation {
            eprintln!(
                "error: massgen eval asks a dataset's questions: it takes no question, output \
                 file or --automation\n  help: massgen eval DATASET --config A.yaml [--config \
                 B.yaml …]"
            );
            return Exit::Config;
        }
        return eval::run(&args, eval_args, &cwd, env);
    }
    if let Some(target) = &args.validate {
        return info::validate(target, &cwd, &env, args.allow_outside_project);
    }
    if let Some(path) = &args.generate_config {
        return generate_config::run(&args, path, &cwd, &env);
    }
    // Checked before anything is spent on a turn whose answer could not be written.
    if let Some(path) = &args.output_file
        && let Err(message) = output_file::check(path)
    {
        eprintln!("error: --output-file {message}");
        return Exit::Config;
    }
    if args.quickstart && !tui_session::on_a_terminal() {
        eprintln!(
            "  help: --quickstart sets agents up in the full-screen app; without a terminal, \
             massgen --generate-config PATH writes a config from the keys that are set"
        );
        return Exit::Config;
    }
    let prepared = if args.quickstart {
        match quickstart::prepare(&args, &env) {
            Ok(mut prepared) => {
                prepared.warnings = env_warnings;
                Ok(prepared)
            }
            Err(message) => {
                setup::print_warnings(&env_warnings, env_warnings.len(), "");
                Err(message)
            }
        }
    } else {
        setup::prepare(&args, &cwd, &env, env_warnings)
    };
    let mut prepared = match prepared {
        Ok(prepared) => prepared,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    if prepared.is_demo && !args.automation {
        prepared.local_hint = setup::local_models_hint(&env);
    }
    if let Some(question) = &args.question
        && let Err(message) = question_input::prepare(
            question,
            &cwd,
            &prepared.config.limits,
            args.allow_outside_project,
            args.execute_plan.is_some(),
        )
    {
        eprintln!("error: {message}");
        return Exit::Config;
    }
    let front_end = if args.automation {
        FrontEnd::Automation
    } else if args.quickstart {
        FrontEnd::Tui
    } else {
        front_end::choose(
            args.display,
            prepared.config.ui.display,
            front_end::on_terminal(),
        )
    };
    let run_dir = prepared
        .open_run_logs(&args, &cwd)
        .map(|dir| dir.root().to_path_buf());
    let _log_guard = logging::init(
        args.debug,
        front_end == FrontEnd::Tui,
        run_dir.as_deref(),
        &prepared.redactor,
    );
    setup::report_warnings(&prepared, front_end == FrontEnd::Tui);
    if front_end == FrontEnd::Tui {
        run_async(tui_session::run(prepared, args, cwd))
    } else {
        run_async(plain_session::run(prepared, args, cwd, front_end))
    }
}

/// Runs `session` on a fresh single-thread runtime and returns its exit code.
///
/// One thread runs the front end and every agent: their work is waiting on the network and
/// the clock, and a frame or an event takes microseconds. Blocking work (files, commands)
/// still goes to tokio's blocking threads. A second and third worker thread would add their
/// stacks, malloc arenas and the work-stealing scheduler's code to every run's memory
/// (issue 17's footprint) and buy nothing at this load. `massgen serve`, which answers many
/// clients at once, keeps a multi-thread runtime (src/cli/serve.rs).
fn run_async(session: impl Future<Output = Exit> + Send + 'static) -> Exit {
    let runtime = match runtime::current_thread() {
        Ok(runtime) => runtime,
        Err(exit) => return exit,
    };
    let exit =
        runtime.block_on(async move { tokio::spawn(session).await.unwrap_or(Exit::Execution) });
    // The session has awaited every task it started; only a read of standard input that
    // will never finish may remain, and waiting for it would hang the exit.
    runtime.shutdown_background();
    // Commands agents started die with massgen, whichever way the session ended.
    crate::sandbox::end_all_commands();
    exit
}
