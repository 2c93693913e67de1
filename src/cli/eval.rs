//! `massgen eval DATASET --config A.yaml …`: loads the dataset and configs, runs every
//! contender on every item (resuming into the same `--out`), prints the progress and the
//! summary table, and writes `summary.md`, `summary.json` and `chart.svg` beside the results.
//!
//! Each turn logs under `OUT/logs/` (`massgen --no-logs eval …` turns that off: the logs'
//! files are written durably, which costs tens of milliseconds a turn).
//!
//! Exit codes: 0 when every item was answered; 1 for a bad dataset, config or argument;
//! 2 when no answer at all could be had; 3 when `--max-cost` stopped the run early (what
//! was done is summarised, and a rerun with a larger budget finishes it); 4 when stopped in
//! the full-screen display (shown on a terminal unless `--json` or `--plain`; a rerun
//! resumes).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::args::{Args, DisplayArg};
use super::eval_args::EvalArgs;
use super::exit::Exit;
use super::setup;
use crate::config::Env;
use crate::eval::record::{Contender, Item};
use crate::eval::runner::{
    self, EvalGrader, JudgeModel, Lineup, Manifest, NamedConfig, RunOutcome, RunPlan,
};
use crate::eval::score::Scorer;
use crate::eval::{dataset, demo, progress, report, summary};
use crate::protocol::Strategy;
use crate::tui::eval::{EvalEnd, EvalHeader};

pub fn run(args: &Args, eval: &EvalArgs, cwd: &Path, env: Env) -> Exit {
    match prepare(args, eval, cwd, &env) {
        Ok(prepared) => execute(prepared, eval, full_screen(args, eval), cwd, env),
        Err(message) => {
            eprintln!("error: {message}");
            Exit::Config
        }
    }
}

struct Prepared {
    items: Vec<Item>,
    dataset_name: String,
    configs: Vec<NamedConfig>,
    entries: Vec<runner::Entry>,
    run_scorer: Option<Scorer>,
    judge: Option<JudgeModel>,
    out: PathBuf,
    /// `massgen --no-logs eval …` runs the turns without logs.
    logs: bool,
}

