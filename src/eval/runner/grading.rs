//! The eval's [`Grader`]: each item's scorer (its own, else `--scorer`, else the default
//! for its kind), and for the judge scorer one call to the judge model, whose first prompt
//! is kept as `judge_prompt.txt` beside the results.

use std::path::PathBuf;
use std::sync::Once;

use futures::future::BoxFuture;

use super::judge_call::JudgeModel;
use super::{Graded, Grader};
use crate::eval::record::Item;
use crate::eval::score::Scorer;
use crate::eval::{judge, score};

/// Kept in the output directory: the prompt the judge was given for the first answer.
pub const JUDGE_PROMPT: &str = "judge_prompt.txt";

pub struct EvalGrader {
    /// `--scorer`: used for items that name none.
    run_scorer: Option<Scorer>,
    judge: Option<JudgeModel>,
    out: PathBuf,
    prompt_saved: Once,
}

impl EvalGrader {
    pub fn new(run_scorer: Option<Scorer>, judge: Option<JudgeModel>, out: PathBuf) -> Self {
        Self {
            run_scorer,
            judge,
            out,
            prompt_saved: Once::new(),
        }
    }

    /// The scorer for `item`: its own spec, else the run's, else the default for its kind.
    pub fn scorer_for(&self, item: &Item) -> Scorer {
        item.scorer
            .as_deref()
            .and_then(|spec| Scorer::parse(spec).ok())
            .or_else(|| self.run_scorer.clone())
            .unwrap_or_else(|| Scorer::default_for(item))
    }
}

/// Checks every item's own scorer, and that a judge is there when one is needed.
pub fn check_scorers(
    items: &[Item],
    run_scorer: Option<&Scorer>,
    have_judge: bool,
) -> Result<(), String> {
    let mut needs_judge = matches!(run_scorer, Some(Scorer::Judge));
    for item in items {
        if let Some(spec) = &item.scorer {
            let scorer = Scorer::parse(spec)
                .map_err(|error| format!("item {}: scorer `{spec}`: {error}", item.id))?;
            needs_judge |= matches!(scorer, Scorer::Judge);
        }
    }
    if needs_judge && !have_judge {
        return Err(
            "the judge scorer needs a judge model\n  help: add --judge CONFIG (its \
                    first agent judges each answer)"
                .into(),
        );
    }
    Ok(())
}

impl Grader for EvalGrader {
    fn grade<'a>(&'a self, item: &'a Item, answer: &'a str) -> BoxFuture<'a, Graded> {
        Box::pin(async move {
            let scorer = self.scorer_for(item);
            let scored = score::score(&scorer, item, answer);
            let (Scorer::Judge, Some(model)) = (&scorer, &self.judge) else {
                return Graded {
                    correct: scored.correct,
                    extracted: scored.extracted,
                    judge_cost_usd: 0.0,
                    error: None,
                };
            };
            let prompt = judge::prompt(item, answer);
            self.prompt_saved.call_once(|| {
                if let Err(error) = std::fs::write(self.out.join(JUDGE_PROMPT), &prompt) {
                    tracing::warn!(%error, "could not save the judge's prompt");
                }
            });
            match model.ask(&prompt).await {
                Ok(reply) => Graded {
                    correct: judge::parse_verdict(&reply.text).unwrap_or(false),
                    extracted: judge::parse_verdict(&reply.text)
                        .map(|verdict| if verdict { "CORRECT" } else { "INCORRECT" }.into()),
                    judge_cost_usd: reply.cost_usd,
                    error: judge::parse_verdict(&reply.text)
                        .is_none()
                        .then(|| "the judge's reply gave no verdict".to_string()),
                },
                Err(error) => Graded {
                    error: Some(error),
                    ..Graded::default()
                },
            }
        })
    }

    fn majority_key(&self, item: &Item, answer: &str) -> Option<String> {
        score::majority_key(&self.scorer_for(item), item, answer)
    }
}
