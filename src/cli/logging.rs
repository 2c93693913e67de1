//! Where tracing goes: `massgen.log` (`massgen_debug.log` under `--debug`) in the run's log
//! directory, written from a background thread so a slow disk never stalls a frame or an
//! event; and standard error under `--debug` with a line-based display. Nothing reaches
//! the screen while the full-screen display owns it. Every line has the run's secrets
//! replaced before it is written.

use std::io::{self, Write};
use std::path::Path;

use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use crate::redact::Redactor;

/// The log file's name in the run's log directory: MassGen's, with and without `--debug`.
pub fn log_file_name(debug: bool) -> &'static str {
    if debug {
        "massgen_debug.log"
    } else {
        "massgen.log"
    }
}

/// Log lines queued for the writer thread at most. tracing-appender allocates and touches
/// its whole queue up front, 32 bytes a line: its default, 128,000, was 4 MB, the largest
/// part of a demo run's memory; 1,024 is 32 KB. Lines queue only while the disk is slower
/// than massgen logs (a turn logs a few lines a second); past this many they are dropped
/// rather than stall a frame (as they were past 128,000).
pub const LOG_LINES_BUFFERED: usize = 1024;

/// Installs the subscriber: info from massgen and warnings from dependencies (debug from
/// massgen with `--debug`; `RUST_LOG` overrides) into the run's log file when there is a
/// log directory, and to standard error under `--debug` unless `full_screen`. Keep the
/// guard until exit: dropping it flushes the file.
pub fn init(
    debug: bool,
    full_screen: bool,
    run_dir: Option<&Path>,
    redactor: &Redactor,
) -> Option<WorkerGuard> {
    let to_stderr = debug && !full_screen;
    if run_dir.is_none() && !to_stderr {
        return None;
    }
    let default = if debug {
        "warn,massgen=debug"
    } else {
        "warn,massgen=info"
    };
    let filter = log_filter(std::env::var("RUST_LOG").ok().as_deref(), default);
    let (file, guard) = match run_dir {
        Some(dir) => {
            let appender = tracing_appender::rolling::never(dir, log_file_name(debug));
            let (writer, guard) = NonBlockingBuilder::default()
                .buffered_lines_limit(LOG_LINES_BUFFERED)
                .finish(appender);
            let layer = tracing_subscriber::fmt::layer()
                .with_writer(Redacting::new(writer, redactor))
                .with_ansi(false);
            (Some(layer), Some(guard))
        }
        None => (None, None),
    };
    let stderr = to_stderr.then(|| {
        tracing_subscriber::fmt::layer().with_writer(Redacting::new(std::io::stderr, redactor))
    });
    tracing_subscriber::registry()
        .with(filter)
        .with(file)
        .with(stderr)
        .try_init()
        .ok()?;
    guard
}

/// `RUST_LOG`'s `target=level` list (or a bare level), as `tracing` reads it; unset, empty
/// or not such a list, the `default`.
fn log_filter(rust_log: Option<&str>, default: &str) -> Targets {
    rust_log
        .filter(|directives| !directives.trim().is_empty())
        .and_then(|directives| directives.parse().ok())
        .unwrap_or_else(|| default.parse().unwrap_or_default())
}

/// A writer maker whose writers replace secrets. The formatter hands each event over in
/// one `write`, so a secret is never split between two calls.
struct Redacting<M> {
    inner: M,
    redactor: Redactor,
}

impl<M> Redacting<M> {
    fn new(inner: M, redactor: &Redactor) -> Self {
        Self {
            inner,
            redactor: redactor.clone(),
        }
    }
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Redacting<M> {
    type Writer = RedactingWriter<'a, M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter {
            inner: self.inner.make_writer(),
            redactor: &self.redactor,
        }
    }
}

struct RedactingWriter<'a, W> {
    inner: W,
    redactor: &'a Redactor,
}

impl<W: Write> Write for RedactingWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.redactor.is_empty() {
            return self.inner.write(buf);
        }
        let text = String::from_utf8_lossy(buf);
        self.inner
            .write_all(self.redactor.redact(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::Level;

    #[test]
    fn rust_log_sets_levels_by_target_or_falls_back_to_the_default() {
        let default = "warn,massgen=info";
        let from = |rust_log| log_filter(rust_log, default);
        assert!(from(None).would_enable("massgen::cli", &Level::INFO));
        assert!(!from(None).would_enable("massgen::cli", &Level::DEBUG));
        assert!(!from(None).would_enable("reqwest", &Level::INFO));
        let debug = from(Some("massgen=debug,massgen::mcp::jsonrpc=trace"));
        assert!(debug.would_enable("massgen::tui", &Level::DEBUG));
        assert!(debug.would_enable("massgen::mcp::jsonrpc", &Level::TRACE));
        assert!(!debug.would_enable("hyper", &Level::ERROR));
        assert!(from(Some("trace")).would_enable("anything", &Level::TRACE));
        for unusable in [Some(""), Some("  "), Some("massgen=loud")] {
            assert!(!from(unusable).would_enable("massgen::cli", &Level::DEBUG));
            assert!(from(unusable).would_enable("massgen::cli", &Level::INFO));
        }
    }

    #[test]
    fn written_lines_lose_their_secrets() {
        let redactor = Redactor::new(["sk-hostile-secret-42"]);
        let mut out = Vec::new();
        let mut writer = RedactingWriter {
            inner: &mut out,
            redactor: &redactor,
        };
        let line = b"WARN call failed: invalid key sk-hostile-secret-42\n";
        assert_eq!(writer.write(line).unwrap(), line.len());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "WARN call failed: invalid key [REDACTED]\n"
        );
    }
}
