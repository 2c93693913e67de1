//! Where tracing goes: standard error under `--debug` with a line-based display; a log
//! file while the full-screen display owns the terminal, written from a background thread
//! so a slow disk never stalls a frame.

use std::path::Path;

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;

/// The log file of a full-screen session, under the project's `.massgen` directory.
pub const LOG_FILE: &str = "massgen.log";

/// Installs the subscriber. Under the TUI, warnings and above always go to
/// `.massgen/massgen.log` (debug with `--debug`) unless logs are off; `RUST_LOG`
/// overrides the level. Keep the guard until exit: dropping it flushes the file.
pub fn init(debug: bool, full_screen: bool, logs_allowed: bool, cwd: &Path) -> Option<WorkerGuard> {
    let filter = |default: &str| {
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default))
    };
    if full_screen {
        if !(logs_allowed || debug) {
            return None;
        }
        let dir = cwd.join(".massgen");
        std::fs::create_dir_all(&dir).ok()?;
        let (writer, guard) =
            tracing_appender::non_blocking(tracing_appender::rolling::never(dir, LOG_FILE));
        let level = if debug {
            "massgen=debug"
        } else {
            "massgen=warn"
        };
        tracing_subscriber::fmt()
            .with_writer(writer)
            .with_ansi(false)
            .with_env_filter(filter(level))
            .try_init()
            .ok()?;
        return Some(guard);
    }
    if debug {
        let _ = tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_env_filter(filter("massgen=debug"))
            .try_init();
    }
    None
}
