//! How one turn runs, from the config, the mode and the options it was asked with: who
//! takes part, the coordination rules (with MassGen's refine-off presets), task plans,
//! broadcast and planning mode.

use std::time::Duration;

use crate::config::{Config, CoordinationMode, CriteriaMode};
use crate::orchestrator::coordination::bootstrap::Bootstrap;
use crate::orchestrator::coordination::{ChecklistRules, Rules};
use crate::orchestrator::planning_mode::DEFAULT_INSTRUCTION;
use crate::orchestrator::turn_tools::BroadcastSettings;
use crate::protocol::{AgentId, BroadcastTarget, FinalAnswerStrategy, Mode, Strategy, TurnOptions};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskPlanning {
    /// Keep each plan in `tasks/plan.json` in the agent's workspace.
    pub filesystem: bool,
    pub max_tasks: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TurnSettings {
    /// The agents that work on this turn, config order.
    pub participants: Vec<AgentId>,
    pub rules: Rules,
    /// How the final answer is made: reused as the winner wrote it, presented, or
    /// synthesized from every answer.
    pub final_answer: FinalAnswerStrategy,
    pub task_planning: Option<TaskPlanning>,
    pub broadcast: Option<BroadcastSettings>,
    pub broadcast_timeout: Duration,
    pub max_broadcasts: u32,
    /// Ask one agent about irreversible operations before the turn.
    pub planning_mode: bool,
    pub planning_instruction: String,
    /// Things the user should know about how the turn runs (shown as warnings).
    pub notes: Vec<String>,
    /// How agents reach the answer: the turn's option, else the config's.
    pub strategy: Strategy,
}

/// `human`: someone can answer questions (a terminal, not `--automation`).
pub fn resolve(config: &Config, mode: Mode, options: &TurnOptions, human: bool) -> TurnSettings {
    let orchestrator = &config.orchestrator;
    let coordination = &orchestrator.coordination;
    let mut notes = Vec::new();
    // A chairman with its own backend block only chairs.
    let outside_chairman = config
        .orchestrator
        .council
        .chairman
        .as_ref()
        .filter(|_| config.orchestrator.council.chairman_outside);
    let all: Vec<AgentId> = config
        .agents
        .iter()
        .map(|agent| agent.id.clone())
        .filter(|id| Some(id) != outside_chairman)
        .collect();
    let participants = match &options.single_agent {
        Some(single) if all.contains(single) => vec![single.clone()],
        Some(single) => {
            notes.push(format!(
                "there is no agent `{single}` (agents: {}); every agent works on this turn",
                names(&all)
            ));
            all
        }
        None => all,
    };
    let single = participants.len() == 1;
    let refine_off = !options.refine;
    let max_new_answers_per_agent = if refine_off {
        Some(
            orchestrator
                .max_new_answers_per_agent
                .map_or(1, |max| max.min(1)),
        )
    } else {
        orchestrator.max_new_answers_per_agent
    };
    // Refine off is MassGen's quick mode: one agent's answer stands as it is; several
    // agents' answers are synthesized by the winner.
    let decomposition = orchestrator.coordination_mode == CoordinationMode::Decomposition;
    let final_answer = match orchestrator.final_answer_strategy {
        // MassGen's presenter always assembles every agent's work in decomposition mode.
        _ if decomposition => FinalAnswerStrategy::Synthesize,
        _ if refine_off && single => FinalAnswerStrategy::WinnerReuse,
        _ if refine_off => FinalAnswerStrategy::Synthesize,
        Some(strategy) => strategy,
        None if orchestrator.skip_final_presentation => FinalAnswerStrategy::WinnerReuse,
        None => FinalAnswerStrategy::WinnerPresent,
    };
    let defer_voting = orchestrator.defer_voting_until_all_answered || (refine_off && !single);
    // MassGen: several agents with one answer each and no deferred vote synthesize as soon
    // as everyone has answered; a vote could not change what is synthesized.
    let synthesize_without_votes = final_answer == FinalAnswerStrategy::Synthesize
        && !decomposition
        && !single
        && !defer_voting
        && max_new_answers_per_agent == Some(1);
    let strategy = turn_strategy(config, options, decomposition, &mut notes);
    // Council and debate members answer alike; only what follows differs.
    let council = matches!(strategy, Strategy::Council | Strategy::Debate);
    let rules = Rules {
        max_new_answers_per_agent,
        max_new_answers_global: orchestrator.max_new_answers_global,
        novelty: orchestrator.answer_novelty_requirement,
        skip_voting: orchestrator.skip_voting || (refine_off && single) || synthesize_without_votes,
        disable_injection: orchestrator.disable_injection || (refine_off && !single),
        defer_voting,
        checklist: checklist_rules(config),
        fairness: orchestrator.fairness,
        presenter: decomposition_presenter(config),
        independent: false,
    };
    // A council's (or debate's) members answer once each, alone, and nobody votes.
    let rules = if council {
        Rules {
            max_new_answers_per_agent: Some(1),
            max_new_answers_global: None,
            skip_voting: true,
            disable_injection: true,
            defer_voting: false,
            checklist: None,
            independent: true,
            ..rules
        }
    } else {
        rules
    };
    let final_answer = if council {
        FinalAnswerStrategy::Synthesize
    } else {
        final_answer
    };
    if coordination.enable_memory_filesystem_mode
        && !config
            .agents
            .iter()
            .any(|agent| agent.backend.tools.cwd.is_some())
    {
        notes.push(
            "`enable_memory_filesystem_mode` keeps memories in the agents' workspaces, but no \
             agent has one (`cwd`), so no memories are kept"
                .into(),
        );
    }
    let plan_mode = matches!(mode, Mode::Planning | Mode::Execute);
    let task_planning =
        (coordination.enable_agent_task_planning || plan_mode).then_some(TaskPlanning {
            filesystem: coordination.task_planning_filesystem_mode || plan_mode,
            max_tasks: coordination.max_tasks_per_plan,
        });
    let wanted = match mode {
        Mode::Planning => options.broadcast.unwrap_or(BroadcastTarget::Human),
        Mode::Normal | Mode::Execute => coordination.broadcast,
    };
    let asked_for = match mode {
        Mode::Planning => options.broadcast.is_some(),
        Mode::Normal | Mode::Execute => true,
    };
    let target = if wanted == BroadcastTarget::Human && !human {
        // Planning asks the user by default; only a request for it is worth a warning.
        if asked_for {
            notes.push(
                "agents cannot ask you questions here (no terminal to answer on), so they \
                 decide on their own"
                    .into(),
            );
        }
        BroadcastTarget::Off
    } else if wanted == BroadcastTarget::Agents && participants.len() < 2 {
        BroadcastTarget::Off
    } else {
        wanted
    };
    let broadcast = (target != BroadcastTarget::Off).then_some(BroadcastSettings {
        target,
        wait_by_default: coordination.broadcast_wait_by_default,
    });
    TurnSettings {
        participants,
        rules,
        final_answer,
        task_planning,
        broadcast,
        broadcast_timeout: coordination.broadcast_timeout,
        max_broadcasts: coordination.max_broadcasts_per_agent,
        planning_mode: coordination.enable_planning_mode,
        planning_instruction: coordination
            .planning_mode_instruction
            .clone()
            .unwrap_or_else(|| DEFAULT_INSTRUCTION.to_string()),
        notes,
        strategy,
    }
}

/// The turn's strategy: its option, else the config's. Decomposition mode has no council
/// and no debate: that is said, never silently replaced.
fn turn_strategy(
    config: &Config,
    options: &TurnOptions,
    decomposition: bool,
    notes: &mut Vec<String>,
) -> Strategy {
    let wanted = options.strategy.unwrap_or(config.orchestrator.strategy);
    match wanted {
        Strategy::Council | Strategy::Debate if decomposition => {
            notes.push(format!(
                "the {} strategy does not apply in decomposition mode; agents work on their \
                 subtasks",
                wanted.as_str()
            ));
            Strategy::Vote
        }
        strategy => strategy,
    }
}

/// The gated agents and the gate's knobs; `None` when no agent is gated.
fn checklist_rules(config: &Config) -> Option<ChecklistRules> {
    let checklist = config.orchestrator.checklist;
    let coordination = &config.orchestrator.coordination;
    let gated: Vec<AgentId> = config
        .agents
        .iter()
        .filter(|agent| agent.checklist_gated.unwrap_or(checklist.gated))
        .map(|agent| agent.id.clone())
        .collect();
    (!gated.is_empty()).then(|| ChecklistRules {
        voting_threshold: checklist.voting_threshold,
        max_calls_per_round: checklist.max_calls_per_round,
        first_answer: checklist.first_answer,
        gap_report_required: checklist.gap_report.required,
        // MassGen's default: allowed unless peers' answers wait for a restart.
        midstream_before_submit: checklist.midstream_before_submit.unwrap_or(
            !config
                .orchestrator
                .fairness
                .defer_peer_updates_until_restart,
        ),
        bootstrap: match coordination.criteria_mode {
            CriteriaMode::Static => None,
            CriteriaMode::BootstrapInline => {
                Some(Bootstrap::new(coordination.bootstrap_caps, false))
            }
            CriteriaMode::BootstrapSubagent => {
                Some(Bootstrap::new(coordination.bootstrap_caps, true))
            }
        },
        ..ChecklistRules::for_agents(gated)
    })
}

fn names(ids: &[AgentId]) -> String {
    ids.iter()
        .map(AgentId::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;

/// In `coordination_mode: decomposition`, who presents: `presenter_agent`, else the last
/// agent (MassGen's pick).
fn decomposition_presenter(config: &Config) -> Option<AgentId> {
    if config.orchestrator.coordination_mode != CoordinationMode::Decomposition {
        return None;
    }
    config
        .orchestrator
        .presenter_agent
        .clone()
        .or_else(|| config.agents.last().map(|agent| agent.id.clone()))
}
