//! One start of an agent CLI: its config files written, the program started confined (its
//! writes kept to the workspace and its own home) in a process group of its own, its
//! stdout read a line at a time and its stderr drained into the debug log. Dropping the
//! process kills the whole group.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::ChildStdout;

use super::dialect::CommandPlan;
use crate::sandbox::{self, Mode, Plan, Running};
use crate::stderr_tail::{StderrTail, read_line_capped};

/// A stdout line longer than this is cut (a CLI may print a whole file in one event).
const MAX_LINE: usize = 8 * 1024 * 1024;

/// stderr lines kept to explain a failed start.
const STDERR_KEPT: usize = 20;

/// What one start needs besides the dialect's plan.
pub struct Start<'a> {
    pub program: &'a Path,
    /// Where it runs (`workspace`) and what it may touch.
    pub confinement: Plan,
    pub home: &'a Path,
    /// The environment the CLI gets (the user's, less other providers' keys).
    pub env: Vec<(String, OsString)>,
    /// The label for its stderr lines in the debug log (`agent_a claude`).
    pub label: String,
}

pub struct CliProcess {
    running: Running,
    stdout: BufReader<ChildStdout>,
    stderr: StderrTail,
    line: Vec<u8>,
}

impl CliProcess {
    pub async fn start(start: Start<'_>, plan: &CommandPlan) -> Result<Self, String> {
        for dir in [start.home, start.confinement.workspace.as_path()] {
            std::fs::create_dir_all(dir)
                .map_err(|error| format!("cannot make {}: {error}", dir.display()))?;
        }
        for (path, content) in &plan.files {
            write_file(path, content)?;
        }
        let mut env = start.env;
        env.extend(
            plan.env
                .iter()
                .map(|(name, value)| (name.clone(), OsString::from(value))),
        );
        let launch = sandbox::Launch {
            program: start.program.display().to_string(),
            args: plan.args.clone(),
            cwd: start.confinement.workspace.clone(),
            env: Vec::new(),
            extra_env: env,
        };
        let mut running = launch
            .start_piped(start.confinement, Mode::from_env())
            .await
            .map_err(|error| error.to_string())?;
        if let Some(mut stdin) = running.child.stdin.take() {
            let text = plan.stdin.clone().unwrap_or_default();
            tokio::spawn(async move {
                let _ = stdin.write_all(text.as_bytes()).await;
                let _ = stdin.shutdown().await;
            });
        }
        let stdout = running
            .child
            .stdout
            .take()
            .ok_or_else(|| "the CLI's stdout was not piped".to_string())?;
        let stderr = StderrTail::new(STDERR_KEPT);
        if let Some(pipe) = running.child.stderr.take() {
            let label = start.label;
            tokio::spawn(stderr.clone().drain(pipe, move |line| {
                tracing::debug!(target: "massgen::agent_cli", "{label}: {line}");
            }));
        }
        Ok(Self {
            running,
            stdout: BufReader::new(stdout),
            stderr,
            line: Vec::new(),
        })
    }

    /// The next line of stdout, or `None` at its end.
    pub async fn next_line(&mut self) -> Option<String> {
        self.line.clear();
        match read_line_capped(&mut self.stdout, &mut self.line, MAX_LINE).await {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(String::from_utf8_lossy(&self.line).trim_end().to_string()),
        }
    }

    /// Waits for the CLI to exit; `Err` with its last stderr lines when it failed.
    pub async fn finish(&mut self) -> Result<(), String> {
        let status = self
            .running
            .child
            .wait()
            .await
            .map_err(|error| format!("lost track of the CLI: {error}"))?;
        if status.success() {
            return Ok(());
        }
        let _ = self.stderr.last_line_after_exit().await;
        let tail = self.stderr.lines();
        let why = tail
            .iter()
            .rev()
            .take(3)
            .rev()
            .cloned()
            .collect::<Vec<_>>()
            .join(" | ");
        Err(match status.code() {
            Some(code) if why.is_empty() => format!("it exited with status {code}"),
            Some(code) => format!("it exited with status {code}: {why}"),
            None => "it was killed by a signal".to_string(),
        })
    }
}

fn write_file(path: &PathBuf, content: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|error| format!("cannot make {}: {error}", parent.display()))?;
    }
    std::fs::write(path, content)
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}
