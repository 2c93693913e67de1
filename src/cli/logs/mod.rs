//! `massgen logs summary|list|tools|approvals|open [--json]`: what past runs did, read from their log
//! directories (MassGen's `massgen logs`). Nothing here calls a model.

mod approvals;
mod find;
mod list;
mod open;
mod summary;
mod tools;

use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};

use super::exit::Exit;

#[derive(Clone, Debug, clap::Args)]
pub struct LogsArgs {
    #[command(subcommand)]
    pub action: Option<LogsAction>,

    /// A run's log directory (`.massgen/massgen_logs/log_…`) or one of its turn or attempt
    /// directories; the newest run's last turn when left out.
    #[arg(long, value_name = "PATH", global = true)]
    pub log_dir: Option<PathBuf>,

    /// Machine-readable output.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Clone, Debug, Subcommand)]
pub enum LogsAction {
    /// The question, winner, duration, tokens and cost per agent, and errors of a run
    /// (the default).
    Summary,
    /// The newest runs, one line each.
    List {
        /// How many runs.
        #[arg(long, default_value_t = 10)]
        limit: usize,
    },
    /// Calls, failures and time per tool.
    Tools {
        /// Order by total time or by number of calls.
        #[arg(long, value_enum, default_value_t = ToolOrder::Time)]
        sort: ToolOrder,
    },
    /// Every tool-approval decision of the run's turns (or of the turn `--log-dir` names):
    /// time, turn, agent, decision, who decided, scope, the call, the rule or message.
    Approvals,
    /// Open the log directory in the file manager, else in $VISUAL / $EDITOR.
    Open,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToolOrder {
    Time,
    Calls,
}

/// Runs `massgen logs …` in `cwd` and returns its exit code.
pub fn run(args: &LogsArgs, cwd: &Path) -> Exit {
    let logs_root = find::logs_root(cwd);
    let outcome = match args.action.clone().unwrap_or(LogsAction::Summary) {
        LogsAction::List { limit } => list::run(&logs_root, limit, args.json),
        LogsAction::Summary => find::attempt(args.log_dir.as_deref(), &logs_root)
            .and_then(|attempt| summary::run(&attempt, args.json)),
        LogsAction::Tools { sort } => find::attempt(args.log_dir.as_deref(), &logs_root)
            .and_then(|attempt| tools::run(&attempt, sort, args.json)),
        LogsAction::Approvals => find::run_dir(args.log_dir.as_deref(), &logs_root)
            .and_then(|dir| approvals::run(&dir, args.json)),
        LogsAction::Open => find::run_dir(args.log_dir.as_deref(), &logs_root)
            .and_then(|dir| open::run(&dir, args.json)),
    };
    match outcome {
        Ok(text) => {
            super::stdout::write(&text);
            Exit::Success
        }
        Err(message) => {
            eprintln!("error: {message}");
            Exit::Config
        }
    }
}

/// `value` as pretty JSON, with a final newline.
fn json_text(value: &serde_json::Value) -> Result<String, String> {
    let text = serde_json::to_string_pretty(value).map_err(|error| error.to_string())?;
    Ok(text + "\n")
}

/// `ms` the way people read durations: `850 ms`, `6.6 s`, `2.5 min`.
fn duration(ms: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let ms_f = ms as f64;
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        format!("{:.1} s", ms_f / 1000.0)
    } else {
        format!("{:.1} min", ms_f / 60_000.0)
    }
}

/// A cost in dollars, or `unknown` when some price was.
fn cost(usd: Option<f64>) -> String {
    usd.map_or_else(|| "cost unknown".to_string(), |usd| format!("${usd:.4}"))
}
