//! From arguments to a runnable config and its backends.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::args::Args;
use crate::backend::{Backend, build_backends, local_discovery, secrets};
use crate::config::{self, Config, ConfigChoice, Env, QuickSetup};
use crate::orchestrator::{self, OrchestratorHandle, RuntimeOptions, ToolSetup};
use crate::redact::Redactor;
use crate::session::{RunLogDir, SessionInfo, find_session};

pub struct Prepared {
    pub config: Arc<Config>,
    pub backends: Vec<Arc<dyn Backend>>,
    /// Nothing was configured; this is the built-in offline demo.
    pub is_demo: bool,
    /// The YAML file the config came from (not for `--model`, examples or the demo).
    pub config_file: Option<PathBuf>,
    /// The session `--continue` or `--session-id` goes on with.
    pub resume: Option<SessionInfo>,
    /// The run's log directory, once [`open_run_logs`](Self::open_run_logs) made it.
    pub run_dir: Option<RunLogDir>,
    /// The run's secrets (keys, MCP header tokens, URL passwords), kept out of everything
    /// printed, logged or stored.
    pub redactor: Redactor,
    /// The demo's pointer to model servers running here (see [`local_models_hint`]).
    pub local_hint: Option<String>,
    /// The environment the agents' keys come from (for agents changed with `/agents`).
    pub env: Env,
    /// `--allow-outside-project`, for agents changed with `/agents`.
    pub allow_outside: bool,
    /// `--quickstart`: the app opens on the agents view, this line above them.
    pub quickstart: Option<String>,
    /// What the run warns about before it starts (the config, `.env` files, logging), each
    /// line escaped and redacted: every front end shows them and `massgen.log` keeps them
    /// (see [`report_warnings`]).
    pub warnings: Vec<String>,
    /// How to see every warning when a display shows only the first ones.
    pub warnings_hint: String,
}

impl Prepared {
    /// Logs are written unless `--no-logs` or `ui.logging_enabled: false` says otherwise;
    /// `--automation` turns them on whatever the config says (`--no-logs` still wins).
    pub fn logs_enabled(&self, args: &Args) -> bool {
        !args.no_logs && (args.automation || self.config.ui.logging_enabled)
    }

    /// Creates the run's log directory under `cwd/.massgen/massgen_logs/` when logs are
    /// enabled. A failure is reported and leaves logging off.
    pub fn open_run_logs(&mut self, args: &Args, cwd: &Path) -> Option<&RunLogDir> {
        if !self.logs_enabled(args) {
            return None;
        }
        let massgen_dir = cwd.join(".massgen");
        match RunLogDir::create(&massgen_dir) {
            Ok(dir) => self.run_dir = Some(dir),
            Err(error) => self.warnings.push(format!(
                "logging is off: cannot create a log directory under {} ({})",
                crate::sanitize::escape_for_terminal(&massgen_dir.display().to_string()),
                crate::sanitize::escape_for_terminal(&error.to_string())
            )),
        }
        self.run_dir.as_ref()
    }

    /// Starts the orchestrator over the prepared agents: tools and workspaces as the config
    /// says, logs in the run's log directory if one was made, and the session to continue,
    /// if any. `human`: someone can answer the agents' questions; `inbox_dir`: the steering
    /// inbox its turns poll; `approvals`: how asked tool calls are answered without a
    /// person.
    pub fn spawn_orchestrator(
        &mut self,
        cwd: &Path,
        human: bool,
        inbox_dir: Option<PathBuf>,
        approvals: orchestrator::ApprovalOptions,
    ) -> OrchestratorHandle {
        orchestrator::spawn(
            Arc::clone(&self.config),
            std::mem::take(&mut self.backends),
            ToolSetup::FromConfig {
                project_dir: cwd.to_path_buf(),
            },
            RuntimeOptions {
                logs: self.run_dir.clone(),
                resume: self.resume.take(),
                session_registry: crate::session::registry_path(),
                human,
                inbox_dir,
                redactor: self.redactor.clone(),
                history: Vec::new(),
                agents_loader: Some(orchestrator::config_loader(
                    self.env.clone(),
                    cwd.to_path_buf(),
                    self.allow_outside,
                )),
                approvals,
            },
        )
    }
}

/// How a config found with `--local` is named in messages.
const LOCAL_SOURCE: &str = "massgen --local";

