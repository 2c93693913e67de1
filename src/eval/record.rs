//! What an eval reads and writes per item: a dataset's question, who answered it, and the
//! scored result (one line of `results.jsonl`).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One question of a dataset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// From the dataset, or its 1-based line (row) number when it gives none.
    pub id: String,
    pub question: String,
    /// The reference answer; for multiple choice, the correct letter ("B").
    pub answer: String,
    /// Multiple choice: the options in order, lettered A, B, C… in the question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    /// The item's own scorer as the dataset names it ("exact", "number:0.01",
    /// "regex:^4[0-9]$", …); `None` takes the run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scorer: Option<String>,
}

/// What kind of entry answers the items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContenderKind {
    /// A config's agents under a strategy (vote, council or debate).
    Strategy,
    /// One model of a config, alone: a baseline.
    SingleModel,
    /// One model sampled several times, its majority answer: a baseline.
    SelfConsistency,
}

/// One entry under test, named as the results and the summary name it
/// (`three-agents.yaml · council`, `gpt-4o-mini alone`, `gpt-4o-mini ×5 majority`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Contender {
    pub name: String,
    pub kind: ContenderKind,
}

/// One item answered by one contender: a line of `results.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemResult {
    pub contender: String,
    pub kind: ContenderKind,
    pub item: String,
    /// The final answer as given; `None` when the run failed (see `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// What the scorer read from the answer (a letter, a number, normalised text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extracted: Option<String>,
    pub correct: bool,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    pub latency_ms: u64,
    /// The turn's log directory, when the contender ran with logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_dir: Option<PathBuf>,
    /// Why there is no answer: the model or the turn failed. Scored as wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
