//! One running Python worker: started confined by the sandbox, its tools loaded, then one
//! call at a time over JSON lines (requests on its stdin, chunks and replies on its
//! stdout); its stderr (the tools' own prints) is kept as a short tail for messages.

use std::path::PathBuf;

use serde::Deserialize;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout};

use crate::sandbox::{Launch, Mode, Plan, Running};
use crate::sanitize::escape_for_terminal;
use crate::stderr_tail::StderrTail;

/// The longest line the worker may send (a reply holds the whole result).
const MAX_LINE: usize = 4 * 1024 * 1024;
/// The most of a result given to the model, as for MCP results.
pub const MAX_OUTPUT: usize = 1024 * 1024;
/// Lines of the worker's stderr kept for messages.
const STDERR_LINES: usize = 20;

/// How to start a worker, again after a crash.
#[derive(Clone, Debug)]
pub struct Spec {
    pub program: PathBuf,
    pub script: PathBuf,
    pub cwd: PathBuf,
    pub plan: Plan,
    pub env: Vec<(&'static str, std::ffi::OsString)>,
    /// The `load` request, sent first.
    pub load: serde_json::Value,
}

/// One tool as the worker loaded it, or why it could not.
#[derive(Clone, Debug, Deserialize)]
pub struct Loaded {
    pub offered: String,
    pub ok: bool,
    #[serde(default)]
    pub schema: serde_json::Value,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub r#where: Option<String>,
}

#[derive(Deserialize)]
struct LoadReply {
    tools: Vec<Loaded>,
}

#[derive(Deserialize)]
struct CallLine {
    id: Option<u64>,
    #[serde(default)]
    chunk: Option<String>,
    #[serde(default)]
    ok: Option<bool>,
    #[serde(default)]
    output: Option<String>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    r#where: Option<String>,
}

/// A call's reply: the result, or the tool's exception with where it was raised.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Done(String),
    Raised(String),
}

pub struct Worker {
    running: Running,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    stderr: StderrTail,
    next_id: u64,
}

impl Worker {
    /// Starts the worker and loads its tools.
    pub async fn start(spec: &Spec) -> Result<(Self, Vec<Loaded>), String> {
        let launch = Launch {
            program: spec.program.display().to_string(),
            args: vec![
                "-B".into(),
                spec.script.display().to_string(),
                "serve".into(),
            ],
            cwd: spec.cwd.clone(),
            env: spec.env.clone(),
            extra_env: Vec::new(),
        };
        let mut running = launch
            .start_piped(spec.plan.clone(), Mode::from_env())
            .await
            .map_err(|error| format!("the Python tool worker could not start: {error}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (
            running.child.stdin.take(),
            running.child.stdout.take(),
            running.child.stderr.take(),
        ) else {
            return Err("the Python tool worker started without its pipes".into());
        };
        let tail = StderrTail::new(STDERR_LINES);
        tokio::spawn(tail.clone().drain(stderr, |line| {
            tracing::debug!(line = %escape_for_terminal(line), "python tool worker stderr");
        }));
        let mut worker = Self {
            running,
            stdin,
            stdout: BufReader::new(stdout),
            stderr: tail,
            next_id: 0,
        };
        worker.send(&spec.load).await?;
        let line = worker.line().await?;
        let reply: LoadReply = serde_json::from_slice(&line)
            .map_err(|error| format!("the Python tool worker answered `load` oddly: {error}"))?;
        Ok((worker, reply.tools))
    }

    /// Runs one call; `Err` when the worker died or broke the protocol.
    pub async fn call(
        &mut self,
        name: &str,
        arguments: serde_json::Value,
    ) -> Result<Reply, String> {
        self.next_id += 1;
        let id = self.next_id;
        let request =
            serde_json::json!({"op": "call", "id": id, "name": name, "arguments": arguments});
        self.send(&request).await?;
        loop {
            let line = self.line().await?;
            let reply: CallLine = serde_json::from_slice(&line).map_err(|error| {
                format!("the Python tool worker sent a line that is not its protocol ({error})")
            })?;
            if reply.id != Some(id) {
                continue;
            }
            if let Some(chunk) = reply.chunk {
                tracing::debug!(tool = name, bytes = chunk.len(), "custom tool chunk");
                continue;
            }
            return Ok(match reply.ok {
                Some(true) => Reply::Done(bounded(reply.output.unwrap_or_default())),
                Some(false) | None => Reply::Raised(match reply.r#where {
                    Some(place) => format!(
                        "{} (at {place})",
                        reply.error.unwrap_or_else(|| "an error".into())
                    ),
                    None => reply.error.unwrap_or_else(|| "an error".into()),
                }),
            });
        }
    }