fn prepare(args: &Args, eval: &EvalArgs, cwd: &Path, env: &Env) -> Result<Prepared, String> {
    let (mut items, dataset_name) = if demo::is_demo(&eval.dataset) {
        (
            dataset::load_text(demo::DATASET, demo::NAME).map_err(|error| error.to_string())?,
            demo::NAME.to_string(),
        )
    } else {
        let path = cwd.join(&eval.dataset);
        (
            dataset::load(&path).map_err(|error| error.to_string())?,
            eval.dataset.clone(),
        )
    };
    if let Some(limit) = eval.limit {
        items.truncate(limit);
    }
    if items.is_empty() {
        return Err("--limit 0 leaves no item to run".into());
    }
    let run_scorer = eval
        .scorer
        .as_deref()
        .map(|spec| Scorer::parse(spec).map_err(|error| format!("--scorer {spec}: {error}")))
        .transpose()?;
    let mut config_names: Vec<String> = args.config.iter().cloned().collect();
    config_names.extend(eval.configs.iter().cloned());
    let demo_lineup = config_names.is_empty();
    if demo_lineup {
        if !demo::is_demo(&eval.dataset) {
            return Err(
                "massgen eval needs the configs to compare\n  help: massgen eval \
                        DATASET --config A.yaml [--config B.yaml …] (or try massgen eval \
                        @examples/eval-demo)"
                    .into(),
            );
        }
        config_names = demo::CONFIGS.iter().map(ToString::to_string).collect();
    }
    let configs = config_names
        .iter()
        .map(|name| load_config(args, name, cwd, env))
        .collect::<Result<Vec<_>, String>>()?;
    let mut strategies = eval
        .strategies
        .iter()
        .map(|name| {
            Strategy::parse(name).ok_or_else(|| {
                format!("--strategy {name}: not a strategy\n  help: use vote, council or debate")
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    if strategies.is_empty() && demo_lineup {
        strategies = demo::STRATEGIES.to_vec();
    }
    let entries = runner::entries(
        &configs,
        &Lineup {
            strategies,
            baselines: !eval.no_baselines,
            samples: eval.samples,
        },
    )?;
    let judge = eval
        .judge
        .as_deref()
        .map(|name| {
            let named = load_config(args, name, cwd, env)?;
            JudgeModel::from_config(&named.config, env)
        })
        .transpose()?;
    runner::check_scorers(&items, run_scorer.as_ref(), judge.is_some())?;
    let out = eval
        .out
        .clone()
        .map_or_else(|| default_out(cwd, &dataset_name), |out| cwd.join(out));
    Ok(Prepared {
        items,
        dataset_name,
        configs,
        entries,
        run_scorer,
        judge,
        out,
        logs: !args.no_logs,
    })
}

/// `.massgen/eval/<dataset's file stem>`, so a rerun of the same command resumes.
fn default_out(cwd: &Path, dataset: &str) -> PathBuf {
    let stem = Path::new(dataset.trim_end_matches('/'))
        .file_stem()
        .map_or_else(
            || "dataset".into(),
            |stem| stem.to_string_lossy().into_owned(),
        );
    cwd.join(".massgen").join("eval").join(stem)
}

/// A config loaded and checked as a run would, named after its file (or example).
fn load_config(args: &Args, name: &str, cwd: &Path, env: &Env) -> Result<NamedConfig, String> {
    let mut one = args.clone();
    one.config = Some(name.to_string());
    one.model = None;
    let prepared = setup::prepare(&one, cwd, env, Vec::new())?;
    setup::report_warnings(&prepared, false);
    let short = name.strip_prefix("@examples/").map_or_else(
        || {
            Path::new(name).file_name().map_or_else(
                || name.to_string(),
                |file| file.to_string_lossy().into_owned(),
            )
        },
        str::to_string,
    );
    Ok(NamedConfig {
        name: short,
        config: prepared.config,
    })
}

/// The full-screen display: on a terminal, unless `--json`, `--plain` or a plain
/// `--display` asks for lines.
fn full_screen(args: &Args, eval: &EvalArgs) -> bool {
    let asked = !eval.json && !eval.plain && matches!(args.display, None | Some(DisplayArg::Tui));
    asked && super::front_end::on_terminal()
}

fn execute(prepared: Prepared, eval: &EvalArgs, full_screen: bool, cwd: &Path, env: Env) -> Exit {
    let manifest = Manifest::describe(
        &prepared.dataset_name,
        &prepared.items,
        &prepared.entries,
        eval.scorer.as_deref(),
    );
    let contenders: Vec<Contender> = manifest.contenders.clone();
    let out = prepared.out.clone();
    let plan = RunPlan {
        manifest,
        items: prepared.items,
        entries: prepared.entries,
        out: out.clone(),
        fresh: eval.fresh,
        concurrency: usize::from(eval.concurrency),
        max_cost: eval.max_cost,
        setting: runner::TurnSetting {
            env,
            project_dir: cwd.to_path_buf(),
            logs: prepared.logs.then(|| out.join("logs")),
        },
    };
    let grader = Arc::new(EvalGrader::new(
        prepared.run_scorer,
        prepared.judge,
        out.clone(),
    ));
    drop(prepared.configs);
    let runtime = match super::runtime::multi_thread() {
        Ok(runtime) => runtime,
        Err(exit) => return exit,
    };
    if full_screen {
        let header = EvalHeader {
            dataset: plan.manifest.dataset.clone(),
            items: plan.items.len(),
            contenders: contenders.iter().map(|c| c.name.clone()).collect(),
            concurrency: plan.concurrency,
            max_cost: plan.max_cost,
            out: out.clone(),
        };
        let ended = runtime.block_on(async move {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            let work = async move {
                let outcome = runner::run(plan, grader, Some(tx)).await?;
                let reports = Reports::of(&outcome, &contenders);
                let written = reports.write(&out);
                Ok((reports.summary.clone(), (outcome, reports, written)))
            };
            crate::tui::eval::run(header, rx, work).await
        });
        runtime.shutdown_timeout(std::time::Duration::from_secs(5));
        crate::sandbox::end_all_commands();
        return match ended {
            Ok(EvalEnd::Completed((outcome, reports, written))) => match written {
                Ok(()) => report(outcome, reports, eval, &prepared.out),
                Err(message) => {
                    eprintln!("error: {message}");
                    Exit::Execution
                }
            },
            Ok(EvalEnd::Stopped) => {
                super::front_end::note(&format!(
                    "stopped — rerun the same command to resume (finished items are kept in {})",
                    prepared.out.join(runner::RESULTS).display()
                ));
                Exit::Interrupted
            }
            Ok(EvalEnd::Failed(message)) => {
                eprintln!("error: {message}");
                Exit::Config
            }
            Err(error) => {
                eprintln!("error: cannot open the full-screen display: {error}");
                Exit::Execution
            }
        };
    }
    let ran = runtime.block_on(async move {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let on_terminal = std::io::stderr().is_terminal();
        let printer = tokio::spawn(progress::print(rx, on_terminal, std::io::stderr()));
        let outcome = runner::run(plan, grader, Some(tx)).await;
        let _ = printer.await;
        outcome
    });
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    crate::sandbox::end_all_commands();
    let outcome = match ran {
        Ok(outcome) => outcome,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    let reports = Reports::of(&outcome, &contenders);
    if let Err(message) = reports.write(&out) {
        eprintln!("error: {message}");
        return Exit::Execution;
    }
    report(outcome, reports, eval, &out)
}

/// The summary of a run and its written forms.
struct Reports {
    summary: summary::Summary,
    json: serde_json::Value,
    markdown: String,
}

impl Reports {
    fn of(outcome: &RunOutcome, contenders: &[Contender]) -> Self {
        let summary = summary::summarize(&outcome.results, contenders);
        let mut json = report::json(&summary);
        if let Some(object) = json.as_object_mut() {
            object.insert("judge_cost_usd".into(), outcome.judge_cost_usd.into());
            object.insert("budget_stopped".into(), outcome.budget_stopped.into());
        }
        let markdown = report::markdown(&summary);
        Self {
            summary,
            json,
            markdown,
        }
    }

    /// `summary.md`, `summary.json` and `chart.svg` in `out`.
    fn write(&self, out: &Path) -> Result<(), String> {
        [
            ("summary.md", self.markdown.clone()),
            (
                "summary.json",
                serde_json::to_string_pretty(&self.json).unwrap_or_default() + "\n",
            ),
            ("chart.svg", report::svg(&self.summary)),
        ]
        .into_iter()
        .try_for_each(|(name, text)| {
            std::fs::write(out.join(name), text)
                .map_err(|error| format!("cannot write {}: {error}", out.join(name).display()))
        })
    }
}

/// Prints the summary (Markdown or `--json`) and how the run ended; the exit code.
fn report(outcome: RunOutcome, reports: Reports, eval: &EvalArgs, out: &Path) -> Exit {
    let Reports { json, markdown, .. } = reports;
    if eval.json {
        super::stdout::write(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        ));
    } else {
        let mut text = markdown;
        if outcome.judge_cost_usd > 0.0 {
            text.push_str(&format!(
                "\nThe judge cost ${:.4} on top of the answers.\n",
                outcome.judge_cost_usd
            ));
        }
        super::stdout::write(&text);
    }
    eprintln!(
        "Results in {} ({} answered now, {} in all).",
        out.display(),
        outcome.ran,
        outcome.results.len()
    );
    if outcome.budget_stopped {
        eprintln!(
            "The --max-cost budget of ${:.4} stopped the run before every item was answered; \
             rerun the same command with a larger --max-cost to finish (answered items are kept).",
            eval.max_cost.unwrap_or_default()
        );
        return Exit::Timeout;
    }
    if !outcome.results.is_empty() && outcome.results.iter().all(|result| result.error.is_some()) {
        eprintln!("error: no contender answered any item (see the errors in results.jsonl)");
        return Exit::Execution;
    }
    Exit::Success
}
