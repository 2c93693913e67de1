//! `orchestrator.coordination` and the orchestrator's decision settings: the mode, the
//! checklist's knobs, criteria, fairness, personas, skills.

use std::path::PathBuf;
use std::time::Duration;

use crate::protocol::{BroadcastTarget, PlanDepth};

use super::criteria::{BootstrapCaps, CriteriaGenerator, CriteriaMode, GivenCriteria};
use super::fairness::NoveltyInjection;
use super::fast_iteration::{FastIteration, GapReport};
use super::persona_generator::PersonaGeneratorConfig;

/// `orchestrator.coordination_mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CoordinationMode {
    #[default]
    Voting,
    /// Each agent works on its own subtask and calls `stop` when it is done; the presenter
    /// integrates every answer.
    Decomposition,
}

impl CoordinationMode {
    pub const NAMES: [&'static str; 2] = ["voting", "decomposition"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "voting" => Some(Self::Voting),
            "decomposition" => Some(Self::Decomposition),
            _ => None,
        }
    }
}

/// Checklist-gated voting (MassGen 0.1.97): agents score the answers against criteria with
/// `submit_checklist`, and vote only when the verdict allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChecklistConfig {
    /// `voting_sensitivity: checklist_gated` at the orchestrator: every agent is gated
    /// unless its own `voting_sensitivity` says otherwise.
    pub gated: bool,
    /// `voting_threshold` (0–10, default 5): higher lets fewer criteria pass, at a lower
    /// score.
    pub voting_threshold: u32,
    /// `max_checklist_calls_per_round` (default 1).
    pub max_calls_per_round: u32,
    /// `checklist_first_answer`: `submit_checklist` is allowed before an agent's first
    /// answer.
    pub first_answer: bool,
    /// `checklist_require_gap_report` and `gap_report_mode`.
    pub gap_report: GapReport,
    /// `allow_midstream_peer_updates_before_checklist_submit` (`None`: MassGen's policy).
    pub midstream_before_submit: Option<bool>,
}

impl Default for ChecklistConfig {
    fn default() -> Self {
        Self {
            gated: false,
            voting_threshold: 5,
            max_calls_per_round: 1,
            first_answer: false,
            gap_report: GapReport::default(),
            midstream_before_submit: None,
        }
    }
}

/// MassGen's `compression_target_ratio` default: keep a fifth of the conversation.
pub const DEFAULT_COMPRESSION_TARGET_RATIO: f64 = 0.20;

/// `orchestrator.coordination`: planning mode, task plans and broadcast.
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinationConfig {
    /// Ask one agent before each turn whether it involves irreversible MCP operations, and
    /// block those tools until the final presentation.
    pub enable_planning_mode: bool,
    /// Replaces the default planning-mode instruction in agents' prompts.
    pub planning_mode_instruction: Option<String>,
    /// Give every agent the nine task-plan tools (`mcp__planning_<id>__…`).
    pub enable_agent_task_planning: bool,
    pub max_tasks_per_plan: u32,
    /// Keep each agent's task plan in `tasks/plan.json` in its workspace.
    pub task_planning_filesystem_mode: bool,
    /// The default depth of planning turns.
    pub plan_depth: PlanDepth,
    /// Whom agents may ask with `ask_others`.
    pub broadcast: BroadcastTarget,
    pub broadcast_timeout: Duration,
    pub max_broadcasts_per_agent: u32,
    /// `ask_others` waits for the replies unless the agent says `wait: false`.
    pub broadcast_wait_by_default: bool,
    /// `max_orchestration_restarts` (default 0): how many times the winner may send the
    /// turn back for another attempt after checking its final answer.
    pub max_orchestration_restarts: u32,
    /// `enable_memory_filesystem_mode`: agents keep Markdown memories in `memory/short_term/`
    /// and `memory/long_term/` of their workspaces, shown in their prompts and carried to
    /// the next turn through the winner's workspace.
    pub enable_memory_filesystem_mode: bool,
    /// `use_skills: true`: where agents' skills come from. `None` = no skills.
    pub skills: Option<SkillsConfig>,
    /// `compression_target_ratio` (MassGen's default 0.20): when an agent's context is
    /// compressed, the share of its conversation kept as it was.
    pub compression_target_ratio: f64,
    /// `novelty_injection`: pressure on agents to question their approach.
    pub novelty_injection: NoveltyInjection,
    /// `persona_generator` when enabled: a model writes each agent a persona before the turn.
    pub persona_generator: Option<PersonaGeneratorConfig>,
    /// `fast_iteration_mode`, `max_verifications_per_round`, `max_internal_fix_loops`.
    pub fast_iteration: FastIteration,
    /// `checklist_criteria_inline` (or `--eval-criteria FILE`, which replaces it).
    pub checklist_criteria: Option<GivenCriteria>,
    /// `checklist_criteria_preset`: used when neither of the above nor the generator gives
    /// criteria.
    pub checklist_criteria_preset: Option<GivenCriteria>,
    /// `evaluation_criteria_generator` when enabled.
    pub criteria_generator: Option<CriteriaGenerator>,
    /// `criteria_mode`: `bootstrap_inline` lets agents propose criteria.
    pub criteria_mode: CriteriaMode,
    /// `bootstrap_max_per_agent_per_round`, `bootstrap_max_total`.
    pub bootstrap_caps: BootstrapCaps,
}

/// MassGen's skills: directories holding a `SKILL.md`, listed in every agent's prompt and
/// readable with its file tools.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillsConfig {
    /// `skills_directory` as written (default `.agent/skills`), taken from the project dir.
    pub directory: PathBuf,
    /// The user's skills folder (`~/.agent/skills`, where openskills installs).
    pub user_directory: Option<PathBuf>,
    /// `load_previous_session_skills`: also the skills earlier runs' agents wrote
    /// (`tasks/evolving_skill/SKILL.md` in their final workspaces).
    pub load_previous_sessions: bool,
}

/// MassGen's `skills_directory` default.
pub const DEFAULT_SKILLS_DIRECTORY: &str = ".agent/skills";

impl Default for CoordinationConfig {
    fn default() -> Self {
        Self {
            enable_planning_mode: false,
            planning_mode_instruction: None,
            enable_agent_task_planning: false,
            max_tasks_per_plan: 10,
            task_planning_filesystem_mode: false,
            plan_depth: PlanDepth::Medium,
            broadcast: BroadcastTarget::Off,
            broadcast_timeout: Duration::from_secs(300),
            max_broadcasts_per_agent: 10,
            broadcast_wait_by_default: true,
            max_orchestration_restarts: 0,
            enable_memory_filesystem_mode: false,
            skills: None,
            compression_target_ratio: DEFAULT_COMPRESSION_TARGET_RATIO,
            novelty_injection: NoveltyInjection::None,
            persona_generator: None,
            fast_iteration: FastIteration::default(),
            checklist_criteria: None,
            checklist_criteria_preset: None,
            criteria_generator: None,
            criteria_mode: CriteriaMode::Static,
            bootstrap_caps: BootstrapCaps::default(),
        }
    }
}