/// The config `--local` makes from the model servers running here, as YAML; the error
/// names every port asked when none answered.
pub fn local_config() -> Result<String, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the async runtime: {error}"))?;
    let found = runtime.block_on(local_discovery::discover("127.0.0.1"));
    local_discovery::config_yaml(&found).ok_or_else(|| {
        let asked: Vec<String> = local_discovery::KNOWN_SERVERS
            .iter()
            .map(|server| format!("{} {}", server.name, server.port))
            .collect();
        format!(
            "--local found no model server on this machine (asked {})\n  help: start one \
             (`ollama serve`, LM Studio's server, `vllm serve MODEL`, …) and load a model, or \
             pass --config",
            asked.join(", ")
        )
    })
}

/// For the offline demo run by someone with no config and no API keys: the model servers
/// running on this machine, if any, and how to use them.
pub fn local_models_hint(env: &Env) -> Option<String> {
    if env.has_any_api_key() {
        return None;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .ok()?;
    let found = runtime.block_on(local_discovery::discover("127.0.0.1"));
    if found.is_empty() {
        return None;
    }
    let servers: Vec<String> = found
        .iter()
        .map(|server| {
            let count = server.models.len();
            format!(
                "{} ({count} model{})",
                server.server.name,
                if count == 1 { "" } else { "s" }
            )
        })
        .collect();
    Some(format!(
        "model servers found on this machine: {}; run `massgen --local` to use them",
        servers.join(", ")
    ))
}

/// The check of `config`'s custom tools that runs none of them (see
/// [`crate::tools::custom::inspect`]); nothing to say when it has none.
pub fn inspect_custom_tools(config: &Config) -> crate::tools::custom::Inspection {
    use crate::tools::custom::{Inspection, inspect, tools_of};
    if tools_of(config).is_empty() {
        return Inspection::default();
    }
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(inspect(config)),
        Err(error) => Inspection {
            errors: vec![format!("cannot start the async runtime: {error}")],
            warnings: Vec::new(),
        },
    }
}

/// Warnings a run prints before it summarises the rest.
const RUN_WARNINGS_SHOWN: usize = 20;

/// How to see every warning of `choice`'s config.
fn validate_hint(choice: &ConfigChoice) -> String {
    match choice {
        ConfigChoice::File(path) => format!("massgen --validate {}", path.display()),
        ConfigChoice::Example(example) | ConfigChoice::Demo(example) => {
            format!("massgen --validate @examples/{}", example.name())
        }
    }
}

/// The config's warnings as lines to show (escaped by their `Display`), secrets redacted.
pub fn warning_lines(warnings: &[config::ConfigWarning], redactor: &Redactor) -> Vec<String> {
    warnings
        .iter()
        .map(|warning| redactor.redact(&warning.to_string()).into_owned())
        .collect()
}

/// The first `shown` warnings, then one line counting the rest and saying where to see
/// more: a config of a million unknown keys prints a screenful, not a million lines.
pub fn print_warnings(warnings: &[String], shown: usize, more: &str) {
    for warning in warnings.iter().take(shown) {
        eprintln!("warning: {warning}");
    }
    let hidden = warnings.len().saturating_sub(shown);
    if hidden > 0 {
        eprintln!(
            "warning: … and {} more warning{} like these ({more})",
            config::thousands(hidden),
            if hidden == 1 { "" } else { "s" }
        );
    }
}

/// Every warning into the run's log (when there is one), and onto standard error unless the
/// full-screen display shows them itself: on its welcome view and in `/status`, never
/// printed under the alternate screen to appear only after quitting.
pub fn report_warnings(prepared: &Prepared, full_screen: bool) {
    for warning in &prepared.warnings {
        tracing::warn!("{warning}");
    }
    if !full_screen {
        print_warnings(
            &prepared.warnings,
            RUN_WARNINGS_SHOWN,
            &prepared.warnings_hint,
        );
    }
}

