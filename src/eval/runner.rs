//! Runs every (contender, item) not yet answered as one fresh turn, a bounded number at a
//! time, under a cost budget; appends each scored result to `results.jsonl` as it finishes
//! and reports progress. A rerun into the same directory resumes where the last stopped.

mod contenders;
mod grading;
mod judge_call;
mod prompt;
mod store;
mod turn;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use tokio::sync::mpsc;
use tokio::task::JoinSet;

pub use contenders::{Entry, Lineup, NamedConfig, entries};
pub use grading::{EvalGrader, JUDGE_PROMPT, check_scorers};
pub use judge_call::{JudgeModel, JudgeReply};
pub use prompt::question_prompt;
pub use store::{JUDGE_COSTS, JudgeCost, MANIFEST, Manifest, RESULTS, dataset_hash};
pub use turn::{TurnReport, TurnSetting, run_turn};

use super::progress::{Finished, Progress, Tracker};
use super::record::{Item, ItemResult};

/// A scored answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graded {
    pub correct: bool,
    pub extracted: Option<String>,
    /// What judging it cost (a `--judge` model call), counted apart from the answer's.
    pub judge_cost_usd: f64,
    /// Why it could not be scored (the judge failed); scored as wrong.
    pub error: Option<String>,
}

/// How answers are scored: the eval's scorers, or a judge model.
pub trait Grader: Send + Sync {
    fn grade<'a>(&'a self, item: &'a Item, answer: &'a str) -> BoxFuture<'a, Graded>;
    /// What self-consistency's samples agree on (`None`: the answer states nothing).
    fn majority_key(&self, item: &Item, answer: &str) -> Option<String>;
}

/// What to run, and where.
pub struct RunPlan {
    pub manifest: Manifest,
    pub items: Vec<Item>,
    pub entries: Vec<Entry>,
    pub out: PathBuf,
    /// Start over in `out` even if it holds another run.
    pub fresh: bool,
    pub concurrency: usize,
    pub max_cost: Option<f64>,
    pub setting: TurnSetting,
}

/// How the run ended.
#[derive(Debug)]
pub struct RunOutcome {
    /// Every result in `out`: the earlier runs' and this one's.
    pub results: Vec<ItemResult>,
    /// Items answered by this run (not resumed).
    pub ran: usize,
    /// `--max-cost` stopped it before every item was answered.
    pub budget_stopped: bool,
    /// The judge's spend over every run into `out`.
    pub judge_cost_usd: f64,
}

/// One finished job.
struct Done {
    result: ItemResult,
    judge_cost_usd: f64,
    took: Duration,
    estimate: f64,
}

pub async fn run(
    plan: RunPlan,
    grader: Arc<dyn Grader>,
    progress: Option<mpsc::UnboundedSender<Progress>>,
) -> Result<RunOutcome, String> {
    let mut results = store::open(&plan.out, &plan.manifest, plan.fresh)?;
    let resumed = results.len();
    let (judged, _) = store::read_lines::<JudgeCost>(&plan.out.join(JUDGE_COSTS));
    let mut judge_cost_usd: f64 = judged.iter().map(|row| row.cost_usd).sum();
    let finished = store::finished(&results);
    let totals: Vec<(String, usize)> = plan
        .entries
        .iter()
        .map(|entry| (entry.contender.name.clone(), plan.items.len()))
        .collect();
    let mut tracker = Tracker::new(&totals, plan.concurrency);
    let send = |snapshot: Progress| {
        if let Some(progress) = &progress {
            let _ = progress.send(snapshot);
        }
    };
    for result in &results {
        send(tracker.record(finished_of(result), result.cost_usd, None));
    }
    tracker.spend(judge_cost_usd);
    let mut appender = store::Appender::open(&plan.out.join(RESULTS))?;
    let mut judge_appender = store::Appender::open(&plan.out.join(JUDGE_COSTS))?;

    // Item by item, every contender in turn: a budget stop leaves comparable coverage.
    let pending: Vec<(usize, usize)> = (0..plan.items.len())
        .flat_map(|item| (0..plan.entries.len()).map(move |entry| (item, entry)))
        .filter(|&(item, entry)| {
            !finished.contains(&(
                plan.entries[entry].contender.name.clone(),
                plan.items[item].id.clone(),
            ))
        })
        .collect();
    let spent_per_contender = |results: &[ItemResult], name: &str| {
        let costs: Vec<f64> = results
            .iter()
            .filter(|result| result.contender == name)
            .map(|result| result.cost_usd)
            .collect();
        (!costs.is_empty()).then(|| costs.iter().sum::<f64>() / costs.len() as f64)
    };
    let plan = Arc::new(plan);
    let mut running: JoinSet<Done> = JoinSet::new();
    let mut running_estimate = 0.0;
    let mut budget_stopped = false;
    let mut record = |done: Done,
                      results: &mut Vec<ItemResult>,
                      running_estimate: &mut f64,
                      judge_cost_usd: &mut f64|
     -> Result<(), String> {
        *running_estimate -= done.estimate;
        appender.append(&done.result)?;
        if done.judge_cost_usd > 0.0 {
            judge_appender.append(&JudgeCost {
                contender: done.result.contender.clone(),
                item: done.result.item.clone(),
                cost_usd: done.judge_cost_usd,
            })?;
            *judge_cost_usd += done.judge_cost_usd;
            tracker.spend(done.judge_cost_usd);
        }
        send(tracker.record(
            finished_of(&done.result),
            done.result.cost_usd,
            Some(done.took),
        ));
        results.push(done.result);
        Ok(())
    };
    for (item_index, entry_index) in pending {
        while running.len() >= plan.concurrency.max(1) {
            if let Some(Ok(done)) = running.join_next().await {
                record(
                    done,
                    &mut results,
                    &mut running_estimate,
                    &mut judge_cost_usd,
                )?;
            }
        }
        let entry = &plan.entries[entry_index];
        let estimate = spent_per_contender(&results, &entry.contender.name)
            .or_else(|| {
                (!results.is_empty()).then(|| {
                    results.iter().map(|result| result.cost_usd).sum::<f64>() / results.len() as f64
                })
            })
            .unwrap_or(0.0)
            * entry.samples.max(1) as f64;
        if let Some(max_cost) = plan.max_cost {
            let spent: f64 =
                results.iter().map(|result| result.cost_usd).sum::<f64>() + judge_cost_usd;
            if spent + running_estimate + estimate > max_cost {
                budget_stopped = true;
                break;
            }
        }
        running_estimate += estimate;
        let plan = Arc::clone(&plan);
        let grader = Arc::clone(&grader);
        running.spawn(async move {
            let started = Instant::now();
            let entry = &plan.entries[entry_index];
            let item = &plan.items[item_index];
            let (result, judge_cost_usd) = answer(&plan, entry, item, grader.as_ref()).await;
            Done {
                result,
                judge_cost_usd,
                took: started.elapsed(),
                estimate,
            }
        });
    }
    while let Some(joined) = running.join_next().await {
        if let Ok(done) = joined {
            record(
                done,
                &mut results,
                &mut running_estimate,
                &mut judge_cost_usd,
            )?;
        }
    }
    let ran = results.len() - resumed;
    Ok(RunOutcome {
        results,
        ran,
        budget_stopped,
        judge_cost_usd,
    })
}

