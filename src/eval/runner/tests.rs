//! The runner against scripted quiz agents: whole runs, resume, the budget, self-consistency.

use std::sync::Arc;

use super::*;
use crate::config::{Env, from_text};
use crate::eval::record::{Contender, ContenderKind};

const KEY: &str = r#"{"id": "a", "question": "What is 2 + 2?", "answer": "4"}
{"id": "b", "question": "What is the capital of France?", "answer": "Paris"}
{"id": "c", "question": "Which is a fruit?", "choices": ["Carrot", "Apple"], "answer": "B"}
{"id": "d", "question": "What is 10 - 3?", "answer": "7"}
"#;

fn items() -> Vec<Item> {
    KEY.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Right when the text after the last `Answer:` is the reference, case aside.
struct Stated;

impl Grader for Stated {
    fn grade<'a>(&'a self, item: &'a Item, answer: &'a str) -> BoxFuture<'a, Graded> {
        let extracted = self.majority_key(item, answer);
        Box::pin(async move {
            Graded {
                correct: extracted.as_deref() == Some(item.answer.to_lowercase().as_str()),
                extracted,
                judge_cost_usd: 0.0,
                error: None,
            }
        })
    }

    fn majority_key(&self, _item: &Item, answer: &str) -> Option<String> {
        let (_, value) = answer.rsplit_once("Answer:")?;
        Some(value.trim().trim_end_matches('.').to_lowercase())
    }
}

fn config(dir: &std::path::Path, accuracies: &[f64], model: &str) -> NamedConfig {
    let key = dir.join("key.jsonl");
    std::fs::write(&key, KEY).unwrap();
    let mut yaml = String::from("agents:\n");
    for (index, accuracy) in accuracies.iter().enumerate() {
        yaml.push_str(&format!(
            "  - id: agent{index}\n    backend:\n      type: scripted\n      model: {model}{index}\n      \
             tokens_per_second: 0\n      quiz: {{answers: \"{}\", accuracy: {accuracy}, seed: {index}}}\n",
            key.display()
        ));
    }
    yaml.push_str("orchestrator:\n  voting_sensitivity: lenient\n  max_new_answers_per_agent: 1\n");
    let loaded = from_text(&yaml, "quiz.yaml", &Env::default()).unwrap();
    NamedConfig {
        name: "quiz.yaml".into(),
        config: Arc::new(loaded.into_runnable().unwrap().0),
    }
}

fn plan(dir: &std::path::Path, named: &NamedConfig, samples: usize) -> RunPlan {
    let entries = entries(
        std::slice::from_ref(named),
        &Lineup {
            strategies: Vec::new(),
            baselines: true,
            samples,
        },
    )
    .unwrap();
    let items = items();
    RunPlan {
        manifest: Manifest::describe("key.jsonl", &items, &entries, None),
        items,
        entries,
        out: dir.join("out"),
        fresh: false,
        concurrency: 3,
        max_cost: None,
        setting: TurnSetting {
            env: Env::default(),
            project_dir: dir.to_path_buf(),
            logs: Some(dir.join("out").join("logs")),
        },
    }
}

#[tokio::test]
async fn a_run_answers_every_item_for_every_contender_and_a_rerun_redoes_none() {
    let dir = tempfile::tempdir().unwrap();
    let named = config(dir.path(), &[1.0, 1.0], "perfect-");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let outcome = run(plan(dir.path(), &named, 3), Arc::new(Stated), Some(tx))
        .await
        .unwrap();
    // vote, then each model alone and ×3: 5 contenders, 4 items.
    assert_eq!(outcome.ran, 20);
    assert!(!outcome.budget_stopped);
    assert!(
        outcome.results.iter().all(|result| result.correct),
        "{:#?}",
        outcome.results
    );
    let mut last = None;
    while let Ok(progress) = rx.try_recv() {
        last = Some(progress);
    }
    let last = last.unwrap();
    assert_eq!((last.done, last.total, last.correct), (20, 20, 20));
    let lines = std::fs::read_to_string(dir.path().join("out").join(RESULTS)).unwrap();
    assert_eq!(lines.lines().count(), 20);
    let first: ItemResult = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    let log_dir = first.log_dir.unwrap();
    assert!(log_dir.starts_with("logs"), "{}", log_dir.display());
    assert!(dir.path().join("out").join(&log_dir).is_dir());

    let again = run(plan(dir.path(), &named, 3), Arc::new(Stated), None)
        .await
        .unwrap();
    assert_eq!(again.ran, 0);
    assert_eq!(again.results.len(), 20);
}

#[tokio::test]
async fn a_torn_last_line_is_redone_and_the_rest_kept() {
    let dir = tempfile::tempdir().unwrap();
    let named = config(dir.path(), &[1.0], "solo-");
    let first = run(plan(dir.path(), &named, 0), Arc::new(Stated), None)
        .await
        .unwrap();
    assert_eq!(first.ran, 8);
    let path = dir.path().join("out").join(RESULTS);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().unwrap();
    let torn = format!("{}\n{}", lines.join("\n"), &last[..last.len() / 2]);
    std::fs::write(&path, torn).unwrap();
    let resumed = run(plan(dir.path(), &named, 0), Arc::new(Stated), None)
        .await
        .unwrap();
    assert_eq!(resumed.ran, 1);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 8);
    assert!(
        text.lines()
            .all(|line| serde_json::from_str::<ItemResult>(line).is_ok())
    );
}

