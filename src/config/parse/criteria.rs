//! `orchestrator.coordination.checklist_criteria_inline`, `checklist_criteria_preset`,
//! `evaluation_criteria_generator` and `criteria_mode` with its bootstrap caps: the
//! criteria checklist-gated voting scores.

use super::modes;
use crate::config::criteria::{BootstrapCaps, CriteriaGenerator, CriteriaMode, GivenCriteria};
use crate::config::criteria_presets::{self, PRESET_NAMES};
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::schema::CoordinationConfig;
use crate::protocol::{CriteriaSource, EvalCriterion, criteria_from_list};

const INLINE_EXAMPLE: &str =
    "checklist_criteria_inline:\n  - text: Every claim cites a source\n    category: primary";

/// `checklist_criteria_inline`: a list of `{text, category}` (an empty list = none).
pub(super) fn inline(coordination: &Fields<'_>) -> Result<Option<GivenCriteria>, Problem> {
    let key = "checklist_criteria_inline";
    let Some(node) = coordination.get(key) else {
        return Ok(None);
    };
    let serde_json::Value::Array(items) = node.to_json() else {
        return Err(coordination.wrong_type(key, node, "a list of criteria", INLINE_EXAMPLE));
    };
    if items.is_empty() {
        return Ok(None);
    }
    let criteria = criteria_from_list(&items).map_err(|error| {
        Problem::at(
            node.loc,
            format!("`{}`: {error}", coordination.key_path(key)),
        )
        .help(format!("write each criterion as\n{INLINE_EXAMPLE}"))
    })?;
    Ok(Some(GivenCriteria {
        source: CriteriaSource::Inline,
        criteria,
    }))
}

/// `checklist_criteria_preset`: one of MassGen's named criteria sets.
pub(super) fn preset(coordination: &Fields<'_>) -> Result<Option<GivenCriteria>, Problem> {
    let chosen = coordination.choice("checklist_criteria_preset", &PRESET_NAMES, |name| {
        criteria_presets::preset(name.trim())
    })?;
    Ok(chosen.map(|preset| GivenCriteria {
        source: CriteriaSource::Preset,
        criteria: preset
            .iter()
            .enumerate()
            .map(|(index, (category, text))| EvalCriterion {
                id: format!("E{}", index + 1),
                category: (*category).to_string(),
                text: (*text).to_string(),
            })
            .collect(),
    }))
}

/// `evaluation_criteria_generator`, when `enabled: true`.
pub(super) fn generator(coordination: &Fields<'_>) -> Result<Option<CriteriaGenerator>, Problem> {
    let key = "evaluation_criteria_generator";
    let Some(node) = coordination.get(key) else {
        return Ok(None);
    };
    let block = Fields::of(node, coordination.key_path(key))?;
    if !block.bool("enabled")?.unwrap_or(false) {
        return Ok(None);
    }
    let defaults = CriteriaGenerator::default();
    let count = |name: &str, default: u32| -> Result<u32, Problem> {
        match block.unsigned(name)? {
            Some(0) => Err(Problem::at(
                block.get(name).map_or(block.loc(), |node| node.loc),
                format!(
                    "`{}` is 0; a checklist needs criteria",
                    block.key_path(name)
                ),
            )
            .help(format!("MassGen's default is {default}"))),
            Some(value) => Ok(u32::try_from(value).unwrap_or(u32::MAX)),
            None => Ok(default),
        }
    };
    let min_criteria = count("min_criteria", defaults.min_criteria)?;
    let max_criteria = count("max_criteria", defaults.max_criteria)?;
    if max_criteria < min_criteria {
        return Err(Problem::at(
            block
                .get("max_criteria")
                .map_or(block.loc(), |node| node.loc),
            format!(
                "`{}` ({max_criteria}) is below `min_criteria` ({min_criteria})",
                block.key_path("max_criteria")
            ),
        )
        .help("give a range, e.g. min_criteria: 4, max_criteria: 7"));
    }
    Ok(Some(CriteriaGenerator {
        min_criteria,
        max_criteria,
    }))
}

/// `criteria_mode`.
pub(super) fn mode(coordination: &Fields<'_>) -> Result<CriteriaMode, Problem> {
    Ok(coordination
        .choice(
            "criteria_mode",
            &CriteriaMode::NAMES,
            CriteriaMode::from_name,
        )?
        .unwrap_or_default())
}

/// `bootstrap_max_per_agent_per_round` and `bootstrap_max_total` (non-negative; 0 = no cap).
pub(super) fn caps(coordination: &Fields<'_>) -> Result<BootstrapCaps, Problem> {
    let defaults = BootstrapCaps::default();
    let cap = |key: &str, default: u32| -> Result<u32, Problem> {
        Ok(coordination
            .unsigned(key)?
            .map_or(default, |value| u32::try_from(value).unwrap_or(u32::MAX)))
    };
    Ok(BootstrapCaps {
        per_agent_per_round: cap(
            "bootstrap_max_per_agent_per_round",
            defaults.per_agent_per_round,
        )?,
        total: cap("bootstrap_max_total", defaults.total)?,
    })
}

/// MassGen refuses to start `bootstrap_inline` without checklist-gated voting: the
/// `submit_checklist` tool that carries `proposed_criteria` would never be offered.
/// `bootstrap_subagent`'s critic proposes criteria only a checklist scores, so it needs
/// checklist-gated voting too.
pub(super) fn require_checklist_for_bootstrap(
    orchestrator: &Fields<'_>,
    coordination: &CoordinationConfig,
) -> Result<(), Problem> {
    let mode = coordination.criteria_mode;
    if mode == CriteriaMode::Static || modes::checklist_gated(orchestrator) == Some(true) {
        return Ok(());
    }
    let voting = orchestrator
        .string("voting_sensitivity")
        .ok()
        .flatten()
        .unwrap_or_else(|| "unset".into());
    let (name, why) = if mode == CriteriaMode::BootstrapInline {
        (
            "bootstrap_inline",
            "The submit_checklist tool that carries proposed_criteria is only registered \
             under checklist_gated voting.",
        )
    } else {
        (
            "bootstrap_subagent",
            "The critic's criteria are scored only by the checklist of checklist_gated \
             voting.",
        )
    };
    let at = orchestrator
        .get("coordination")
        .and_then(|node| Fields::of(node, "coordination").ok())
        .and_then(|coordination| coordination.get("criteria_mode"))
        .map_or_else(|| orchestrator.loc(), |node| node.loc);
    Err(Problem::at(
        at,
        format!(
            "criteria_mode='{name}' requires voting_sensitivity='checklist_gated', got \
             '{voting}'. {why}"
        ),
    )
    .help("Either set voting_sensitivity to 'checklist_gated' or set criteria_mode to 'static'."))
}

#[cfg(test)]
#[path = "criteria_tests.rs"]
mod tests;
