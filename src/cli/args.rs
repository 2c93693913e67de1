//! Command-line arguments (MassGen-compatible names where they exist).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use super::approval_flags::ApprovalPolicyArg;
use crate::protocol::{BroadcastTarget, Mode, PlanDepth, Strategy, TurnOptions};

#[derive(Clone, Debug, Parser)]
#[command(
    name = "massgen",
    version,
    about = "Several LLM agents on one task at once: they answer in parallel, read each \
             other's answers, vote, and the winner presents the final answer.",
    after_help = "With no --config and no ./.massgen/config.yaml, massgen runs an offline demo \
                  of three scripted agents.\n\nExit codes: 0 success, 1 config error, 2 execution \
                  error, 3 timeout with no answer, 4 interrupted."
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The question. Without one, questions are read from standard input, one per line.
    pub question: Option<String>,

    /// Config file, or a shipped config as @examples/NAME (see --list-examples).
    #[arg(long, value_name = "PATH|@examples/NAME")]
    pub config: Option<String>,

    /// Quick single-agent setup with this model instead of a config file.
    #[arg(long, value_name = "MODEL", conflicts_with = "config")]
    pub model: Option<String>,

    /// Use the model servers running on this machine (Ollama, LM Studio, vLLM, SGLang,
    /// llama.cpp on their usual ports): up to three agents over the models they list.
    #[arg(long, conflicts_with_all = ["config", "model"])]
    pub local: bool,

    /// With --local: print the config it would run, and exit.
    #[arg(long, requires = "local")]
    pub dry_run: bool,

    /// Backend type for --model (inferred from the model name when left out).
    #[arg(long, value_name = "TYPE", requires = "model")]
    pub backend: Option<String>,

    /// Base URL for --model (OpenAI-compatible servers end in /v1).
    #[arg(long, value_name = "URL", requires = "model")]
    pub base_url: Option<String>,

    /// System message for --model.
    #[arg(long, value_name = "TEXT", requires = "model")]
    pub system_message: Option<String>,

    /// How to show progress.
    #[arg(long, value_enum)]
    pub display: Option<DisplayArg>,

    /// Overrides timeout_settings.orchestrator_timeout_seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub orchestrator_timeout: Option<u64>,

    /// A cost budget per turn, in US dollars (overrides orchestrator.max_cost_usd): once
    /// reached, no new model call starts and the best answer so far is presented.
    #[arg(long, value_name = "USD", value_parser = parse_cost)]
    pub max_cost: Option<f64>,

    /// How agents reach the answer: vote or council (overrides orchestrator.strategy).
    #[arg(long, value_name = "STRATEGY", value_parser = parse_strategy)]
    pub strategy: Option<Strategy>,

    /// Checklist criteria for checklist-gated voting, from a JSON file: a list of
    /// {"text": …, "category": "primary|standard|stretch"}, or {"criteria": […]}.
    /// Replaces the config's `checklist_criteria_inline`.
    #[arg(long, value_name = "FILE")]
    pub eval_criteria: Option<std::path::PathBuf>,

    /// Sets a `limits:` cap for this run, above its default if need be, up to its hard
    /// ceiling (repeatable; wins over the config). A project's config can only lower
    /// limits. NAME: max_agents (ceiling 128), max_question_bytes (16 MiB),
    /// max_response_text_bytes (32 MiB), max_tool_arguments_bytes (32 MiB),
    /// max_tool_calls_per_response (1,024), max_error_body_bytes (1 MiB), max_sse_line_bytes
    /// (64 MiB).
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    pub limits: Vec<String>,

    /// Also write the final answer to this file.
    #[arg(long, value_name = "PATH")]
    pub output_file: Option<PathBuf>,

    /// Let the config's workspaces and context paths, and @path attachments, be `/`, the
    /// home directory, a system directory or outside the project (refused otherwise).
    #[arg(long)]
    pub allow_outside_project: bool,

    /// Do not write logs under .massgen/.
    #[arg(long)]
    pub no_logs: bool,

    /// For scripts and other programs: no progress display, logs on, and a few parseable
    /// lines (LOG_DIR:, STATUS:, QUESTION:, WINNER:, ANSWER_FILE:, DURATION:,
    /// ANSWER_PREVIEW:, COMPLETED:); agents never ask the user anything.
    #[arg(long, conflicts_with = "display")]
    pub automation: bool,

    /// A directory to steer running turns from: each `msg_*.json` dropped into it
    /// (`{"content": ..., "target_agents": [...]}`) reaches the agents as typed input.
    #[arg(long, value_name = "DIR", env = "MASSGEN_RUNTIME_INBOX_DIR")]
    pub inbox_dir: Option<PathBuf>,

    /// What a tool call the `permissions:` rules ask about becomes when nobody can be asked
    /// (--automation, plain output, scripts); replaces every agent's automation_default.
    #[arg(long, value_enum, value_name = "POLICY")]
    pub approval_policy: Option<ApprovalPolicyArg>,

    /// Ask about tool calls through files for every agent with `permissions:`: requests are
    /// written to DIR/<agent>/req_<id>.json, answers read from resp_<id>.json.
    #[arg(long, value_name = "DIR")]
    pub approval_dir: Option<PathBuf>,

    /// Verbose diagnostics on standard error.
    #[arg(long, global = true)]
    pub debug: bool,

    /// Check a config file (or @examples/NAME) and exit.
    #[arg(long, value_name = "PATH|@examples/NAME", conflicts_with_all = ["config", "model"])]
    pub validate: Option<String>,

    /// List the shipped configs usable as @examples/NAME.
    #[arg(long)]
    pub list_examples: bool,

    /// Print what the sandbox of execute_command enforces on this machine and exit: 0 when
    /// commands' reads and writes are confined, 1 when only the command filters apply.
    #[arg(long)]
    pub sandbox_check: bool,

    /// Print a shipped config (to copy and edit).
    #[arg(long, value_name = "NAME")]
    pub example: Option<String>,

    /// Go on with the newest session in ./.massgen/sessions: its turns become the history.
    #[arg(long = "continue", conflicts_with = "session_id")]
    pub continue_session: bool,

    /// Go on with this session (see --list-sessions).
    #[arg(long, value_name = "ID")]
    pub session_id: Option<String>,

    /// List the sessions in ./.massgen/sessions, newest first, and exit.
    #[arg(long)]
    pub list_sessions: bool,

    /// Plan only: the agents write a task plan for the question (saved under
    /// .massgen/plans/) instead of doing the work.
    #[arg(long, conflicts_with_all = ["plan_and_execute", "execute_plan"])]
    pub plan: bool,

    /// Plan, then carry the plan out at once.
    #[arg(long, conflicts_with = "execute_plan")]
    pub plan_and_execute: bool,

    /// Carry out a saved plan: its id, its directory or `latest`. A question given with it
    /// is added as extra instructions.
    #[arg(long, value_name = "ID|PATH|latest")]
    pub execute_plan: Option<String>,

    /// How many tasks a plan aims for: shallow (5-10), medium (20-50) or deep (100-200+).
    /// Default: the config's `coordination.plan_depth`, else medium.
    #[arg(long, value_name = "DEPTH", value_parser = parse_depth)]
    pub plan_depth: Option<PlanDepth>,

    /// Whom agents may ask while planning: human (you, on this terminal), agents, or false.
    #[arg(long, value_name = "human|agents|false", value_parser = parse_broadcast)]
    pub broadcast: Option<BroadcastTarget>,

    /// Set up agents in the full-screen app, no config needed: one agent per provider
    /// whose API key is set (offline scripted agents when none is); pick models, save the
    /// config (.massgen/config.yaml) and go on asking.
    #[arg(long, conflicts_with_all = ["config", "model", "local", "validate", "generate_config",
                                      "question", "automation", "display"])]
    pub quickstart: bool,

    /// Write a config to PATH without a terminal, from the providers whose API keys are set
    /// (offline scripted agents when none is), print what it wrote and exit.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["config", "validate", "local"])]
    pub generate_config: Option<PathBuf>,

    /// With --generate-config: only this backend type (as `--backend`).
    #[arg(long, value_name = "TYPE", requires = "generate_config")]
    pub config_backend: Option<String>,

    /// With --generate-config: this model (as `--model`; the backend is inferred from it
    /// when not given).
    #[arg(long, value_name = "MODEL", requires = "generate_config")]
    pub config_model: Option<String>,

    /// With --generate-config: this many agents (1-10).
    #[arg(long, value_name = "N", requires = "generate_config",
          value_parser = clap::value_parser!(u8).range(1..=10))]
    pub config_agents: Option<u8>,

    /// With --generate-config: replace PATH if it exists.
    #[arg(long, requires = "generate_config")]
    pub force: bool,

    /// Full-screen display: leave the mouse to the terminal, so dragging selects text
    /// (with the mouse on, Shift+drag selects in most terminals). The wheel and clicks
    /// then do nothing in massgen.
    #[arg(
        long,
        env = "MASSGEN_NO_MOUSE",
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub no_mouse: bool,
}

