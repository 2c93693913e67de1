//! Checklist-gated voting's record of one accepted `submit_checklist`: the scores an agent
//! gave and the gate's verdict, as the run reports them to front ends and logs.

use serde::{Deserialize, Serialize};

/// What the checklist gate allows next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChecklistVerdict {
    /// Enough criteria passed: the agent may vote.
    Vote,
    /// The agent must improve the answer and submit it with `new_answer`.
    NewAnswer,
}

impl ChecklistVerdict {
    /// The workflow tool the verdict names (MassGen's `verdict` value).
    pub fn action(self) -> &'static str {
        match self {
            Self::Vote => "vote",
            Self::NewAnswer => "new_answer",
        }
    }
}

/// One criterion's score (0–10) of the answer the verdict is based on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriterionScore {
    pub id: String,
    pub score: i64,
    pub passed: bool,
}

/// An accepted checklist: per-criterion scores of the strongest answer, and the verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChecklistResult {
    pub verdict: ChecklistVerdict,
    /// Criteria that reached the cutoff, and how many had to.
    pub passed: u32,
    pub required: u32,
    pub scores: Vec<CriterionScore>,
    /// The answer label scored highest overall, when every agent's answer was scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_answer: Option<String>,
    /// What the agent was told: the gap report.
    pub explanation: String,
}

impl ChecklistResult {
    /// One line for timelines and logs: `vote (3/4 passed, 3 required): E1 8, E2 9, …`.
    pub fn summary(&self) -> String {
        let scores: Vec<String> = self
            .scores
            .iter()
            .map(|item| format!("{} {}", item.id, item.score))
            .collect();
        let best = self
            .best_answer
            .as_deref()
            .map(|label| format!(" best {label};"))
            .unwrap_or_default();
        format!(
            "{} ({}/{} passed, {} required;{best} {})",
            self.verdict.action(),
            self.passed,
            self.scores.len(),
            self.required,
            scores.join(", ")
        )
    }
}
