//! An agent's approach for its next answer, from checklist-gated voting's `draft_approach`:
//! what it will build for each failing criterion and what it will keep, as the run reports
//! it to front ends and logs.

use serde::{Deserialize, Serialize};

/// How bold one planned improvement is (MassGen's `impact` levels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Impact {
    Transformative,
    Structural,
    Incremental,
}

impl Impact {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Transformative => "transformative",
            Self::Structural => "structural",
            Self::Incremental => "incremental",
        }
    }

    /// MassGen's reading: an unknown or missing level is incremental.
    pub fn from_name(name: &str) -> Self {
        match name {
            "transformative" => Self::Transformative,
            "structural" => Self::Structural,
            _ => Self::Incremental,
        }
    }
}

/// One planned improvement for a failing criterion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedImprovement {
    pub criterion: String,
    pub plan: String,
    /// Answer labels drawn from, or `fresh`.
    pub sources: Vec<String>,
    pub impact: Impact,
}

/// A strength the next answer keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preserved {
    pub criterion: String,
    pub what: String,
    pub source: String,
}

/// An accepted `draft_approach`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftedApproach {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vision: Option<String>,
    pub plan: Vec<PlannedImprovement>,
    #[serde(default)]
    pub preserve: Vec<Preserved>,
}

impl DraftedApproach {
    /// One line for cards, timelines and logs:
    /// `E2 structural, E3 incremental; keeps E1 — vision: a landing page that…`.
    pub fn summary(&self) -> String {
        let planned: Vec<String> = self
            .plan
            .iter()
            .map(|item| format!("{} {}", item.criterion, item.impact.as_str()))
            .collect();
        let mut line = planned.join(", ");
        if !self.preserve.is_empty() {
            let kept: Vec<&str> = self
                .preserve
                .iter()
                .map(|item| item.criterion.as_str())
                .collect();
            line.push_str(&format!("; keeps {}", kept.join(", ")));
        }
        if let Some(vision) = &self.vision {
            line.push_str(&format!(" — vision: {}", first_words(vision, 12)));
        }
        line
    }
}

fn first_words(text: &str, count: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= count {
        return words.join(" ");
    }
    format!("{}…", words[..count].join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_names_each_criterion_its_impact_what_is_kept_and_the_vision() {
        let approach = DraftedApproach {
            vision: Some(
                "one two three four five six seven eight nine ten eleven twelve thirteen".into(),
            ),
            plan: vec![PlannedImprovement {
                criterion: "E2".into(),
                plan: "rethink".into(),
                sources: vec!["fresh".into()],
                impact: Impact::Structural,
            }],
            preserve: vec![Preserved {
                criterion: "E1".into(),
                what: "hero".into(),
                source: "agent1.1".into(),
            }],
        };
        assert_eq!(
            approach.summary(),
            "E2 structural; keeps E1 — vision: one two three four five six seven eight nine ten \
             eleven twelve…"
        );
    }
}