#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    /// Play a recorded session, turn or event log again as it happened; no model is called.
    Replay(ReplayArgs),
    /// What past runs did: `summary` (the default), `list`, `tools`, `approvals`, `open`;
    /// `--json` for programs. (A question that is literally `logs` is asked as `massgen -- logs`.)
    Logs(super::logs::LogsArgs),
    /// An OpenAI-compatible HTTP API: POST /v1/chat/completions (streamed or not), GET
    /// /v1/models, GET /health. Each request is one turn of the config's agents.
    Serve(ServeArgs),
    /// Measure configs and strategies on a dataset: every item through every config (and
    /// each model alone, and sampled for a majority), scored, with accuracy and its 95 %
    /// interval, cost, tokens and latency per contender. Try `massgen eval
    /// @examples/eval-demo` (offline).
    Eval(super::eval_args::EvalArgs),
}

#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// More configs to serve, each as a model named after its file (`--config
    /// research.yaml` is model `research`); repeatable. The first is also `massgen` when no
    /// --config comes before `serve`.
    #[arg(long = "config", value_name = "PATH")]
    pub configs: Vec<PathBuf>,

    /// The address to listen on; anything but loopback needs --api-key (32 characters or
    /// more).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,

    /// The port (0 picks a free one; the address is printed on standard error).
    #[arg(long, default_value_t = 4000)]
    pub port: u16,

    /// The key clients must send as `Authorization: Bearer KEY`.
    #[arg(long, env = "MASSGEN_SERVE_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,

    /// Turns run at once; more requests get 429.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub max_concurrent: u16,

    /// Seconds running turns get to finish after SIGTERM before they are cancelled.
    #[arg(long, default_value_t = 30)]
    pub grace: u64,

    /// Another name clients reach this server by (a reverse proxy's `api.example.com`, or
    /// `NAME:PORT` for one port); repeatable. Requests whose `Host` names neither this
    /// server's address (127.0.0.1, localhost, [::1] or --host, with its port) nor an allowed
    /// name are refused (403): a DNS-rebinding web page would send its own name. On 0.0.0.0
    /// or ::, `Host` is checked only when this is given (the API key guards it there).
    #[arg(long = "allowed-host", value_name = "NAME")]
    pub allowed_hosts: Vec<String>,

    /// A web page origin (`http://localhost:3000`) that may call this server from a
    /// browser; repeatable. Requests carrying any other `Origin` than this server's own are
    /// refused (403), so no other web page the user opens can run turns.
    #[arg(long = "allowed-origin", value_name = "URL")]
    pub allowed_origins: Vec<String>,

    /// Also serve every shipped example config as model `massgen/<example>` (some run
    /// agents' commands). Without it, only the configs given are served.
    #[arg(long)]
    pub allow_examples: bool,

    /// Open connections at once (also kept under the open-file limit); at the limit, the
    /// connection idle longest is closed to make room.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(16..=65_536))]
    pub max_connections: u32,

    /// Seconds a client gets to send a request's headers, and again its body; slower
    /// connections are closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub read_timeout: u64,
}

