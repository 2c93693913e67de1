//! The command_line server's `execute_command`: one program run without a shell in the
//! workspace, with a cleared environment, confined by the OS sandbox ([`crate::sandbox`]),
//! a timeout that kills it with everything it started, and capped output.

mod capture;
mod mode;
mod screen;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::AsyncRead;

use super::args::{Args, ToolError, ToolResult};
use crate::config::CommandLineConfig;
use crate::sandbox::{Launch, Plan};
use crate::tools::permissions::{Access, PathPolicy, Refusal};

use capture::Capped;
use mode::Executor;
use screen::Screen;

/// How long to keep reading output after the process group is gone.
const DRAIN: Duration = Duration::from_secs(2);
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

pub(super) struct CommandRunner {
    screen: Screen,
    timeout: Duration,
    network: bool,
    executor: Arc<Executor>,
}

/// What runs, where, with which environment.
struct Prepared {
    argv: Vec<String>,
    cwd: PathBuf,
    env: Vec<(&'static str, OsString)>,
    timeout: Duration,
    plan: Plan,
}

impl CommandRunner {
    pub(super) fn new(config: &CommandLineConfig) -> Self {
        Self {
            screen: Screen::new(&config.allowed_commands, &config.blocked_commands),
            timeout: config.timeout,
            network: config.network,
            executor: Arc::new(Executor::new(config.mode.clone())),
        }
    }

