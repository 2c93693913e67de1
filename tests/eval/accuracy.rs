//! Measured accuracy against known probabilities: each single model's true accuracy lies in
//! its reported 95 % interval in at least 19 of 20 seeded runs, and with independent errors
//! the vote beats the best single model.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use massgen::config::{Env, from_text};
use massgen::eval::record::{ContenderKind, Item};
use massgen::eval::runner::{
    self, EvalGrader, Lineup, Manifest, NamedConfig, RunOutcome, RunPlan, TurnSetting,
};
use massgen::eval::{dataset, summary};

use crate::provider::{self, QuizProvider};

fn named(yaml: &str) -> NamedConfig {
    let loaded = from_text(yaml, "quiz.yaml", &Env::default()).unwrap();
    NamedConfig {
        name: "quiz.yaml".into(),
        config: Arc::new(loaded.into_runnable().unwrap().0),
    }
}

async fn run_eval(
    dir: &Path,
    config: &NamedConfig,
    items: &[Item],
    keep: impl Fn(ContenderKind) -> bool,
) -> (RunOutcome, Vec<massgen::eval::record::Contender>) {
    let mut entries = runner::entries(
        std::slice::from_ref(config),
        &Lineup {
            strategies: Vec::new(),
            baselines: true,
            samples: 0,
        },
    )
    .unwrap();
    entries.retain(|entry| keep(entry.contender.kind));
    let manifest = Manifest::describe("quiz", items, &entries, None);
    let contenders = manifest.contenders.clone();
    let out = dir.join("out");
    let plan = RunPlan {
        manifest,
        items: items.to_vec(),
        entries,
        out: out.clone(),
        fresh: true,
        concurrency: 16,
        max_cost: None,
        setting: TurnSetting {
            env: Env::default(),
            project_dir: dir.to_path_buf(),
            logs: None,
        },
    };
    let grader = Arc::new(EvalGrader::new(None, None, out));
    (runner::run(plan, grader, None).await.unwrap(), contenders)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_single_model_lies_in_its_reported_interval_in_19_of_20_runs() {
    let models = [("m60", 0.6), ("m75", 0.75), ("m90", 0.9)];
    let questions = provider::questions(40);
    let items = dataset::load_text(&provider::dataset(&questions), "quiz").unwrap();
    let mut inside: HashMap<&str, usize> = HashMap::new();
    for seed in 1..=20 {
        let accuracy = models
            .iter()
            .map(|(name, p)| (name.to_string(), *p))
            .collect();
        let quiz = QuizProvider::start(questions.clone(), accuracy, seed, Duration::ZERO).await;
        let config = named(&quiz.config(&models.map(|(name, _)| name)));
        let dir = tempfile::tempdir().unwrap();
        let (outcome, contenders) = run_eval(dir.path(), &config, &items, |kind| {
            kind == ContenderKind::SingleModel
        })
        .await;
        assert!(outcome.results.iter().all(|result| result.error.is_none()));
        let summary = summary::summarize(&outcome.results, &contenders);
        for (model, p) in models {
            let row = summary
                .rows
                .iter()
                .find(|row| row.contender == format!("{model} alone"))
                .unwrap();
            assert_eq!(row.items, 40);
            if row.accuracy.unwrap().contains(p) {
                *inside.entry(model).or_default() += 1;
            }
        }
    }
    for (model, _) in models {
        let count = inside.get(model).copied().unwrap_or(0);
        assert!(
            count >= 19,
            "{model}: inside its interval in {count} of 20 runs"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_independent_errors_the_vote_beats_the_best_single_model() {
    let models = ["a70", "b70", "c70"];
    let questions = provider::questions(150);
    let items = dataset::load_text(&provider::dataset(&questions), "quiz").unwrap();
    let accuracy = models.iter().map(|name| (name.to_string(), 0.7)).collect();
    let quiz = QuizProvider::start(questions, accuracy, 7, Duration::ZERO).await;
    let config = named(&quiz.config(&models));
    let dir = tempfile::tempdir().unwrap();
    let (outcome, contenders) = run_eval(dir.path(), &config, &items, |kind| {
        kind != ContenderKind::SelfConsistency
    })
    .await;
    let summary = summary::summarize(&outcome.results, &contenders);
    let correct = |name: &str| {
        summary
            .rows
            .iter()
            .find(|row| row.contender == name)
            .unwrap()
            .correct
    };
    let best_single = models
        .iter()
        .map(|model| correct(&format!("{model} alone")))
        .max()
        .unwrap();
    let vote = correct("quiz.yaml · vote");
    assert!(
        vote > best_single,
        "vote {vote} of 150, best single model {best_single}"
    );
}