    /// The last lines the worker wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        escape_lines(&self.stderr.lines())
    }

    /// Kills the worker and everything it started.
    pub fn stop(mut self) {
        self.running.end();
    }

    async fn send(&mut self, request: &serde_json::Value) -> Result<(), String> {
        let mut line = request.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|_| self.gone())?;
        self.stdin.flush().await.map_err(|_| self.gone())
    }

    async fn line(&mut self) -> Result<Vec<u8>, String> {
        match read_bounded_line(&mut self.stdout, MAX_LINE).await {
            Ok(Some(line)) => Ok(line),
            Ok(None) | Err(_) => Err(self.gone()),
        }
    }

    fn gone(&mut self) -> String {
        let status = self.running.child.try_wait().ok().flatten().map_or_else(
            || "its output ended".to_string(),
            |status| status.to_string(),
        );
        let tail = self.stderr_tail();
        if tail.is_empty() {
            format!("the Python tool worker stopped ({status})")
        } else {
            format!("the Python tool worker stopped ({status}); its last output:\n{tail}")
        }
    }
}

/// The result, cut at [`MAX_OUTPUT`] bytes (on a character boundary) with a note.
fn bounded(mut output: String) -> String {
    if output.len() <= MAX_OUTPUT {
        return output;
    }
    let mut cut = MAX_OUTPUT;
    while !output.is_char_boundary(cut) {
        cut -= 1;
    }
    output.truncate(cut);
    output.push_str("\n[… the tool's result was cut at 1 MiB]");
    output
}

/// One line without its newline; `None` at the end; an error past `max` bytes.
async fn read_bounded_line(
    reader: &mut (impl AsyncBufRead + Unpin),
    max: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok((!line.is_empty()).then_some(line));
        }
        let (taken, done) = match buffer.iter().position(|byte| *byte == b'\n') {
            Some(end) => (end + 1, true),
            None => (buffer.len(), false),
        };
        line.extend_from_slice(&buffer[..taken]);
        reader.consume(taken);
        if line.len() > max {
            return Err(std::io::Error::other("line too long"));
        }
        if done {
            line.pop();
            return Ok(Some(line));
        }
    }
}

/// Lines a child wrote, each escaped for the terminal (it may hold control bytes).
fn escape_lines(lines: &[String]) -> String {
    lines
        .iter()
        .map(|line| escape_for_terminal(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_are_read_whole_and_bounded() {
        let mut reader = BufReader::new(&b"{\"a\":1}\nsecond\nlast"[..]);
        assert_eq!(
            read_bounded_line(&mut reader, 100).await.unwrap().unwrap(),
            b"{\"a\":1}"
        );
        assert_eq!(
            read_bounded_line(&mut reader, 100).await.unwrap().unwrap(),
            b"second"
        );
        assert_eq!(
            read_bounded_line(&mut reader, 100).await.unwrap().unwrap(),
            b"last"
        );
        assert!(read_bounded_line(&mut reader, 100).await.unwrap().is_none());
        let mut long = BufReader::new(&b"0123456789\n"[..]);
        assert!(read_bounded_line(&mut long, 5).await.is_err());
    }

    #[test]
    fn a_result_is_cut_on_a_character_boundary() {
        let output = "é".repeat(MAX_OUTPUT);
        let cut = bounded(output);
        assert!(cut.len() <= MAX_OUTPUT + 60);
        assert!(cut.ends_with("cut at 1 MiB]"));
    }
}
