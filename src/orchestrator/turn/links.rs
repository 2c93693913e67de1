//! What agents' tasks get from the turn: their link to model, tools and driver, the
//! context their prompts are built from, and their turn tools (task plan, broadcast,
//! planning mode's gate).

use std::sync::Arc;

use super::gate::PlanningGate;
use super::settings::TurnSettings;
use super::{Driver, PlanTurn, RunContext, TurnRequest, plan};
use crate::orchestrator::agent_link::AgentLink;
use crate::orchestrator::approvals::agent_cli_warning;
use crate::orchestrator::channel::AgentSink;
use crate::orchestrator::inbox::HumanInbox;
use crate::orchestrator::model_call::ModelLink;
use crate::orchestrator::prompts::{FilesystemView, PromptContext, RoundKnobs};
use crate::orchestrator::task_tools::TaskPlanTools;
use crate::orchestrator::turn_tools::{Gate, TurnTools};
use crate::protocol::{AgentId, Attachment, EventMsg, TaskProgress};
use crate::workspace::ContextRootSpec;

/// What the turn hands its agents' tasks, settled when it starts.
pub(super) struct TaskKit {
    /// The config's context paths and those attached to the question.
    context_paths: Vec<ContextRootSpec>,
    /// Each agent's system message for this turn (its own, plus plan-execution guidance).
    system_messages: Vec<Option<String>>,
    /// Each agent's attachments: the question's, then its backend's `upload_files`.
    attachments: Vec<Vec<Attachment>>,
    /// Each agent's turn tools, config order (empty for agents not taking part).
    pub(super) turn_tools: Vec<TurnTools>,
    /// Human input typed during the turn, for every agent's next tool result.
    pub(super) inbox: HumanInbox,
}

impl TaskKit {
    pub(super) fn new(
        run: &RunContext,
        request: &TurnRequest,
        settings: &TurnSettings,
        planning_gate: &PlanningGate,
    ) -> Self {
        let context_paths = run
            .workspaces
            .iter()
            .flat_map(|workspaces| workspaces.layout().context.iter().cloned())
            .chain(request.attached.iter().cloned())
            .collect();
        let system_messages = run
            .config
            .agents
            .iter()
            .map(|agent| {
                plan::system_message(agent.system_message.as_deref(), request.plan.as_ref())
            })
            .collect();
        let attachments = run
            .config
            .agents
            .iter()
            .map(|agent| {
                let mut attachments = request.attachments.clone();
                attachments.extend(agent.backend.upload_files.iter().cloned());
                attachments
            })
            .collect();
        Self {
            context_paths,
            system_messages,
            attachments,
            turn_tools: build_turn_tools(
                run,
                settings,
                &planning_gate.shared,
                request.plan.as_ref(),
            ),
            inbox: HumanInbox::default(),
        }
    }

    pub(super) fn context_paths(&self) -> &[ContextRootSpec] {
        &self.context_paths
    }

    pub(super) fn system_message(&self, index: usize) -> Option<&str> {
        self.system_messages[index].as_deref()
    }

    pub(super) fn attachments(&self, index: usize) -> &[Attachment] {
        &self.attachments[index]
    }
}

