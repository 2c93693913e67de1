//! The default evaluation criteria E1–E4 of checklist-gated voting (MassGen 0.1.97's
//! static defaults, in its ids and categories), as agents are told them and score them.

use crate::protocol::EvalCriterion;

/// How much a criterion weighs in MassGen's criteria sets: the `primary` one is where models
/// fall short by default; `stretch` ones are aspirational.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CriterionCategory {
    Primary,
    Standard,
    Stretch,
}

impl CriterionCategory {
    pub fn name(self) -> &'static str {
        match self {
            Self::Primary => "primary",
            Self::Standard => "standard",
            Self::Stretch => "stretch",
        }
    }
}

/// One criterion an answer is scored against, 0–10.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Criterion {
    pub id: &'static str,
    pub category: CriterionCategory,
    pub text: &'static str,
}

/// MassGen's default criteria, used when a config names none.
pub const DEFAULT_CRITERIA: [Criterion; 4] = [
    Criterion {
        id: "E1",
        category: CriterionCategory::Standard,
        text: "Requirements fidelity: every requirement of the request is met as it was stated. \
               A requirement left out, half done, or swapped for something easier to build is a \
               failure.",
    },
    Criterion {
        id: "E2",
        category: CriterionCategory::Standard,
        text: "Correct at every level: the output is well formed (valid syntax, runs, opens), \
               its content is right (facts, computations), and it works as the user experiences \
               it (renders, interactions). Something that opens but shows wrongly is wrong.",
    },
    Criterion {
        id: "E3",
        category: CriterionCategory::Primary,
        text: "Depth in every part: each significant part stands on its own quality, with no \
               filler, placeholders or stubs carried by stronger parts. Judge the weakest part, \
               not the average.",
    },
    Criterion {
        id: "E4",
        category: CriterionCategory::Standard,
        text: "Intentional craft: structure, naming, emphasis and style show deliberate choices \
               beyond the first adequate option; an expert would see judgment, not a filled-in \
               template.",
    },
];

/// MassGen's defaults as the criteria a turn announces and scores.
pub fn default_criteria() -> Vec<EvalCriterion> {
    DEFAULT_CRITERIA
        .iter()
        .map(|criterion| EvalCriterion {
            id: criterion.id.to_string(),
            category: criterion.category.name().to_string(),
            text: criterion.text.to_string(),
        })
        .collect()
}

/// How to read the 0–10 scale (MassGen's calibration anchors, in short).
pub const SCORE_ANCHORS: &str = "9–10: publishable as is; 7–8: good, with gaps a demanding \
                                 user would name; 5–6: adequate but uninspired (most first \
                                 drafts); 3–4: significant problems; 1–2: wrong direction or \
                                 not working.";