#[derive(Clone, Debug, clap::Args)]
pub struct ReplayArgs {
    /// A session (.massgen/sessions/session_…) or one of its turn_N directories, a run log
    /// (.massgen/massgen_logs/log_…) or a turn_N or attempt_N directory in it, or an
    /// events.jsonl.
    pub path: PathBuf,

    /// Times the recorded pace (10 plays ten times faster); waits between turns are at
    /// most 1 s.
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = parse_speed)]
    pub speed: f64,

    /// One step per key press (n or Space): each step plays the streamed text up to and
    /// including the next other event. Full-screen display only.
    #[arg(long, conflicts_with = "speed")]
    pub step: bool,

    /// How to show the replay (as for a run; also accepted before `replay`).
    #[arg(long, value_enum)]
    pub display: Option<DisplayArg>,

    /// Full-screen display: leave the mouse to the terminal (as for a run; also accepted
    /// before `replay`).
    #[arg(long, value_parser = clap::builder::BoolishValueParser::new())]
    pub no_mouse: bool,
}

impl Args {
    /// What of a run was given along with a subcommand, which would be ignored.
    pub fn run_options_given(&self) -> bool {
        self.question.is_some()
            || self.config.is_some()
            || self.model.is_some()
            || self.continue_session
            || self.session_id.is_some()
            || self.output_file.is_some()
            || self.allow_outside_project
            || self.orchestrator_timeout.is_some()
            || self.max_cost.is_some()
            || self.strategy.is_some()
            || self.eval_criteria.is_some()
            || !self.limits.is_empty()
            || self.plan
            || self.plan_and_execute
            || self.execute_plan.is_some()
            || self.broadcast.is_some()
            || self.automation
    }

