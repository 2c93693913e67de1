//! The stdio transport of massgen's MCP client: the server as a child process speaking
//! newline-delimited JSON-RPC on its stdin and stdout, its stderr kept to explain a crash.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Child;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::config::Secret;
use crate::mcp::client::McpError;
use crate::mcp::jsonrpc::{self, Incoming};
use crate::mcp::waiters::Waiters;
use crate::stderr_tail::{StderrTail, read_line_capped};

/// Variables a stdio server gets from massgen's environment (the MCP SDKs' defaults, plus
/// what Node and Python need to find their installs).
const INHERITED_ENV: [&str; 10] = [
    "HOME",
    "LOGNAME",
    "PATH",
    "SHELL",
    "TERM",
    "USER",
    "LANG",
    "TMPDIR",
    "NODE_PATH",
    "VIRTUAL_ENV",
];

/// Lines of a server's stderr kept to explain why it stopped.
const STDERR_LINES: usize = 5;
/// The longest message read from a server; a longer line is skipped.
pub const MAX_LINE: usize = 16 << 20;
/// After its stdin closes, how long the server has to exit, then again after SIGTERM.
const EXIT_GRACE: Duration = Duration::from_secs(3);
const TERM_GRACE: Duration = Duration::from_secs(2);

/// A running stdio server; dropping it kills the process.
pub struct StdioConnection {
    outbox: mpsc::UnboundedSender<Value>,
    waiters: Arc<Waiters>,
    child: tokio::sync::Mutex<Option<Child>>,
    stderr: Option<StderrTail>,
    reader: JoinHandle<()>,
    writer: JoinHandle<()>,
}

impl Drop for StdioConnection {
    fn drop(&mut self) {
        self.reader.abort();
        self.writer.abort();
    }
}

impl StdioConnection {
    /// Starts `command` with a few basics of our environment and the server's own `env`
    /// (never the API keys massgen itself holds), as the MCP SDKs do.
    pub fn spawn(
        server: &str,
        command: &str,
        args: &[String],
        env: &[(String, Secret)],
        cwd: Option<&std::path::Path>,
    ) -> Result<Self, McpError> {
        let spawn_error = |reason: String| McpError::Spawn {
            command: command.to_owned(),
            reason,
        };
        let mut cmd = tokio::process::Command::new(command);
        cmd.env_clear()
            .envs(
                INHERITED_ENV
                    .iter()
                    .filter_map(|name| std::env::var_os(name).map(|value| (*name, value))),
            )
            .args(args)
            .envs(env.iter().map(|(name, value)| (name, value.expose())))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(cwd) = cwd {
            if !cwd.is_dir() {
                return Err(spawn_error(format!(
                    "its working directory `{}` does not exist",
                    cwd.display()
                )));
            }
            cmd.current_dir(cwd);
        }
        let mut child = cmd
            .spawn()
            .map_err(|error| spawn_error(describe_spawn_error(&error)))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(spawn_error("its stdin or stdout could not be piped".into()));
        };
        let tail = StderrTail::new(STDERR_LINES);
        if let Some(stderr) = child.stderr.take() {
            let server = server.to_owned();
            tokio::spawn(tail.clone().drain(stderr, move |line| {
                tracing::debug!(target: "massgen::mcp", server = %server, "{line}");
            }));
        }
        let mut connection = Self::over(stdout, stdin, MAX_LINE);
        connection.child = tokio::sync::Mutex::new(Some(child));
        connection.stderr = Some(tail);
        Ok(connection)
    }

    /// JSON-RPC over any pair of streams, reading lines of at most `max_line` bytes.
    pub fn over(
        input: impl AsyncRead + Send + Unpin + 'static,
        output: impl AsyncWrite + Send + Unpin + 'static,
        max_line: usize,
    ) -> Self {
        let waiters = Arc::new(Waiters::default());
        let (outbox, queued) = mpsc::unbounded_channel();
        let writer = tokio::spawn(write_messages(output, queued, Arc::clone(&waiters)));
        let reader = tokio::spawn(read_messages(
            input,
            max_line,
            Arc::clone(&waiters),
            outbox.clone(),
        ));
        Self {
            outbox,
            waiters,
            child: tokio::sync::Mutex::new(None),
            stderr: None,
            reader,
            writer,
        }
    }

    /// Sends a request and waits for its response; dropping the future abandons it.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, McpError> {
        let Some(waiter) = self.waiters.register() else {
            return Err(self.closed().await);
        };
        if self
            .outbox
            .send(jsonrpc::request(waiter.id, method, params))
            .is_err()
        {
            return Err(self.closed().await);
        }
        match waiter.answer().await {
            Some(Ok(result)) => Ok(result),
            Some(Err(error)) => Err(McpError::Protocol(error.message)),
            None => Err(self.closed().await),
        }
    }

    pub async fn notify(&self, method: &str) -> Result<(), McpError> {
        if self.waiters.is_closed() || self.outbox.send(jsonrpc::notification(method)).is_err() {
            return Err(self.closed().await);
        }
        Ok(())
    }

    /// Closes the server's stdin and gives it a moment to exit; then SIGTERM, then kill.
    pub async fn close(&self) {
        self.waiters.close();
        self.writer.abort();
        let child = self.child.lock().await.take();
        if let Some(child) = child {
            stop(child).await;
        }
    }

    async fn closed(&self) -> McpError {
        let last_output = match &self.stderr {
            Some(tail) => tail.last_line_after_exit().await,
            None => None,
        };
        McpError::Closed { last_output }
    }
}