impl Driver<'_> {
    pub(super) fn prompt_context(&self, agent_index: usize) -> PromptContext<'_> {
        let config = &self.run.config;
        PromptContext {
            question: &self.request.prompt,
            attachments: self.task_kit.attachments(agent_index),
            history: &self.request.history,
            system_message: self.task_kit.system_message(agent_index),
            persona: self
                .persona(agent_index)
                .or(config.agents[agent_index].persona.as_deref()),
            persona_after_peers: self.persona_after_peers(agent_index),
            own_anon: self
                .coordination
                .mapping()
                .anon(&config.agents[agent_index].id),
            planning_instruction: self
                .planning_gate
                .active
                .then_some(self.settings.planning_instruction.as_str()),
            broadcast: self.settings.broadcast,
            voting_sensitivity: config.agents[agent_index]
                .voting_sensitivity
                .unwrap_or(config.orchestrator.voting_sensitivity),
            checklist: self
                .settings
                .rules
                .checklist
                .as_ref()
                .filter(|checklist| checklist.gated.contains(&config.agents[agent_index].id))
                .map(|checklist| checklist.criteria.as_slice()),
            novelty: config.orchestrator.answer_novelty_requirement,
            novelty_injection: config.orchestrator.coordination.novelty_injection,
            round_knobs: RoundKnobs {
                fast_iteration: config.orchestrator.coordination.fast_iteration,
                gap_report: Some(config.orchestrator.checklist.gap_report.mode),
                propose_criteria: config.orchestrator.coordination.criteria_mode
                    == crate::config::CriteriaMode::BootstrapInline,
            },
            today: &self.request.today,
            filesystem: self.run.workspaces.as_ref().and_then(|workspaces| {
                let dirs = workspaces.dirs(agent_index)?;
                Some(FilesystemView {
                    workspace: &dirs.workspace,
                    temp: &dirs.temp,
                    context: self.task_kit.context_paths(),
                    peers: workspaces
                        .peers()
                        .map(|(anon, dirs)| (anon, dirs.workspace.as_path()))
                        .collect(),
                })
            }),
            memory: config
                .orchestrator
                .coordination
                .enable_memory_filesystem_mode
                && self
                    .run
                    .workspaces
                    .as_ref()
                    .is_some_and(|workspaces| workspaces.dirs(agent_index).is_some()),
            multimodal: config.agents[agent_index].backend.tools.multimodal_tools
                && self
                    .run
                    .workspaces
                    .as_ref()
                    .is_some_and(|workspaces| workspaces.dirs(agent_index).is_some()),
            code_tools: self
                .run
                .code_tools
                .get(agent_index)
                .and_then(Option::as_deref),
            skills: self.run.workspaces.as_ref().map_or(&[], |workspaces| {
                workspaces.layout().skills.skills.as_slice()
            }),
            progress: self.progress_of_answers(),
            attempt_feedback: self.attempts.feedback.as_deref(),
            decomposition: self
                .coordination
                .is_decomposition()
                .then(|| self.subtask(agent_index)),
            permissions: config.agents[agent_index]
                .backend
                .tools
                .permissions
                .as_ref(),
        }
    }

    /// Tells front ends which files each taking part agent's question carries this turn.
    pub(super) fn announce_attachments(&mut self) {
        for agent in self.coordination.agents().to_vec() {
            let Some(index) = self.agent_index(&agent) else {
                continue;
            };
            let attachments = self.task_kit.attachments(index).to_vec();
            if !attachments.is_empty() {
                self.emit(Some(&agent), EventMsg::AttachmentsSent { attachments });
            }
        }
    }

    /// The task progress each agent with an answer had when that answer was accepted.
    fn progress_of_answers(&self) -> Vec<(String, TaskProgress)> {
        let mut progress: Vec<(String, TaskProgress)> = self
            .rounds
            .answer_progress
            .iter()
            .filter(|(_, progress)| progress.total > 0)
            .filter_map(|(agent, progress)| {
                let anon = self.coordination.mapping().anon(agent)?;
                Some((anon.to_string(), *progress))
            })
            .collect();
        progress.sort_by(|a, b| a.0.cmp(&b.0));
        progress
    }

    /// The link of the work after coordination (presenting, chairing, checking the final
    /// answer): it asks nobody, and neither planning mode nor a checklist gates it.
    pub(super) fn closing_link(&self, agent: &AgentId, index: usize) -> AgentLink {
        let mut link = self.agent_link(agent, index);
        link.turn_tools.broadcast = None;
        link.turn_tools.gate = None;
        link.turn_tools.checklist = false;
        link
    }

    /// What an agent's task (round or presentation) needs, for the agent at `index`.
    pub(super) fn agent_link(&self, agent: &AgentId, index: usize) -> AgentLink {
        AgentLink {
            model: self.model_link(agent, index),
            router: Arc::clone(&self.run.routers[index]),
            inbox: self.task_kit.inbox.clone(),
            turn_tools: self
                .task_kit
                .turn_tools
                .get(index)
                .cloned()
                .unwrap_or_default(),
            execution: self
                .run
                .config
                .agents
                .get(index)
                .map(|config| config.backend.tools.execution)
                .unwrap_or_default(),
            tool_calls_made: self
                .run
                .tool_calls_made
                .get(index)
                .map_or_else(Arc::default, Arc::clone),
            approvals: self.run.approvals.gate(index),
        }
    }

    /// What a side call to the model of the agent at `index` needs (no tools).
    pub(super) fn model_link(&self, agent: &AgentId, index: usize) -> ModelLink {
        ModelLink::new(
            AgentSink::new(agent.clone(), self.tx.clone()),
            Arc::clone(&self.run.backends[index]),
        )
    }

    /// Agents whose CLI runs its own tools hear that their `permissions:` cover only
    /// massgen's tools they call.
    pub(super) fn warn_agent_cli_permissions(&mut self) {
        let mut warnings = Vec::new();
        for (index, agent) in self.run.config.agents.iter().enumerate() {
            let runs_own_loop = self
                .run
                .backends
                .get(index)
                .is_some_and(|backend| backend.agent_loop().is_some());
            if runs_own_loop
                && agent.backend.tools.permissions.is_some()
                && self.coordination.agents().contains(&agent.id)
            {
                let message = agent_cli_warning(&agent.id, agent.backend.kind.name());
                warnings.push((agent.id.clone(), message));
            }
        }
        for (agent, message) in warnings {
            self.emit(Some(&agent), EventMsg::Warning { message });
        }
    }

    /// The agent's task-plan tools this turn, if it has any.
    pub(super) fn task_plan(&self, index: usize) -> Option<&Arc<TaskPlanTools>> {
        self.task_kit.turn_tools.get(index)?.task_plan.as_ref()
    }
}