fn finished_of(result: &ItemResult) -> Finished {
    Finished {
        contender: result.contender.clone(),
        item: result.item.clone(),
        correct: result.correct,
        error: result.error.clone(),
    }
}

/// Runs `entry` on `item` (all its samples at once) and scores the answer.
async fn answer(
    plan: &RunPlan,
    entry: &Entry,
    item: &Item,
    grader: &dyn Grader,
) -> (ItemResult, f64) {
    let question = question_prompt(item);
    let samples = futures::future::join_all((0..entry.samples.max(1)).map(|_| {
        run_turn(
            &plan.setting,
            Arc::clone(&entry.config),
            entry.options.clone(),
            &question,
        )
    }))
    .await;
    let chosen = majority(&samples, |answer| grader.majority_key(item, answer));
    let mut result = ItemResult {
        contender: entry.contender.name.clone(),
        kind: entry.contender.kind,
        item: item.id.clone(),
        answer: None,
        extracted: None,
        correct: false,
        input_tokens: samples.iter().map(|sample| sample.usage.input_tokens).sum(),
        output_tokens: samples
            .iter()
            .map(|sample| sample.usage.output_tokens)
            .sum(),
        cost_usd: samples.iter().map(|sample| sample.cost_usd).sum(),
        latency_ms: samples
            .iter()
            .map(|sample| sample.latency_ms)
            .max()
            .unwrap_or(0),
        log_dir: None,
        error: None,
    };
    let Some(chosen) = chosen else {
        let first = samples.first();
        result.error = Some(
            first
                .and_then(|sample| sample.error.clone())
                .unwrap_or_else(|| "no answer".into()),
        );
        result.log_dir = first
            .and_then(|sample| sample.log_dir.as_deref())
            .map(|dir| turn::relative_to(dir, &plan.out));
        return (result, 0.0);
    };
    result.log_dir = chosen
        .log_dir
        .as_deref()
        .map(|dir| turn::relative_to(dir, &plan.out));
    let Some(text) = chosen.answer.clone() else {
        return (result, 0.0);
    };
    let graded = grader.grade(item, &text).await;
    result.correct = graded.correct;
    result.extracted = graded.extracted;
    result.error = graded.error;
    result.answer = Some(text);
    (result, graded.judge_cost_usd)
}

/// The sample whose answer most samples agree on (by `key`); ties go to the one seen
/// first. `None` when no sample answered.
fn majority(samples: &[TurnReport], key: impl Fn(&str) -> Option<String>) -> Option<&TurnReport> {
    let answered: Vec<(&TurnReport, Option<String>)> = samples
        .iter()
        .filter_map(|sample| {
            let answer = sample.answer.as_deref()?;
            Some((sample, key(answer)))
        })
        .collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (_, key) in &answered {
        if let Some(key) = key {
            *counts.entry(key.as_str()).or_default() += 1;
        }
    }
    let best = counts.values().copied().max().unwrap_or(0);
    answered
        .iter()
        .find(|(_, key)| {
            key.as_deref()
                .is_some_and(|key| counts.get(key) == Some(&best))
        })
        .or(answered.first())
        .map(|(sample, _)| *sample)
}

#[cfg(test)]
mod tests;
