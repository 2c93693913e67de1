//! Checklist-gated voting at the orchestrator: `voting_sensitivity: checklist_gated`,
//! `voting_threshold`, `max_checklist_calls_per_round`, `checklist_first_answer`, the gap
//! report and peers' answers before the checklist.

use super::{fast_iteration, modes};
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::schema::ChecklistConfig;

/// MassGen's `voting_threshold` scale runs from 0 (strictest) to 10.
const MAX_VOTING_THRESHOLD: u64 = 10;

pub(super) fn parse_checklist(orchestrator: &Fields<'_>) -> Result<ChecklistConfig, Problem> {
    let defaults = ChecklistConfig::default();
    let at = |key: &str| {
        orchestrator
            .get(key)
            .map_or(orchestrator.loc(), |node| node.loc)
    };
    let voting_threshold = match orchestrator.unsigned("voting_threshold")? {
        Some(value) if value > MAX_VOTING_THRESHOLD => {
            return Err(Problem::at(
                at("voting_threshold"),
                format!(
                    "`{}` is {value}, but MassGen's threshold runs from 0 to \
                     {MAX_VOTING_THRESHOLD}",
                    orchestrator.key_path("voting_threshold")
                ),
            )
            .help("0 asks every checklist criterion to pass at a high score; 10 asks the fewest"));
        }
        Some(value) => u32::try_from(value).unwrap_or(defaults.voting_threshold),
        None => defaults.voting_threshold,
    };
    let max_calls_per_round = match orchestrator.unsigned("max_checklist_calls_per_round")? {
        Some(0) => {
            return Err(Problem::at(
                at("max_checklist_calls_per_round"),
                format!(
                    "`{}` is 0, so no agent could submit its checklist and vote",
                    orchestrator.key_path("max_checklist_calls_per_round")
                ),
            )
            .help("use 1 (MassGen's default) or more"));
        }
        Some(value) => u32::try_from(value).unwrap_or(u32::MAX),
        None => defaults.max_calls_per_round,
    };
    Ok(ChecklistConfig {
        gated: modes::checklist_gated(orchestrator).unwrap_or(false),
        voting_threshold,
        max_calls_per_round,
        first_answer: orchestrator
            .bool("checklist_first_answer")?
            .unwrap_or(defaults.first_answer),
        gap_report: fast_iteration::gap_report(orchestrator)?,
        midstream_before_submit: fast_iteration::midstream_before_submit(orchestrator)?,
    })
}