async fn stop(mut child: Child) {
    if tokio::time::timeout(EXIT_GRACE, child.wait()).await.is_ok() {
        return;
    }
    let pid = child
        .id()
        .and_then(|pid| i32::try_from(pid).ok())
        .and_then(rustix::process::Pid::from_raw);
    if let Some(pid) = pid {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        if tokio::time::timeout(TERM_GRACE, child.wait()).await.is_ok() {
            return;
        }
    }
    if let Err(error) = child.kill().await {
        tracing::debug!(target: "massgen::mcp", %error, "stopping the server failed");
    }
}

/// Writes each queued message as one line; a failed write ends the session.
async fn write_messages(
    mut output: impl AsyncWrite + Unpin,
    mut queued: mpsc::UnboundedReceiver<Value>,
    waiters: Arc<Waiters>,
) {
    while let Some(message) = queued.recv().await {
        tracing::trace!(target: "massgen::mcp::jsonrpc", "sending {message}");
        let mut line = message.to_string();
        line.push('\n');
        let written = async {
            output.write_all(line.as_bytes()).await?;
            output.flush().await
        };
        if let Err(error) = written.await {
            tracing::debug!(target: "massgen::mcp", %error, "writing to the server failed");
            waiters.close();
            return;
        }
    }
}

/// Reads the server's lines until it hangs up: responses go to their waiters, requests
/// are answered, anything else is logged and skipped.
async fn read_messages(
    input: impl AsyncRead + Unpin,
    max_line: usize,
    waiters: Arc<Waiters>,
    outbox: mpsc::UnboundedSender<Value>,
) {
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        let consumed = match read_line_capped(&mut reader, &mut line, max_line).await {
            Ok(0) | Err(_) => break,
            Ok(consumed) => consumed,
        };
        if consumed > line.len() {
            tracing::warn!(
                target: "massgen::mcp",
                bytes = consumed,
                "skipped a message from the server longer than {max_line} bytes"
            );
            continue;
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        let message = match serde_json::from_slice::<Value>(&line) {
            Ok(message) => message,
            Err(error) => {
                tracing::debug!(target: "massgen::mcp", %error, "a line that is not JSON-RPC");
                continue;
            }
        };
        for message in jsonrpc::split_batch(message) {
            match jsonrpc::classify(message) {
                Incoming::Response { id, outcome } => waiters.deliver(id, outcome),
                Incoming::Request { reply } => {
                    let _ = outbox.send(reply);
                }
                Incoming::Ignored => {}
            }
        }
    }
    waiters.close();
}

fn describe_spawn_error(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => {
            "no such program (check `command` in the config and that it is installed)".into()
        }
        std::io::ErrorKind::PermissionDenied => "permission denied (is it executable?)".into(),
        _ => error.to_string(),
    }
}

#[cfg(test)]
#[path = "client_stdio_tests.rs"]
mod tests;
