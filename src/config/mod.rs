//! MassGen-compatible configuration: finding, loading, expanding and validating YAML.

pub mod agent_cli;
pub mod attachment_limits;
pub mod attachment_reach;
mod backend_kind;
mod command_mode;
mod coordination_schema;
mod criteria;
mod criteria_presets;
mod custom_tools;
mod docker_fallback;
pub mod draft;
mod env;
mod error;
pub mod examples;
mod fairness;
mod fast_iteration;
mod fields;
mod front_matter;
mod granted;
mod grants;
mod key_count;
mod key_notes;
mod keys;
pub mod limits;
mod load;
mod masked_url;
mod massgen_own;
mod mcp_registry;
mod mcp_security;
mod parse;
mod path_rules;
mod permissions;
mod persona_generator;
pub mod provider_options;
pub mod providers;
mod quick;
mod resolve;
mod schema;
mod scripted;
mod secret;
mod server_tools;
mod suggest;
mod tools;
mod url_policy;
mod yaml;
mod yaml_flow;
mod yaml_keys;
mod yaml_node;
mod yaml_scalar;
mod yaml_size;

use std::path::PathBuf;

pub use agent_cli::{AgentCliSettings, Thinking};
pub use backend_kind::BackendKind;
pub use command_mode::{
    CredentialMount, DEFAULT_DOCKER_IMAGE, DockerCredentials, DockerNetwork, DockerPackages,
    DockerSettings, ExecutionMode, ExtraMount, SRT_SECRET_HOME_PATHS, SRT_SECRET_PATHS,
    SrtReadMode, SrtSettings,
};
pub use criteria::{
    BootstrapCaps, CriteriaGenerator, CriteriaMode, GivenCriteria, read_eval_criteria,
};
pub use custom_tools::{CUSTOM_TOOL_PREFIX, CustomToolConfig};
pub use draft::AgentDraft;
pub use env::{Env, UnsetVariable};
pub use error::{ConfigError, ConfigWarning, thousands};
pub use fairness::{Fairness, NoveltyInjection};
pub use fast_iteration::{FastIteration, GapReport, GapReportMode};
pub use front_matter::{FrontMatter, parse_front_matter};
pub use granted::{GrantKind, GrantedPath};
pub use grants::{ALLOW_FLAG, check as check_granted_paths};
pub use key_count::KeyCount;
pub use limits::{CommandLineLimits, LimitAuthority};
pub use load::{Loaded, from_file, from_text};
pub use masked_url::{credential_name, masked_url};
pub use path_rules::{Grantor, Refusal, describe_kind, refusal, resolve as resolve_path};
pub use permissions::{
    ApprovalMode, AutomationDefault, DEFAULT_APPROVAL_DIR, DEFAULT_APPROVAL_TIMEOUT,
    DEFAULT_SETTINGS_PATH, PermissionRole, PermissionRule, PermissionsConfig, RuleDecision,
};
pub use persona_generator::{AfterFirstAnswer, DiversityMode, PersonaGeneratorConfig};
pub use quick::{QuickSetup, build as quick_setup};
pub use resolve::{ConfigChoice, choose};
pub use schema::{
    AgentConfig, BackendConfig, ChecklistConfig, Config, CoordinationConfig, CoordinationMode,
    CouncilConfig, DebateConfig, DebateFinish, DisplayKind, LimitsConfig, OrchestratorConfig,
    Sensitivity, SkillsConfig, TimeoutConfig, UiConfig,
};
pub use scripted::{
    CouncilScript, DebateScript, FailureMode, QuizOptions, ScriptedFailure, ScriptedOptions,
    ScriptedToolCall,
};
pub use secret::Secret;
pub use server_tools::ServerTools;
pub use tools::{
    CodeBasedTools, CommandLineConfig, ContextPath, DEFAULT_CALL_TIMEOUT, DEFAULT_COMMAND_TIMEOUT,
    DEFAULT_CONNECT_TIMEOUT, DebugDelay, McpServerConfig, McpTransport, Permission, StrictTools,
    ToolExecution, ToolSettings,
};
pub use yaml_node::Location;
pub use yaml_size::MAX_CONFIG_BYTES;

/// `~/.config/massgen` on Linux (honours `XDG_CONFIG_HOME`), the platform's equivalent
/// elsewhere.
pub fn user_config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "massgen").map(|dirs| dirs.config_dir().to_path_buf())
}
