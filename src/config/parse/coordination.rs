//! The `orchestrator.coordination:` block: planning mode, task plans, broadcast,
//! filesystem memory and skills.

use super::key_table::KeyTable;
use super::{Note, fast_iteration, modes, persona_generator};
use crate::config::error::Problem;
use crate::config::fairness::NoveltyInjection;
use crate::config::fields::Fields;
use crate::config::key_notes::Section;
use std::path::PathBuf;

use crate::config::coordination_schema::DEFAULT_SKILLS_DIRECTORY;
use crate::config::path_rules::home_dir;
use crate::config::schema::{CoordinationConfig, SkillsConfig};
use crate::config::yaml_node::Value;
use crate::protocol::BroadcastTarget;

pub(super) fn parse_coordination(
    coordination: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<CoordinationConfig, Problem> {
    KeyTable::of(Section::Coordination).check(coordination, notes);
    let defaults = CoordinationConfig::default();
    let max_tasks = coordination.unsigned("max_tasks_per_plan")?;
    if max_tasks == Some(0) {
        return Err(at_least_one(coordination, "max_tasks_per_plan", 10));
    }
    let max_broadcasts = coordination.unsigned("max_broadcasts_per_agent")?;
    if max_broadcasts == Some(0) {
        return Err(at_least_one(coordination, "max_broadcasts_per_agent", 10));
    }
    Ok(CoordinationConfig {
        enable_planning_mode: coordination
            .bool("enable_planning_mode")?
            .unwrap_or(defaults.enable_planning_mode),
        planning_mode_instruction: coordination
            .string("planning_mode_instruction")?
            .filter(|text| !text.trim().is_empty()),
        enable_agent_task_planning: coordination
            .bool("enable_agent_task_planning")?
            .unwrap_or(defaults.enable_agent_task_planning),
        max_tasks_per_plan: max_tasks.map_or(defaults.max_tasks_per_plan, saturate),
        task_planning_filesystem_mode: coordination
            .bool("task_planning_filesystem_mode")?
            .unwrap_or(defaults.task_planning_filesystem_mode),
        plan_depth: modes::plan_depth(coordination, notes)?.unwrap_or(defaults.plan_depth),
        broadcast: broadcast(coordination)?.unwrap_or(defaults.broadcast),
        broadcast_timeout: coordination
            .seconds("broadcast_timeout", 300)?
            .unwrap_or(defaults.broadcast_timeout),
        max_broadcasts_per_agent: max_broadcasts
            .map_or(defaults.max_broadcasts_per_agent, saturate),
        broadcast_wait_by_default: coordination
            .bool("broadcast_wait_by_default")?
            .unwrap_or(defaults.broadcast_wait_by_default),
        max_orchestration_restarts: coordination
            .unsigned("max_orchestration_restarts")?
            .map_or(defaults.max_orchestration_restarts, saturate),
        enable_memory_filesystem_mode: coordination
            .bool("enable_memory_filesystem_mode")?
            .unwrap_or(defaults.enable_memory_filesystem_mode),
        skills: skills(coordination)?,
        compression_target_ratio: compression_target_ratio(coordination)?
            .unwrap_or(defaults.compression_target_ratio),
        novelty_injection: coordination
            .choice(
                "novelty_injection",
                &NoveltyInjection::NAMES,
                NoveltyInjection::from_name,
            )?
            .unwrap_or(defaults.novelty_injection),
        persona_generator: persona_generator::parse_persona_generator(coordination, notes)?,
        fast_iteration: fast_iteration::fast_iteration(coordination)?,
        checklist_criteria: super::criteria::inline(coordination)?,
        checklist_criteria_preset: super::criteria::preset(coordination)?,
        criteria_generator: super::criteria::generator(coordination)?,
        criteria_mode: super::criteria::mode(coordination)?,
        bootstrap_caps: super::criteria::caps(coordination)?,
    })
}

/// `use_skills`, `skills_directory` and `load_previous_session_skills`.
fn skills(coordination: &Fields<'_>) -> Result<Option<SkillsConfig>, Problem> {
    let directory = coordination.string("skills_directory")?;
    if directory
        .as_deref()
        .is_some_and(|dir| dir.trim().is_empty())
    {
        return Err(Problem::at(
            coordination
                .get("skills_directory")
                .map_or(coordination.loc(), |node| node.loc),
            format!("`{}` is empty", coordination.key_path("skills_directory")),
        )
        .help(format!(
            "name the folder holding your skills (MassGen's default is {DEFAULT_SKILLS_DIRECTORY})"
        )));
    }
    let load_previous_sessions = coordination
        .bool("load_previous_session_skills")?
        .unwrap_or(false);
    if !coordination.bool("use_skills")?.unwrap_or(false) {
        return Ok(None);
    }
    Ok(Some(SkillsConfig {
        directory: PathBuf::from(
            directory
                .as_deref()
                .unwrap_or(DEFAULT_SKILLS_DIRECTORY)
                .trim(),
        ),
        user_directory: home_dir().map(|home| home.join(".agent").join("skills")),
        load_previous_sessions,
    }))
}

/// `compression_target_ratio`: a share of the conversation, above 0 and at most 1.
fn compression_target_ratio(coordination: &Fields<'_>) -> Result<Option<f64>, Problem> {
    let ratio = coordination.number("compression_target_ratio")?;
    match ratio {
        Some(value) if !(value > 0.0 && value <= 1.0) => Err(Problem::at(
            coordination
                .get("compression_target_ratio")
                .map_or(coordination.loc(), |node| node.loc),
            format!(
                "`{}` is {value}; give the share of the conversation to keep, above 0 and at most 1",
                coordination.key_path("compression_target_ratio")
            ),
        )
        .help("MassGen's default is 0.20 (keep a fifth, summarise the rest)")),
        _ => Ok(ratio),
    }
}

/// `broadcast: false | "agents" | "human"` (MassGen writes the off value as a YAML boolean).
fn broadcast(coordination: &Fields<'_>) -> Result<Option<BroadcastTarget>, Problem> {
    match coordination.get("broadcast").map(|node| &node.value) {
        None => Ok(None),
        Some(Value::Bool(false)) => Ok(Some(BroadcastTarget::Off)),
        Some(Value::Bool(true)) => Err(Problem::at(
            coordination
                .get("broadcast")
                .map_or(coordination.loc(), |node| node.loc),
            format!(
                "`{}` is true, but it says whom agents may ask",
                coordination.key_path("broadcast")
            ),
        )
        .help("use \"agents\" (agents answer each other), \"human\" (you answer) or false")),
        Some(_) => coordination.choice(
            "broadcast",
            &BroadcastTarget::NAMES,
            BroadcastTarget::from_name,
        ),
    }
}

fn at_least_one(fields: &Fields<'_>, key: &str, default: u32) -> Problem {
    Problem::at(
        fields.get(key).map_or(fields.loc(), |node| node.loc),
        format!("`{}` is 0", fields.key_path(key)),
    )
    .help(format!("use 1 or more (the default is {default})"))
}

fn saturate(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}
