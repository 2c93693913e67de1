//! One eval item as one fresh, in-process massgen turn (no history), as `serve` runs one
//! request: its own backends, its log directory under the eval's output, and what it
//! used, read from its events.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::backend::{build_backends, secrets};
use crate::config::{Config, Env};
use crate::orchestrator::{self, RuntimeOptions, ToolSetup};
use crate::protocol::{EventMsg, Mode, Op, TurnOptions, TurnOutcome, Usage};
use crate::session::RunLogDir;

/// Where and how turns run.
#[derive(Clone, Debug)]
pub struct TurnSetting {
    pub env: Env,
    /// The agents' project directory (their workspaces, context paths).
    pub project_dir: PathBuf,
    /// Turns log under `<logs>/massgen_logs/`; `None` turns logs off.
    pub logs: Option<PathBuf>,
}

/// What one turn gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnReport {
    pub answer: Option<String>,
    pub usage: Usage,
    /// Summed over the calls whose price is known.
    pub cost_usd: f64,
    pub latency_ms: u64,
    pub log_dir: Option<PathBuf>,
    /// Why there is no answer.
    pub error: Option<String>,
}

/// Runs `question` through `config`'s agents as one turn and waits for its end.
pub async fn run_turn(
    setting: &TurnSetting,
    config: Arc<Config>,
    options: TurnOptions,
    question: &str,
) -> TurnReport {
    let started = Instant::now();
    let mut report = match drive(setting, config, options, question).await {
        Ok(report) => report,
        Err(error) => TurnReport {
            error: Some(error),
            ..TurnReport::default()
        },
    };
    report.latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    report
}

async fn drive(
    setting: &TurnSetting,
    config: Arc<Config>,
    options: TurnOptions,
    question: &str,
) -> Result<TurnReport, String> {
    let backends = build_backends(&config, &setting.env).map_err(|error| error.to_string())?;
    let redactor = secrets::redactor_for(&config, &setting.env);
    let logs = match &setting.logs {
        Some(dir) => Some(RunLogDir::create(dir).map_err(|error| {
            format!(
                "cannot create a log directory under {}: {error}",
                dir.display()
            )
        })?),
        None => None,
    };
    let mut report = TurnReport {
        log_dir: logs.as_ref().map(|dir| dir.root().to_path_buf()),
        ..TurnReport::default()
    };
    let mut handle = orchestrator::spawn(
        config,
        backends,
        ToolSetup::FromConfig {
            project_dir: setting.project_dir.clone(),
        },
        RuntimeOptions {
            logs,
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor,
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: None,
        },
    );
    let submit = Op::Submit {
        text: question.to_string(),
        mode: Mode::Normal,
        context_paths: Vec::new(),
        options,
    };
    let mut outcome = None;
    let mut problem = None;
    if handle.ops.send(submit).await.is_ok() {
        while let Some(event) = handle.events.recv().await {
            match event.msg {
                EventMsg::FinalPresentationDone { content, .. } => report.answer = Some(content),
                EventMsg::Usage {
                    usage, cost_usd, ..
                } => {
                    report.usage += usage;
                    report.cost_usd += cost_usd.unwrap_or(0.0);
                }
                EventMsg::AgentError { message } | EventMsg::Warning { message } => {
                    problem = Some(message);
                }
                EventMsg::TurnFinished { outcome: ended, .. } => {
                    outcome = Some(ended);
                    break;
                }
                _ => {}
            }
        }
    }
    let _ = handle.ops.send(Op::Shutdown).await;
    while handle.events.recv().await.is_some() {}
    let _ = handle.task.await;
    if report.answer.is_none() {
        report.error = Some(match (outcome, problem) {
            (_, Some(problem)) => problem,
            (Some(TurnOutcome::TimedOut), None) => "the turn timed out with no answer".into(),
            (Some(outcome), None) => format!("the turn ended ({outcome:?}) with no answer"),
            (None, None) => "the turn stopped before it finished".into(),
        });
    }
    Ok(report)
}

/// The log directory as results name it: relative to `base` when inside it.
pub fn relative_to(path: &Path, base: &Path) -> PathBuf {
    path.strip_prefix(base).unwrap_or(path).to_path_buf()
}