#[tokio::test]
async fn a_different_dataset_is_refused_unless_fresh() {
    let dir = tempfile::tempdir().unwrap();
    let named = config(dir.path(), &[1.0], "solo-");
    run(plan(dir.path(), &named, 0), Arc::new(Stated), None)
        .await
        .unwrap();
    let mut other = plan(dir.path(), &named, 0);
    other.items.truncate(2);
    other.manifest.dataset_hash = dataset_hash(&other.items);
    other.manifest.items = 2;
    let refused = run(other, Arc::new(Stated), None).await.unwrap_err();
    assert!(refused.contains("holds another run"), "{refused}");
    assert!(refused.contains("--fresh"), "{refused}");
    let mut fresh = plan(dir.path(), &named, 0);
    fresh.items.truncate(2);
    fresh.manifest.dataset_hash = dataset_hash(&fresh.items);
    fresh.fresh = true;
    let outcome = run(fresh, Arc::new(Stated), None).await.unwrap();
    assert_eq!((outcome.ran, outcome.results.len()), (4, 4));
}

#[tokio::test]
async fn the_budget_stops_new_items_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // Named after a priced model, so the scripted tokens cost something.
    let named = config(dir.path(), &[1.0], "gpt-4o-mini");
    let mut named = named;
    let mut config = (*named.config).clone();
    config.agents[0].backend.model = "gpt-4o-mini".into();
    named.config = Arc::new(config);
    let mut unlimited = plan(dir.path(), &named, 0);
    unlimited.out = dir.path().join("unlimited");
    let whole = run(unlimited, Arc::new(Stated), None).await.unwrap();
    let per_item = whole.results[0].cost_usd;
    assert!(per_item > 0.0);
    let mut limited = plan(dir.path(), &named, 0);
    limited.concurrency = 1;
    limited.max_cost = Some(per_item * 2.5);
    let outcome = run(limited, Arc::new(Stated), None).await.unwrap();
    assert!(outcome.budget_stopped);
    assert!(
        (1..8).contains(&outcome.results.len()),
        "{}",
        outcome.results.len()
    );
    let spent: f64 = outcome.results.iter().map(|result| result.cost_usd).sum();
    assert!(spent <= per_item * 3.5, "{spent}");
}

#[test]
fn self_consistency_keeps_the_majority_answer_and_its_first_sample_on_ties() {
    let sample = |answer: Option<&str>, latency_ms| TurnReport {
        answer: answer.map(str::to_string),
        latency_ms,
        ..TurnReport::default()
    };
    let key = |answer: &str| Stated.majority_key(&items()[0], answer);
    let samples = [
        sample(Some("Answer: 5"), 1),
        sample(Some("Answer: 4"), 2),
        sample(None, 3),
        sample(Some("answer: 4"), 4),
        sample(Some("Answer: 4."), 5),
    ];
    assert_eq!(majority(&samples, key).unwrap().latency_ms, 2);
    let tie = [sample(Some("Answer: 5"), 1), sample(Some("Answer: 4"), 2)];
    assert_eq!(majority(&tie, key).unwrap().latency_ms, 1);
    assert!(majority(&[sample(None, 1)], key).is_none());
}

#[test]
fn contenders_name_configs_strategies_and_baselines_and_refuse_what_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    let named = config(dir.path(), &[0.5, 0.5], "m");
    let lineup = |strategies: Vec<Strategy>, baselines| Lineup {
        strategies,
        baselines,
        samples: 5,
    };
    let all = entries(
        std::slice::from_ref(&named),
        &lineup(vec![Strategy::Vote], true),
    )
    .unwrap();
    let contenders: Vec<Contender> = all.iter().map(|entry| entry.contender.clone()).collect();
    assert_eq!(
        contenders,
        [
            ("quiz.yaml · vote", ContenderKind::Strategy),
            ("m0 alone", ContenderKind::SingleModel),
            ("m0 ×5 majority", ContenderKind::SelfConsistency),
            ("m1 alone", ContenderKind::SingleModel),
            ("m1 ×5 majority", ContenderKind::SelfConsistency),
        ]
        .map(|(name, kind)| Contender {
            name: name.into(),
            kind
        })
    );
    assert_eq!(all[4].samples, 5);
    assert_eq!(
        all[3].options.single_agent.as_ref().unwrap().as_str(),
        "agent1"
    );
    let plain = entries(std::slice::from_ref(&named), &lineup(Vec::new(), false)).unwrap();
    assert_eq!(plain.len(), 1);
    let both = entries(
        std::slice::from_ref(&named),
        &lineup(vec![Strategy::Vote, Strategy::Debate], false),
    )
    .unwrap();
    assert_eq!(
        both.iter()
            .map(|entry| entry.options.strategy)
            .collect::<Vec<_>>(),
        [Some(Strategy::Vote), Some(Strategy::Debate)]
    );
}

use crate::protocol::Strategy;
