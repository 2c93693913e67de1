//! The knobs MassGen 0.1.97 adds to checklist-gated rounds: the diagnostic gap report
//! (`checklist_require_gap_report`, `gap_report_mode`), peers' answers before the
//! checklist (`allow_midstream_peer_updates_before_checklist_submit`) and the
//! within-round discipline of `fast_iteration_mode`, `max_verifications_per_round` and
//! `max_internal_fix_loops`.

/// `gap_report_mode`: which report instructions agents get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GapReportMode {
    /// MassGen's default: a diagnostic report separate from the changedoc.
    Changedoc,
    /// A diagnostic report file.
    Separate,
    /// No report instructions.
    None,
}

impl GapReportMode {
    pub const NAMES: [&'static str; 3] = ["changedoc", "separate", "none"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "changedoc" => Some(Self::Changedoc),
            "separate" => Some(Self::Separate),
            "none" => Some(Self::None),
            _ => None,
        }
    }

    /// Agents are told to write the report and pass its path.
    pub fn instructs(self) -> bool {
        !matches!(self, Self::None)
    }
}

/// The diagnostic report a gated agent writes before `submit_checklist`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GapReport {
    /// `checklist_require_gap_report`: a checklist without a readable report of some
    /// substance is a validation error.
    pub required: bool,
    pub mode: GapReportMode,
}

impl Default for GapReport {
    /// Off unless the config names either key (MassGen requires it by default).
    fn default() -> Self {
        Self {
            required: false,
            mode: GapReportMode::None,
        }
    }
}

/// `orchestrator.coordination`'s within-round knobs (MassGen's `--fast` preset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastIteration {
    /// `fast_iteration_mode`: streamlined checklist phases, submit sooner.
    pub mode: bool,
    /// `max_verifications_per_round`: `None` = unlimited.
    pub max_verifications_per_round: Option<u32>,
    /// `max_internal_fix_loops`: `None` = unlimited; 0 = no verify→fix loops.
    pub max_internal_fix_loops: Option<u32>,
}
