//! MassGen's `orchestrator.coordination.persona_generator`: before a turn a model writes a
//! different persona for each agent; how that persona is phased once peers have answered.

/// What kind of difference between the agents the personas aim for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiversityMode {
    /// Different values and priorities on the same problem (MassGen's default).
    #[default]
    Perspective,
    /// Different kinds of solution, different readings of the task.
    Implementation,
    /// Different ways of working through the same problem.
    Methodology,
}

impl DiversityMode {
    pub const NAMES: [&'static str; 3] = ["perspective", "implementation", "methodology"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "perspective" => Some(Self::Perspective),
            "implementation" => Some(Self::Implementation),
            "methodology" => Some(Self::Methodology),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Perspective => "perspective",
            Self::Implementation => "implementation",
            Self::Methodology => "methodology",
        }
    }
}

/// What becomes of an agent's persona once it has seen a peer's answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AfterFirstAnswer {
    /// The persona leaves the system message (MassGen's default).
    #[default]
    Drop,
    /// The persona stays as a preference to weigh, not a position to defend.
    Soften,
    /// The persona stays in full.
    Keep,
}

impl AfterFirstAnswer {
    pub const NAMES: [&'static str; 3] = ["drop", "soften", "keep"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "drop" => Some(Self::Drop),
            "soften" => Some(Self::Soften),
            "keep" => Some(Self::Keep),
            _ => None,
        }
    }
}

/// `persona_generator` with `enabled: true` (a disabled one is `None` in the config).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PersonaGeneratorConfig {
    pub diversity_mode: DiversityMode,
    /// `persona_guidelines`: extra guidance for the model writing the personas.
    pub guidelines: Option<String>,
    /// `persist_across_turns`: later turns of a session reuse the first turn's personas.
    pub persist_across_turns: bool,
    pub after_first_answer: AfterFirstAnswer,
}