/// Each participant's task-plan tools (in its workspace's `tasks/plan.json` in filesystem
/// mode), broadcast tools and the planning-mode gate; nothing for the others.
fn build_turn_tools(
    run: &RunContext,
    settings: &TurnSettings,
    gate: &Arc<Gate>,
    plan: Option<&PlanTurn>,
) -> Vec<TurnTools> {
    run.config
        .agents
        .iter()
        .enumerate()
        .map(|(index, agent)| {
            if !settings.participants.contains(&agent.id) {
                return TurnTools::default();
            }
            let workspace = run
                .workspaces
                .as_ref()
                .and_then(|workspaces| workspaces.dirs(index))
                .map(|dirs| dirs.workspace.clone());
            let task_plan = settings.task_planning.map(|planning| {
                let file = run
                    .workspaces
                    .as_ref()
                    .and_then(|workspaces| workspaces.dirs(index))
                    .filter(|_| planning.filesystem)
                    .map(|dirs| dirs.workspace.join("tasks").join("plan.json"));
                let max_tasks = plan.map_or(planning.max_tasks, |plan| {
                    planning.max_tasks.max(plan.task_count())
                });
                Arc::new(TaskPlanTools::new(&agent.id, max_tasks, file))
            });
            TurnTools {
                task_plan,
                broadcast: settings.broadcast,
                gate: Some(Arc::clone(gate)),
                checklist: settings
                    .rules
                    .checklist
                    .as_ref()
                    .is_some_and(|checklist| checklist.gated.contains(&agent.id)),
                propose_criteria: settings
                    .rules
                    .checklist
                    .as_ref()
                    .is_some_and(|checklist| checklist.bootstrap.is_some()),
                workspace,
            }
        })
        .collect()
}
