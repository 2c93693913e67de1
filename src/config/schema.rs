//! The resolved config: what the rest of massgen reads after loading and validation.

use std::time::Duration;

use crate::protocol::{AgentId, FinalAnswerStrategy};

use super::agent_cli::AgentCliSettings;
use super::backend_kind::BackendKind;
use super::fairness::Fairness;
use super::granted::GrantedPath;
use super::scripted::ScriptedOptions;
use super::secret::Secret;
use super::server_tools::ServerTools;
use super::tools::{ContextPath, ToolSettings};

pub use super::coordination_schema::{
    ChecklistConfig, CoordinationConfig, CoordinationMode, SkillsConfig,
};

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
    /// `strategy`: how agents reach the answer (vote, the default, council or debate).
    pub strategy: crate::protocol::Strategy,
    /// `rank_own` and `chairman`: how a council ranks and who synthesizes.
    pub council: CouncilConfig,
    /// `debate_rounds` and `debate_finish`: how long a debate lasts and how it ends.
    pub debate: DebateConfig,
}

/// The debate strategy's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebateConfig {
    /// `debate_rounds` (1–10, default 2): rounds of critique and revision.
    pub rounds: u32,
    /// `debate_finish`: the chairman synthesizes (default), or the members vote.
    pub finish: DebateFinish,
}

impl Default for DebateConfig {
    fn default() -> Self {
        Self {
            rounds: 2,
            finish: DebateFinish::Synthesize,
        }
    }
}

/// How a debate ends (`debate_finish`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DebateFinish {
    /// The chairman writes the final answer from the whole thread.
    #[default]
    Synthesize,
    /// Every member votes once among the final answers; the most voted presents.
    Vote,
}

impl DebateFinish {
    pub const NAMES: [&'static str; 2] = ["synthesize", "vote"];

    pub fn parse(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "synthesize" => Some(Self::Synthesize),
            "vote" => Some(Self::Vote),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Synthesize => "synthesize",
            Self::Vote => "vote",
        }
    }
}

/// The council strategy's keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CouncilConfig {
    /// `rank_own`: a member also ranks its own answer (default false: it never sees it).
    pub rank_own: bool,
    /// `chairman`: the agent that synthesizes the final answer; `None` = the member whose
    /// answer ranked first.
    pub chairman: Option<AgentId>,
    /// The chairman has its own backend block (`chairman: {id, backend}`): it is an agent of
    /// the run (last in `agents`) that neither answers nor ranks.
    pub chairman_outside: bool,
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