    pub(super) async fn run(&self, policy: &Arc<PathPolicy>, args: &Args) -> ToolResult {
        let prepared = {
            let policy = Arc::clone(policy);
            let args = args.clone();
            let screen = self.screen.clone();
            let limit = self.timeout;
            let network = self.network;
            let executor = Arc::clone(&self.executor);
            tokio::task::spawn_blocking(move || {
                let mut prepared = prepare(&screen, limit, network, &policy, &args)?;
                executor.adjust(&mut prepared.plan);
                Ok(prepared)
            })
            .await
            .unwrap_or_else(|error| {
                Err(ToolError::Failed(format!(
                    "The command could not be prepared ({error})."
                )))
            })?
        };
        execute(&self.executor, prepared).await
    }
}

fn prepare(
    screen: &Screen,
    limit: Duration,
    network: bool,
    policy: &PathPolicy,
    args: &Args,
) -> Result<Prepared, ToolError> {
    let command = args.str("command")?;
    if command.trim().is_empty() {
        return Err(ToolError::Failed(
            "`command` is empty; give one command to run.".into(),
        ));
    }
    if let Some(found) = screen::shell_syntax(command) {
        return Err(ToolError::Failed(screen::shell_syntax_message(found)));
    }
    if let Some(why) = screen.refuse(command) {
        return Err(ToolError::Failed(why));
    }
    let argv = shell_words::split(command).map_err(|_| {
        ToolError::Failed(
            "The command has a quote that is never closed; close it and run it again.".into(),
        )
    })?;
    if argv.is_empty() {
        return Err(ToolError::Failed(
            "`command` is empty; give one command to run.".into(),
        ));
    }
    let timeout = match args.opt_count("timeout")? {
        Some(seconds) => Duration::from_secs(seconds.max(1)).min(limit),
        None => limit,
    };
    let roots = policy.on_disk();
    let workspace = roots.check(".", Access::Read)?;
    let cwd = match args.opt_str("work_dir")? {
        None => workspace.clone(),
        Some(raw) => {
            let dir = roots.check(raw, Access::Read)?;
            if !roots.in_workspace(&dir) {
                return Err(ToolError::Refused(Refusal {
                    path: raw.to_string(),
                    reason: format!(
                        "`work_dir` must be inside your workspace {}; `{raw}` is not.",
                        workspace.display()
                    ),
                }));
            }
            if !dir.is_dir() {
                return Err(ToolError::Failed(format!(
                    "`work_dir` `{raw}` is not a directory."
                )));
            }
            dir
        }
    };
    screen::check_paths(&roots, &argv, &cwd)?;
    let plan = policy.sandbox_plan(&workspace, network);
    Ok(Prepared {
        argv,
        cwd,
        env: environment(&workspace),
        timeout,
        plan,
    })
}

/// Only what programs need to run; nothing from massgen's own environment (API keys) passes.
fn environment(workspace: &Path) -> Vec<(&'static str, OsString)> {
    let inherited =
        |name: &str, default: &str| std::env::var_os(name).unwrap_or_else(|| default.into());
    let mut path = inherited("PATH", DEFAULT_PATH);
    let venv = workspace.join(".venv");
    let mut env = Vec::new();
    if venv.join("bin").is_dir() {
        let dirs = std::iter::once(venv.join("bin"))
            .chain(std::env::split_paths(&path).collect::<Vec<_>>());
        if let Ok(joined) = std::env::join_paths(dirs) {
            path = joined;
        }
        env.push(("VIRTUAL_ENV", venv.into_os_string()));
    }
    env.push(("PATH", path));
    env.push(("HOME", workspace.as_os_str().to_os_string()));
    env.push(("LANG", inherited("LANG", "C.UTF-8")));
    env.push(("TERM", inherited("TERM", "dumb")));
    env
}

async fn execute(executor: &Executor, prepared: Prepared) -> ToolResult {
    let Prepared {
        argv,
        cwd,
        env,
        timeout,
        plan,
    } = prepared;
    let (program, rest) = match argv.split_first() {
        Some(split) => split,
        None => return Err(ToolError::Failed("`command` is empty.".into())),
    };
    let launch = Launch {
        program: program.clone(),
        args: rest.to_vec(),
        cwd: cwd.clone(),
        env,
        extra_env: Vec::new(),
    };
    let started = Instant::now();
    // Dropped when the call is cancelled: the command and all it started are killed.
    let (mut running, notice) = executor
        .start(launch, plan)
        .await
        .map_err(ToolError::Failed)?;
    let child = running.child();
    let stdout = Arc::new(Mutex::new(Capped::default()));
    let stderr = Arc::new(Mutex::new(Capped::default()));
    let readers = [
        child
            .stdout
            .take()
            .map(|stream| reader(stream, Arc::clone(&stdout))),
        child
            .stderr
            .take()
            .map(|stream| reader(stream, Arc::clone(&stderr))),
    ];
    let status = tokio::time::timeout(timeout, child.wait()).await;
    // Whatever it left behind, in its group or not, goes now.
    running.end().await;
    let status = match status {
        Ok(Ok(status)) => Some(status),
        Ok(Err(error)) => {
            return Err(ToolError::Failed(format!(
                "Waiting for `{program}` failed: {error}."
            )));
        }
        Err(_) => {
            // It was killed above; reap it.
            let _ = running.child().wait().await;
            None
        }
    };
    for mut task in readers.into_iter().flatten() {
        if tokio::time::timeout(DRAIN, &mut task).await.is_err() {
            // A process that left the group still holds the pipe; keep what was read.
            task.abort();
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let report = |headline: String| {
        let show = |capped: &Arc<Mutex<Capped>>| {
            let capped = capped
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if capped.is_empty() {
                "(empty)".to_string()
            } else {
                capped.render()
            }
        };
        let notice = notice
            .as_ref()
            .map(|notice| format!("\n{notice}"))
            .unwrap_or_default();
        format!(
            "{headline}{notice}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            show(&stdout),
            show(&stderr)
        )
    };
    match status {
        None => Err(ToolError::Failed(report(format!(
            "Timed out after {} s; the command and everything it started were killed. Run \
             something shorter, or pass a larger `timeout` (at most {} s).",
            timeout.as_secs(),
            timeout.as_secs()
        )))),
        Some(status) => {
            let headline = format!(
                "{} (took {elapsed:.2} s in {})",
                describe(status),
                cwd.display()
            );
            if status.success() {
                Ok(report(headline))
            } else {
                Err(ToolError::Failed(report(headline)))
            }
        }
    }
}

fn reader(
    stream: impl AsyncRead + Unpin + Send + 'static,
    into: Arc<Mutex<Capped>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(capture::collect(stream, into))
}

fn describe(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code: {code}");
    }
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return format!("killed by signal {signal}");
    }
    "exit code: unknown".to_string()
}
