//! `--model M [--backend T]`: a one-agent config built from the command line.

use super::backend_kind::BackendKind;
use super::error::{ConfigError, Problem, did_you_mean};
use super::fields::{URL_HELP, check_http_url};
use super::schema::{
    AgentConfig, BackendConfig, Config, LimitsConfig, OrchestratorConfig, TimeoutConfig, UiConfig,
};
use super::scripted::ScriptedOptions;
use crate::protocol::AgentId;

pub const SOURCE: &str = "command line";

pub struct QuickSetup<'a> {
    pub model: &'a str,
    pub backend: Option<&'a str>,
    pub base_url: Option<&'a str>,
    pub system_message: Option<&'a str>,
}

pub fn build(setup: &QuickSetup<'_>) -> Result<Config, ConfigError> {
    let kind = match setup.backend {
        Some(name) => BackendKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = BackendKind::ALL.iter().map(|kind| kind.name()).collect();
            let problem = Problem::nowhere(format!("unknown backend type `{name}`"));
            match did_you_mean(name, names.iter().copied()) {
                Some(close) => problem.help(format!("did you mean `{close}`?")),
                None => problem.help(format!("valid types: {}", names.join(", "))),
            }
            .in_source("--backend")
        })?,
        None => BackendKind::infer_from_model(setup.model).ok_or_else(|| {
            Problem::nowhere(format!(
                "cannot tell which backend serves model `{}`",
                setup.model
            ))
            .help("add --backend TYPE, e.g. --backend openrouter")
            .in_source("--model")
        })?,
    };
    if setup.model.trim().is_empty() {
        return Err(Problem::nowhere("the model name is empty")
            .help("pass --model NAME, e.g. --model gpt-5")
            .in_source("--model"));
    }
    if let Some(url) = setup.base_url
        && let Err(reason) = check_http_url(url)
    {
        return Err(Problem::nowhere(format!(
            "\"{}\" is not a usable URL ({reason})",
            super::masked_url(url)
        ))
        .help(URL_HELP)
        .in_source("--base-url"));
    }
    let scripted = (kind == BackendKind::Scripted).then(ScriptedOptions::default);
    Ok(Config {
        source_name: SOURCE.into(),
        agents: vec![AgentConfig {
            id: AgentId::new("agent"),
            backend: BackendConfig {
                base_url: setup.base_url.map(str::to_string),
                scripted,
                ..BackendConfig::new(kind, setup.model)
            },
            system_message: setup.system_message.map(str::to_string),
            voting_sensitivity: None,
            checklist_gated: None,
            persona: None,
            subtask: None,
        }],
        orchestrator: OrchestratorConfig::default(),
        timeouts: TimeoutConfig::default(),
        limits: LimitsConfig::default(),
        granted_paths: Vec::new(),
        ui: UiConfig {
            display: None,
            logging_enabled: true,
        },
    })
}