/// Loads the config and builds one backend per agent; the config's warnings (after
/// `earlier`, the `.env` files') are kept in [`Prepared::warnings`] for the front end,
/// and printed here only when preparing fails. The error is the full message to print
/// after `error: `.
pub fn prepare(
    args: &Args,
    cwd: &Path,
    env: &Env,
    earlier: Vec<String>,
) -> Result<Prepared, String> {
    let mut config_file = None;
    let (config, is_demo, warnings) = match &args.model {
        None if args.local => {
            let yaml = local_config()?;
            let (config, warnings) = config::from_text(&yaml, LOCAL_SOURCE, env)
                .and_then(config::Loaded::into_runnable)
                .map_err(|error| error.to_string())?;
            (
                config,
                false,
                Some((warnings, "massgen --local --dry-run".to_string())),
            )
        }
        Some(model) => {
            let setup = QuickSetup {
                model,
                backend: args.backend.as_deref(),
                base_url: args.base_url.as_deref(),
                system_message: args.system_message.as_deref(),
            };
            let config = config::quick_setup(&setup).map_err(|error| error.to_string())?;
            (config, false, None)
        }
        None => {
            let choice =
                config::choose(args.config.as_deref(), cwd).map_err(|error| error.to_string())?;
            let (config, warnings) = choice
                .load(env)
                .and_then(config::Loaded::into_runnable)
                .map_err(|error| error.to_string())?;
            if let ConfigChoice::File(path) = &choice {
                config_file = Some(path.clone());
            }
            let is_demo = choice.is_demo();
            (config, is_demo, Some((warnings, validate_hint(&choice))))
        }
    };
    let redactor = secrets::redactor_for_any_agents(&config, env);
    let mut lines = earlier;
    let mut hint = String::from("massgen --validate shows them");
    if let Some((warnings, validate)) = warnings {
        lines.extend(warning_lines(&warnings, &redactor));
        hint = validate;
    }
    let finished = finish(args, cwd, env, config, redactor);
    match finished {
        Ok(mut prepared) => {
            prepared.is_demo = is_demo;
            prepared.config_file = config_file;
            lines.append(&mut prepared.warnings);
            prepared.warnings = lines;
            prepared.warnings_hint = hint;
            Ok(prepared)
        }
        Err(error) => {
            print_warnings(&lines, RUN_WARNINGS_SHOWN, &hint);
            Err(error)
        }
    }
}

/// The rest of [`prepare`] once the config is loaded: paths, limits, the session to resume
/// and the backends.
fn finish(
    args: &Args,
    cwd: &Path,
    env: &Env,
    mut config: Config,
    redactor: Redactor,
) -> Result<Prepared, String> {
    let refused = config::check_granted_paths(&config, cwd, args.allow_outside_project);
    if !refused.is_empty() {
        let messages: Vec<String> = refused.iter().map(ToString::to_string).collect();
        return Err(redactor.redact(&messages.join("\nerror: ")).into_owned());
    }
    if let Some(seconds) = args.orchestrator_timeout {
        config.timeouts.orchestrator = Duration::from_secs(seconds);
    }
    if let Some(usd) = args.max_cost {
        config.orchestrator.max_cost_usd = Some(usd);
    }
    if let Some(file) = &args.eval_criteria {
        let given = config::read_eval_criteria(&cwd.join(file))
            .map_err(|why| format!("--eval-criteria file {}: {why}", file.display()))?;
        config.orchestrator.coordination.checklist_criteria = Some(given);
    }
    let resume = if args.continue_session || args.session_id.is_some() {
        Some(find_session(
            &cwd.join(".massgen"),
            args.session_id.as_deref(),
            Some((&config.source_name, cwd)),
        )?)
    } else {
        None
    };
    let inspection = inspect_custom_tools(&config);
    if !inspection.errors.is_empty() {
        return Err(redactor
            .redact(&inspection.errors.join("\nerror: "))
            .into_owned());
    }
    let backends = build_backends(&config, env).map_err(|error| {
        let error = error.to_string();
        format!(
            "{}\n  help: or run offline with a scripted config, e.g. \
             massgen --config @examples/demo/three_agents",
            redactor.redact(&error)
        )
    })?;
    let warnings = inspection
        .warnings
        .iter()
        .map(|warning| redactor.redact(warning).into_owned())
        .collect();
    Ok(Prepared {
        config: Arc::new(config),
        backends,
        is_demo: false,
        config_file: None,
        resume,
        run_dir: None,
        redactor,
        local_hint: None,
        env: env.clone(),
        allow_outside: args.allow_outside_project,
        quickstart: None,
        warnings,
        warnings_hint: String::new(),
    })
}
