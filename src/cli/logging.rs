//! Where tracing goes: `massgen.log` (`massgen_debug.log` under `--debug`) in the run's log
//! directory, written from a background thread so a slow disk never stalls a frame or an
//! event; and standard error under `--debug` with a line-based display. Nothing reaches
//! the screen while the full-screen display owns it.

use std::path::Path;

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The log file's name in the run's log directory: MassGen's, with and without `--debug`.
pub fn log_file_name(debug: bool) -> &'static str {
    if debug {
        "massgen_debug.log"
    } else {
        "massgen.log"
    }
}

/// Installs the subscriber: info from massgen and warnings from dependencies (debug from
/// massgen with `--debug`; `RUST_LOG` overrides) into the run's log file when there is a
/// log directory, and to standard error under `--debug` unless `full_screen`. Keep the
/// guard until exit: dropping it flushes the file.
pub fn init(debug: bool, full_screen: bool, run_dir: Option<&Path>) -> Option<WorkerGuard> {
    let to_stderr = debug && !full_screen;
    if run_dir.is_none() && !to_stderr {
        return None;
    }
    let default = if debug {
        "warn,massgen=debug"
    } else {
        "warn,massgen=info"
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let (file, guard) = match run_dir {
        Some(dir) => {
            let appender = tracing_appender::rolling::never(dir, log_file_name(debug));
            let (writer, guard) = tracing_appender::non_blocking(appender);
            let layer = tracing_subscriber::fmt::layer()
                .with_writer(writer)
                .with_ansi(false);
            (Some(layer), Some(guard))
        }
        None => (None, None),
    };
    let stderr = to_stderr.then(|| tracing_subscriber::fmt::layer().with_writer(std::io::stderr));
    tracing_subscriber::registry()
        .with(filter)
        .with(file)
        .with(stderr)
        .try_init()
        .ok()?;
    guard
}
