//! The `orchestrator:`, `timeout_settings:` and `ui:` blocks.

use std::time::Duration;

use super::checklist;
use super::coordination::parse_coordination;
use super::fairness::parse_fairness;
use super::key_table::KeyTable;
use super::tools::parse_context_paths;
use super::{Gathered, Note, modes};
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::key_notes::Section;
use crate::config::keys;
use crate::config::schema::{
    CoordinationConfig, CoordinationMode, DisplayKind, OrchestratorConfig, Sensitivity,
    TimeoutConfig, UiConfig,
};
use crate::config::yaml_node::Value;
use crate::protocol::{AgentId, FinalAnswerStrategy};

/// The `orchestrator:` block, with a problem for each field that cannot be used.
pub(super) fn parse_orchestrator(
    orchestrator: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<OrchestratorConfig, Vec<Problem>> {
    KeyTable::of(Section::Orchestrator).check(orchestrator, notes);
    if let Some(entry) = orchestrator
        .entries
        .iter()
        .find(|entry| entry.key == "timeout")
    {
        notes.push(Note {
            loc: Some(entry.key_loc),
            ignored: Some("orchestrator.timeout".into()),
            message: "ignored: orchestrator.timeout — MassGen reads timeouts from the top-level \
                      `timeout_settings` block; move them there"
                .into(),
        });
    }
    let mut found = Gathered::default();
    let flag = |found: &mut Gathered, key| found.take(orchestrator.bool(key)).flatten();
    let text = |found: &mut Gathered, key| found.take(orchestrator.string(key)).flatten();
    let config = OrchestratorConfig {
        max_cost_usd: found.take(max_cost_usd(orchestrator)).flatten(),
        voting_sensitivity: found
            .take(modes::voting_sensitivity(orchestrator, notes))
            .flatten()
            .unwrap_or_default(),
        answer_novelty_requirement: found
            .take(orchestrator.choice(
                "answer_novelty_requirement",
                &Sensitivity::NAMES,
                Sensitivity::from_name,
            ))
            .flatten()
            .unwrap_or_default(),
        max_new_answers_per_agent: found
            .take(max_new_answers(orchestrator, "max_new_answers_per_agent"))
            .flatten()
            .map(|max| u32::try_from(max).unwrap_or(u32::MAX)),
        max_new_answers_global: found
            .take(max_new_answers(orchestrator, "max_new_answers_global"))
            .flatten()
            .map(|max| u32::try_from(max).unwrap_or(u32::MAX)),
        context_paths: found
            .take(parse_context_paths(orchestrator, notes))
            .unwrap_or_default(),
        snapshot_storage: text(&mut found, "snapshot_storage"),
        agent_temporary_workspace: text(&mut found, "agent_temporary_workspace"),
        skip_voting: flag(&mut found, "skip_voting").unwrap_or(false),
        disable_injection: flag(&mut found, "disable_injection").unwrap_or(false),
        defer_voting_until_all_answered: flag(&mut found, "defer_voting_until_all_answered")
            .unwrap_or(false),
        skip_final_presentation: flag(&mut found, "skip_final_presentation").unwrap_or(false),
        final_answer_strategy: found.take(final_answer_strategy(orchestrator)).flatten(),
        skip_coordination_rounds: flag(&mut found, "skip_coordination_rounds").unwrap_or(false),
        debug_final_answer: text(&mut found, "debug_final_answer")
            .filter(|text| !text.trim().is_empty()),
        checklist: found
            .take(checklist::parse_checklist(orchestrator))
            .unwrap_or_default(),
        fairness: parse_fairness(orchestrator, &mut found),
        coordination: match orchestrator.get("coordination") {
            Some(node) => found
                .take(
                    Fields::of(node, orchestrator.key_path("coordination"))
                        .and_then(|fields| parse_coordination(&fields, notes)),
                )
                .unwrap_or_default(),
            None => CoordinationConfig::default(),
        },
        coordination_mode: found
            .take(orchestrator.choice(
                "coordination_mode",
                &CoordinationMode::NAMES,
                CoordinationMode::from_name,
            ))
            .flatten()
            .unwrap_or_default(),
        presenter_agent: text(&mut found, "presenter_agent").map(AgentId::new),
        strategy: found
            .take(super::strategy::parse_strategy(orchestrator))
            .unwrap_or_default(),
        council: found
            .take(super::strategy::parse_council(orchestrator))
            .unwrap_or_default(),
        debate: found
            .take(super::strategy::parse_debate(orchestrator))
            .unwrap_or_default(),
    };
    found.take(super::criteria::require_checklist_for_bootstrap(
        orchestrator,
        &config.coordination,
    ));
    found.finish(config)
}

/// `final_answer_strategy`; `null` is unset, as in MassGen.
fn final_answer_strategy(
    orchestrator: &Fields<'_>,
) -> Result<Option<FinalAnswerStrategy>, Problem> {
    let names = FinalAnswerStrategy::ALL.map(FinalAnswerStrategy::as_str);
    orchestrator.choice("final_answer_strategy", &names, FinalAnswerStrategy::parse)
}

/// `max_new_answers_per_agent` or `max_new_answers_global`: 1 or more, or null (no limit).
fn max_new_answers(orchestrator: &Fields<'_>, key: &str) -> Result<Option<u64>, Problem> {
    if orchestrator
        .get(key)
        .is_some_and(|node| matches!(node.value, Value::Null))
    {
        return Ok(None);
    }
    let max_answers = orchestrator.unsigned(key)?;
    if max_answers == Some(0) {
        return Err(Problem::at(
            orchestrator
                .get(key)
                .map_or(orchestrator.loc(), |node| node.loc),
            format!("`orchestrator.{key}` is 0, so no agent could ever answer"),
        )
        .help("use 1 or more, or remove it for no limit"));
    }
    Ok(max_answers)
}

fn max_cost_usd(orchestrator: &Fields<'_>) -> Result<Option<f64>, Problem> {
    let max_cost_usd = orchestrator.number("max_cost_usd")?;
    if let Some(budget) = max_cost_usd
        && !(budget.is_finite() && budget > 0.0)
    {
        return Err(Problem::at(
            orchestrator
                .get("max_cost_usd")
                .map_or(orchestrator.loc(), |node| node.loc),
            "`orchestrator.max_cost_usd` must be more than 0 (US dollars per turn)",
        )
        .help("for example `max_cost_usd: 0.50`, or remove it for no budget"));
    }
    Ok(max_cost_usd)
}

pub(super) fn parse_timeouts(
    timeouts: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<TimeoutConfig, Vec<Problem>> {
    KeyTable::of(Section::Timeouts).check(timeouts, notes);
    let mut found = Gathered::default();
    let mut config = TimeoutConfig::default();
    if let Some(seconds) = found.take(orchestrator_timeout(timeouts)).flatten() {
        config.orchestrator = seconds;
    }
    config.initial_round = found
        .take(timeouts.seconds("initial_round_timeout_seconds", 600))
        .flatten();
    config.subsequent_round = found
        .take(timeouts.seconds("subsequent_round_timeout_seconds", 300))
        .flatten();
    if let Some(grace) = found.take(round_grace(timeouts)).flatten() {
        config.round_grace = grace;
    }
    found.finish(config)
}

fn orchestrator_timeout(timeouts: &Fields<'_>) -> Result<Option<Duration>, Problem> {
    let Some(seconds) = timeouts.number("orchestrator_timeout_seconds")? else {
        return Ok(None);
    };
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(Problem::at(
            timeouts
                .get("orchestrator_timeout_seconds")
                .map_or(timeouts.loc(), |node| node.loc),
            "`timeout_settings.orchestrator_timeout_seconds` must be more than 0",
        )
        .help("the default is 1800 (30 minutes)"));
    }
    Ok(Some(Duration::from_secs_f64(seconds.min(1e9))))
}

fn round_grace(timeouts: &Fields<'_>) -> Result<Option<Duration>, Problem> {
    let Some(grace) = timeouts.number("round_timeout_grace_seconds")? else {
        return Ok(None);
    };
    if !grace.is_finite() || !(0.0..=86_400.0).contains(&grace) {
        return Err(Problem::at(
            timeouts
                .get("round_timeout_grace_seconds")
                .map_or(timeouts.loc(), |node| node.loc),
            format!(
                "`timeout_settings.round_timeout_grace_seconds` is {grace}; give seconds \
                 between 0 and 86400"
            ),
        )
        .help("the default is 120"));
    }
    Ok(Some(Duration::from_secs_f64(grace)))
}

pub(super) fn parse_ui(ui: &Fields<'_>, notes: &mut Vec<Note>) -> Result<UiConfig, Problem> {
    KeyTable::of(Section::Ui).check(ui, notes);
    // `display_type` is MassGen's key; `type` is what many of its shipped configs write.
    let by_type = display_kind(ui, "type", notes)?;
    let display = match display_kind(ui, "display_type", notes)? {
        Some(display) => display,
        None => by_type.flatten(),
    };
    Ok(UiConfig {
        display,
        logging_enabled: ui.bool("logging_enabled")?.unwrap_or(true),
    })
}

/// The display `key` names: `None` when it is absent, `Some(None)` for `web` (noted: the
/// terminal display is used).
fn display_kind(
    fields: &Fields<'_>,
    key: &str,
    notes: &mut Vec<Note>,
) -> Result<Option<Option<DisplayKind>>, Problem> {
    if let Some(node) = fields.get(key)
        && node
            .as_str()
            .is_some_and(|name| name.trim().eq_ignore_ascii_case("web"))
    {
        let path = fields.key_path(key);
        notes.push(Note {
            loc: Some(node.loc),
            message: format!(
                "ignored: {path}: web — the browser UI is not supported yet; the terminal \
                 display is used"
            ),
            ignored: Some(path),
        });
        return Ok(Some(None));
    }
    let display = fields.choice(key, &keys::DISPLAY_TYPES, |name| {
        match name.trim().to_ascii_lowercase().as_str() {
            "textual_terminal" | "rich_terminal" | "textual" | "rich" | "tui" => {
                Some(DisplayKind::Tui)
            }
            "simple" | "terminal" | "plain" => Some(DisplayKind::Plain),
            "silent" | "none" | "quiet" => Some(DisplayKind::Quiet),
            _ => None,
        }
    })?;
    Ok(display.map(Some))
}

#[cfg(test)]
#[path = "display_tests.rs"]
mod display_tests;

#[cfg(test)]
#[path = "answer_limits_tests.rs"]
mod answer_limits_tests;

#[cfg(test)]
#[path = "final_answer_tests.rs"]
mod final_answer_tests;
