//! `massgen --quickstart`: no config needed. The run starts with one agent per provider
//! whose key is set (or three offline scripted agents), and the full-screen app opens on
//! the agents view to change them and save the config before the first question.

use std::sync::Arc;

use super::args::Args;
use super::setup::Prepared;
use crate::backend::{build_backends, catalog, provider, secrets};
use crate::config::{self, Env, draft};

/// How the quickstart config is named in messages.
const SOURCE: &str = "massgen --quickstart";

/// The run's agents and the line the agents view shows above them.
pub fn prepare(args: &Args, env: &Env) -> Result<Prepared, String> {
    let found = catalog::detected_drafts(env);
    let (drafts, intro) = if found.is_empty() {
        (
            catalog::demo_drafts(),
            "No provider API key found (set e.g. OPENAI_API_KEY or ANTHROPIC_API_KEY): three \
             offline scripted agents to try."
                .to_string(),
        )
    } else {
        let labels: Vec<&str> = found
            .iter()
            .filter_map(|draft| provider::provider(draft.kind).map(|p| p.label))
            .collect();
        let intro = format!(
            "Keys found for {}: one agent each. Change them, then s saves and starts.",
            labels.join(", ")
        );
        (found, intro)
    };
    let yaml = draft::to_yaml(&drafts, &[]);
    let (config, _warnings) = config::from_text(&yaml, SOURCE, env)
        .and_then(config::Loaded::into_runnable)
        .map_err(|error| error.to_string())?;
    let redactor = secrets::redactor_for_any_agents(&config, env);
    let backends = build_backends(&config, env)
        .map_err(|error| redactor.redact(&error.to_string()).into_owned())?;
    Ok(Prepared {
        config: Arc::new(config),
        backends,
        is_demo: false,
        config_file: None,
        resume: None,
        run_dir: None,
        redactor,
        local_hint: None,
        env: env.clone(),
        allow_outside: args.allow_outside_project,
        quickstart: Some(intro),
        warnings: Vec::new(),
        warnings_hint: String::new(),
    })
}
