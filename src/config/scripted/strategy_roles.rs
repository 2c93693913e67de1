//! How a scripted member behaves in a council or a debate (`rank_as_text`, `rank_garbage`,
//! `fail_as_chairman`; `critique_as_text`, `adopt_majority`, `fail_in_debate`).

use crate::config::error::Problem;
use crate::config::fields::Fields;

/// A scripted member of a debate (`critique_as_text`, `adopt_majority`, `fail_in_debate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DebateScript {
    /// Critiques in a reply in text instead of calling `critique`.
    pub critique_as_text: bool,
    /// Revises to the answer most of the answers it has seen agree with.
    pub adopt_majority: bool,
    /// Every call after its answer fails.
    pub fail_in_debate: bool,
}

/// A scripted member of a council (`rank_as_text`, `rank_garbage`, `fail_as_chairman`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CouncilScript {
    /// Ranks with a "FINAL RANKING:" list in text instead of calling `rank`.
    pub rank_as_text: bool,
    /// Ranks with a reply that names no response at all.
    pub rank_garbage: bool,
    /// Its synthesis call as chairman fails.
    pub fail_as_chairman: bool,
}

impl CouncilScript {
    pub(super) fn parse(backend: &Fields<'_>) -> Result<Self, Problem> {
        Ok(Self {
            rank_as_text: backend.bool("rank_as_text")?.unwrap_or(false),
            rank_garbage: backend.bool("rank_garbage")?.unwrap_or(false),
            fail_as_chairman: backend.bool("fail_as_chairman")?.unwrap_or(false),
        })
    }
}

impl DebateScript {
    pub(super) fn parse(backend: &Fields<'_>) -> Result<Self, Problem> {
        Ok(Self {
            critique_as_text: backend.bool("critique_as_text")?.unwrap_or(false),
            adopt_majority: backend.bool("adopt_majority")?.unwrap_or(false),
            fail_in_debate: backend.bool("fail_in_debate")?.unwrap_or(false),
        })
    }
}
