//! MassGen's checklist-round knobs: the gap report and peers' answers before the checklist
//! (orchestrator keys), and `fast_iteration_mode`'s within-round limits (coordination keys).

use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::yaml_node::Value;
use crate::config::{FastIteration, GapReport, GapReportMode};

/// `checklist_require_gap_report` and `gap_report_mode`. Without `gap_report_mode` the mode
/// follows the requirement (`separate` when required, else `none`), as MassGen derives it;
/// without `checklist_require_gap_report` a mode that asks for a report requires it.
pub(super) fn gap_report(orchestrator: &Fields<'_>) -> Result<GapReport, Problem> {
    let required = orchestrator.bool("checklist_require_gap_report")?;
    let mode = orchestrator.choice(
        "gap_report_mode",
        &GapReportMode::NAMES,
        GapReportMode::from_name,
    )?;
    let defaults = GapReport::default();
    let mode = mode.unwrap_or(match required {
        Some(true) => GapReportMode::Separate,
        Some(false) => GapReportMode::None,
        None => defaults.mode,
    });
    Ok(GapReport {
        required: required.unwrap_or_else(|| mode.instructs()),
        mode,
    })
}

/// `allow_midstream_peer_updates_before_checklist_submit`: true, false or null (MassGen's
/// policy).
pub(super) fn midstream_before_submit(orchestrator: &Fields<'_>) -> Result<Option<bool>, Problem> {
    const KEY: &str = "allow_midstream_peer_updates_before_checklist_submit";
    match orchestrator.get(KEY) {
        Some(node) if matches!(node.value, Value::Null) => Ok(None),
        _ => orchestrator.bool(KEY),
    }
}

/// `fast_iteration_mode`, `max_verifications_per_round` and `max_internal_fix_loops`
/// (each limit a whole number of at least 0; null is unlimited).
pub(super) fn fast_iteration(coordination: &Fields<'_>) -> Result<FastIteration, Problem> {
    let limit = |key: &str| -> Result<Option<u32>, Problem> {
        match coordination.get(key) {
            Some(node) if matches!(node.value, Value::Null) => Ok(None),
            _ => Ok(coordination
                .unsigned(key)?
                .map(|value| u32::try_from(value).unwrap_or(u32::MAX))),
        }
    };
    Ok(FastIteration {
        mode: coordination.bool("fast_iteration_mode")?.unwrap_or(false),
        max_verifications_per_round: limit("max_verifications_per_round")?,
        max_internal_fix_loops: limit("max_internal_fix_loops")?,
    })
}

#[cfg(test)]
#[path = "fast_iteration_tests.rs"]
mod tests;
