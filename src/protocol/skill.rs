//! The skills agents are told about (`use_skills`), as the run reports them to front ends.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Where a skill was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillSource {
    /// `skills_directory`.
    Project,
    /// `~/.agent/skills`.
    User,
    /// An earlier run's `tasks/evolving_skill/`.
    PreviousSession,
}

impl SkillSource {
    /// MassGen's word for it, shown to agents as the skill's `location`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::User => "user",
            Self::PreviousSession => "previous_session",
        }
    }
}

/// One skill as front ends list it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillInfo {
    pub name: String,
    pub description: String,
    pub source: SkillSource,
    /// The skill's `SKILL.md`, absolute.
    #[serde(serialize_with = "super::lossy_path::serialize")]
    pub file: PathBuf,
}
