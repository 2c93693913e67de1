//! The resolved config: what the rest of massgen reads after loading and validation.

use std::path::PathBuf;
use std::time::Duration;

use crate::protocol::{AgentId, BroadcastTarget, FinalAnswerStrategy, PlanDepth};

use super::agent_cli::AgentCliSettings;
use super::backend_kind::BackendKind;
use super::criteria::{BootstrapCaps, CriteriaGenerator, CriteriaMode, GivenCriteria};
use super::fairness::{Fairness, NoveltyInjection};
use super::fast_iteration::{FastIteration, GapReport};
use super::granted::GrantedPath;
use super::persona_generator::PersonaGeneratorConfig;
use super::scripted::ScriptedOptions;
use super::secret::Secret;
use super::server_tools::ServerTools;
use super::tools::{ContextPath, ToolSettings};

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Where it came from, for messages and logs (a path, `@examples/NAME`, or
    /// "command line").
    pub source_name: String,
    /// Agents in config (registration) order; ids are unique.
    pub agents: Vec<AgentConfig>,
    pub orchestrator: OrchestratorConfig,
    pub timeouts: TimeoutConfig,
    pub ui: UiConfig,
    /// `limits:` — caps on what one turn, call or input may hold.
    pub limits: LimitsConfig,
    /// Paths the config grants (workspaces, context paths, massgen's own directories),
    /// with where they were written; checked by [`super::check_granted_paths`].
    pub granted_paths: Vec<GrantedPath>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AgentConfig {
    pub id: AgentId,
    pub backend: BackendConfig,
    pub system_message: Option<String>,
    /// `voting_sensitivity` for this agent's own evaluation prompt; `None` = the
    /// orchestrator's.
    pub voting_sensitivity: Option<Sensitivity>,
    /// `voting_sensitivity: checklist_gated` (true) or another mode (false) for this agent;
    /// `None` = as the orchestrator says.
    pub checklist_gated: Option<bool>,
    /// `persona`: placed before the system message in this agent's coordination prompt.
    pub persona: Option<String>,
    /// `subtask`: this agent's part of the task in `coordination_mode: decomposition`.
    pub subtask: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BackendConfig {
    pub kind: BackendKind,
    pub model: String,
    pub api_key: Option<Secret>,
    pub base_url: Option<String>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u64>,
    /// Azure OpenAI's `api-version` query parameter.
    pub api_version: Option<String>,
    /// Retries of a failed model call (rate limits, server errors, cut streams).
    pub max_retries: Option<u32>,
    /// Seconds to wait for a response to start, and then for each next chunk.
    pub timeout: Option<Duration>,
    /// `context_window`: the model's window in tokens, when the model table's is wrong or
    /// missing (a local model loaded with a smaller window).
    pub context_window: Option<u64>,
    /// The provider's documented request options the config sets (`reasoning`, `text`,
    /// `top_p`, …), sent as they are; see `provider_options` for which keys qualify.
    pub passthrough: serde_json::Map<String, serde_json::Value>,
    /// Fields merged into the top level of the request body as they are (`extra_body`).
    pub extra_body: serde_json::Map<String, serde_json::Value>,
    /// Anthropic beta names, sent as the `anthropic-beta` header (`betas`).
    pub betas: Vec<String>,
    /// Set only for `type: scripted`.
    pub scripted: Option<ScriptedOptions>,
    /// MCP servers, workspace, command line and tool filters.
    pub tools: ToolSettings,
    /// The provider's own web search and code execution.
    pub server_tools: ServerTools,
    /// `organization`: the OpenAI organization id, sent as the `OpenAI-Organization` header
    /// (read for `openai` and `grok`, as MassGen's Responses backends read it).
    pub organization: Option<String>,
    /// The web search's tuning where it takes effect: OpenRouter's `engine`,
    /// `max_results`, `search_prompt` and `search_context_size`, OpenAI's
    /// `search_context_size` (see `parse::web_search_options`).
    pub search_options: serde_json::Map<String, serde_json::Value>,
    /// Set for the agent CLIs (`claude_code`, `codex`, `gemini_cli`) only: the keys the
    /// CLI reads beyond the shared ones.
    pub agent_cli: Option<AgentCliSettings>,
    /// `upload_files`: images and files sent with the agent's question, read at load.
    pub upload_files: Vec<crate::protocol::Attachment>,
}

impl BackendConfig {
    /// A backend of `kind` serving `model`, every other setting left to its default.
    pub fn new(kind: BackendKind, model: impl Into<String>) -> Self {
        Self {
            kind,
            model: model.into(),
            api_key: None,
            base_url: None,
            temperature: None,
            max_tokens: None,
            api_version: None,
            max_retries: None,
            timeout: None,
            context_window: None,
            passthrough: serde_json::Map::new(),
            extra_body: serde_json::Map::new(),
            betas: Vec::new(),
            scripted: None,
            tools: ToolSettings::default(),
            server_tools: ServerTools::default(),
            organization: None,
            search_options: serde_json::Map::new(),
            agent_cli: None,
            upload_files: Vec::new(),
        }
    }
}

/// How hard the coordination prompts (and the novelty check) push agents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sensitivity {
    #[default]
    Lenient,
    Balanced,
    Strict,
}

impl Sensitivity {
    pub const NAMES: [&'static str; 3] = ["lenient", "balanced", "strict"];

    pub fn name(self) -> &'static str {
        match self {
            Self::Lenient => "lenient",
            Self::Balanced => "balanced",
            Self::Strict => "strict",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "lenient" => Some(Self::Lenient),
            "balanced" => Some(Self::Balanced),
            "strict" => Some(Self::Strict),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrchestratorConfig {
    pub voting_sensitivity: Sensitivity,
    pub answer_novelty_requirement: Sensitivity,
    /// After this many answers an agent may only vote. `None` = unlimited.
    pub max_new_answers_per_agent: Option<u32>,
    /// `max_new_answers_global`: after this many answers from all agents together, every
    /// agent may only vote. `None` = unlimited.
    pub max_new_answers_global: Option<u32>,
    /// The user's files shown to every agent.
    pub context_paths: Vec<ContextPath>,
    /// Where each agent's latest workspace is kept (under `.massgen/` when relative).
    pub snapshot_storage: Option<String>,
    /// Where agents get copies of their peers' workspaces (under `.massgen/` when relative).
    pub agent_temporary_workspace: Option<String>,
    /// `skip_voting`: coordination ends once every agent has answered.
    pub skip_voting: bool,
    /// `disable_injection`: agents are neither restarted nor told of peers' new answers.
    pub disable_injection: bool,
    /// `defer_voting_until_all_answered`: an agent out of answers waits until every agent
    /// has one before it votes.
    pub defer_voting_until_all_answered: bool,
    /// `skip_final_presentation`: the winner's answer is the final answer, no extra call.
    pub skip_final_presentation: bool,
    /// `final_answer_strategy`; `None` leaves it to `skip_final_presentation` (MassGen's
    /// legacy rule: `winner_reuse` when set, else `winner_present`).
    pub final_answer_strategy: Option<FinalAnswerStrategy>,
    /// `max_cost_usd` (or `--max-cost`): once a turn has spent this much, no new model call
    /// starts and the best answer so far is presented. `None` = no budget.
    pub max_cost_usd: Option<f64>,
    /// `skip_coordination_rounds` (debug): no coordination; the first agent presents at once.
    pub skip_coordination_rounds: bool,
    /// `debug_final_answer` (debug): replaces the answer the winner checks after the first
    /// attempt, to exercise orchestration restarts.
    pub debug_final_answer: Option<String>,
    /// The fairness lead cap and the peer-update knobs (MassGen's defaults when unset).
    pub fairness: Fairness,
    pub coordination: CoordinationConfig,
    /// `voting_sensitivity: checklist_gated` and its knobs.
    pub checklist: ChecklistConfig,
    /// `coordination_mode`: agents vote for a winner, or each owns a subtask and says `stop`.
    pub coordination_mode: CoordinationMode,
    /// `presenter_agent`: who integrates every answer in `coordination_mode: decomposition`
    /// (`None`: the last agent, as in MassGen).
    pub presenter_agent: Option<AgentId>,
}

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

#[derive(Clone, Debug, PartialEq)]
pub struct TimeoutConfig {
    /// `timeout_settings.orchestrator_timeout_seconds` (default 1800).
    pub orchestrator: Duration,
    /// `initial_round_timeout_seconds`: an agent's first round gets this long before it is
    /// told to wrap up. `None` = no limit.
    pub initial_round: Option<Duration>,
    /// `subsequent_round_timeout_seconds`: the same for every later round.
    pub subsequent_round: Option<Duration>,
    /// `round_timeout_grace_seconds` (default 120): after the wrap-up notice, how long
    /// before every tool but `vote` and `new_answer` is refused.
    pub round_grace: Duration,
}

impl Default for TimeoutConfig {
    fn default() -> Self {
        Self {
            orchestrator: Duration::from_secs(1800),
            initial_round: None,
            subsequent_round: None,
            round_grace: Duration::from_secs(120),
        }
    }
}

/// `limits:`: caps against hostile providers, configs and input. Sizes are bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitsConfig {
    /// Agents one config may run (default 64: MassGen ships a config with 50).
    pub max_agents: u64,
    /// Text plus reasoning (visible, signed or redacted) one model call may stream (default
    /// 4 MiB).
    pub max_response_text_bytes: u64,
    /// All tool-call arguments of one model call together (default 4 MiB).
    pub max_tool_arguments_bytes: u64,
    /// Tool calls one model call may make (default 128).
    pub max_tool_calls_per_response: u64,
    /// How much of an HTTP error body is read (default 64 KiB).
    pub max_error_body_bytes: u64,
    /// One SSE line or event, and one non-streamed JSON body (default 8 MiB).
    pub max_sse_line_bytes: u64,
    /// The question, from the command line, a file or stdin (default 1 MiB).
    pub max_question_bytes: u64,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        const MIB: u64 = 1024 * 1024;
        Self {
            max_agents: 64,
            max_response_text_bytes: 4 * MIB,
            max_tool_arguments_bytes: 4 * MIB,
            max_tool_calls_per_response: 128,
            max_error_body_bytes: 64 * 1024,
            max_sse_line_bytes: 8 * MIB,
            max_question_bytes: MIB,
        }
    }
}

/// The front end a config asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DisplayKind {
    /// The full-screen TUI (`textual_terminal`, `rich_terminal`).
    #[default]
    Tui,
    /// Line-oriented progress (`simple`, `terminal`).
    Plain,
    /// Only the final answer (`silent`, `none`).
    Quiet,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiConfig {
    /// `None` when the config does not say.
    pub display: Option<DisplayKind>,
    pub logging_enabled: bool,
}