    /// The mode and options every question of this run is asked with; `depth` is the
    /// config's plan depth, used unless `--plan-depth` is given.
    pub fn turn(&self, depth: PlanDepth) -> (Mode, TurnOptions) {
        let mode = if self.plan || self.plan_and_execute {
            Mode::Planning
        } else if self.execute_plan.is_some() {
            Mode::Execute
        } else {
            Mode::Normal
        };
        let options = TurnOptions {
            plan_depth: self.plan_depth.unwrap_or(depth),
            broadcast: self.broadcast,
            auto_execute: self.plan_and_execute,
            plan: self.execute_plan.clone(),
            strategy: self.strategy,
            ..TurnOptions::default()
        };
        (mode, options)
    }
}

fn parse_depth(text: &str) -> Result<PlanDepth, String> {
    PlanDepth::from_name(text).ok_or_else(|| {
        format!(
            "`{text}` is not a plan depth; use one of {}",
            PlanDepth::NAMES.join(", ")
        )
    })
}

/// `--strategy`: vote, council or debate.
fn parse_strategy(text: &str) -> Result<Strategy, String> {
    Strategy::parse(text)
        .ok_or_else(|| format!("`{text}` is not a strategy; use vote, council or debate"))
}

fn parse_broadcast(text: &str) -> Result<BroadcastTarget, String> {
    BroadcastTarget::from_name(text)
        .ok_or_else(|| format!("`{text}` is not a broadcast mode; use human, agents or false"))
}

fn parse_speed(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(speed) if speed.is_finite() && speed > 0.0 => Ok(speed),
        Ok(_) => Err("must be a number above 0 (2 plays twice as fast, 0.5 at half speed)".into()),
        Err(_) => Err(format!("`{text}` is not a number")),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DisplayArg {
    /// Line-oriented progress and the streamed final answer.
    Plain,
    /// Only the final answer.
    Quiet,
    /// The full-screen terminal UI (the default on a terminal).
    Tui,
}

/// About 31 years: longer timeouts are surely typos.
const MAX_TIMEOUT_SECONDS: u64 = 1_000_000_000;

fn parse_cost(text: &str) -> Result<f64, String> {
    match text.trim().trim_start_matches('$').parse::<f64>() {
        Ok(usd) if usd.is_finite() && usd > 0.0 => Ok(usd),
        Ok(_) | Err(_) => Err(format!(
            "`{text}` is not a cost in US dollars above 0, e.g. 0.50"
        )),
    }
}

fn parse_timeout(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1 second".into()),
        Ok(seconds) if seconds > MAX_TIMEOUT_SECONDS => {
            Err(format!("must be at most {MAX_TIMEOUT_SECONDS} seconds"))
        }
        Ok(seconds) => Ok(seconds),
        Err(_) => Err(format!("`{text}` is not a whole number of seconds")),
    }
}
