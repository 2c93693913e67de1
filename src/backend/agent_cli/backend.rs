//! The backend of an agent CLI: each model call is one start of the CLI, whose stream of
//! events becomes stream events — text, thinking, its own tool uses as tool cards, one usage
//! report with the cost it computed — and whose session is resumed where the rule in
//! [`super::session`] says.

use std::collections::{HashMap, VecDeque};
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use futures::StreamExt;

use super::dialect::{BridgeAddress, CliOptions, Dialect, Launch, LineParser};
use super::event::{BRIDGE_SERVER, CliEvent};
use super::process::{CliProcess, Start};
use super::session::{self, LastSession};
use crate::backend::{
    AgentLoop, Backend, BackendError, ChatRequest, EventStream, FinishReason, LoopContext, Message,
    StreamEvent,
};
use crate::config::BackendKind;
use crate::protocol::{ProviderToolCall, Usage};
use crate::sandbox::Plan;

/// A tool card shows at most this much of a CLI tool's output.
const MAX_TOOL_OUTPUT: usize = 16 * 1024;

/// Where the CLI runs and what it may write: the agent's workspace and the paths its
/// policy grants now, or, for an agent without a workspace, a `work` directory in the
/// CLI's home; its home too, always; everything readable.
fn confinement(plan: Option<Plan>, home: &std::path::Path) -> Plan {
    let mut plan = plan.unwrap_or_else(|| Plan {
        workspace: home.join("work"),
        ..Plan::default()
    });
    plan.writable.push(home.to_path_buf());
    plan.network = true;
    plan.read_everything = true;
    plan
}

/// The CLI's home for this start (see [`CliSetup::home`]).
fn home(plan: Option<&Plan>, setup: &CliSetup) -> PathBuf {
    if let Some(home) = &setup.home {
        return home.clone();
    }
    let name = setup
        .label
        .replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_");
    match plan.and_then(|plan| plan.workspace.parent()) {
        Some(parent) => parent.join(".agent_cli").join(name),
        None => {
            std::env::temp_dir().join(format!("massgen-agent-cli-{}-{name}", std::process::id()))
        }
    }
}

/// Where and how the agent's CLI runs.
pub struct CliSetup {
    pub dialect: Arc<dyn Dialect>,
    pub kind: BackendKind,
    pub model: String,
    pub program: PathBuf,
    /// A directory of the agent's own for the CLI's config and sessions; by default
    /// `.agent_cli/<agent>` beside its workspace (in the system temp dir without one).
    pub home: Option<PathBuf>,
    pub options: CliOptions,
    pub base_url: Option<String>,
    /// The config's own system text, after massgen's.
    pub system_extra: String,
    pub env: Vec<(String, OsString)>,
    pub label: String,
    /// Files copied into the home before each start (a login the CLI reads only there):
    /// name in the home, and where it is copied from.
    pub seed_files: Vec<(String, PathBuf)>,
}

pub struct CliBackend {
    setup: Arc<CliSetup>,
    context: Mutex<Option<LoopContext>>,
    last: Arc<Mutex<LastSession>>,
}

impl CliBackend {
    pub fn new(setup: CliSetup) -> Self {
        Self {
            setup: Arc::new(setup),
            context: Mutex::new(None),
            last: Arc::default(),
        }
    }
}

impl AgentLoop for CliBackend {
    fn attach(&self, context: Option<LoopContext>) {
        *self.context.lock().unwrap_or_else(PoisonError::into_inner) = context;
    }
}

impl Backend for CliBackend {
    fn kind(&self) -> BackendKind {
        self.setup.kind
    }

    fn provider(&self) -> &str {
        self.setup.dialect.backend_type()
    }

    fn model(&self) -> &str {
        &self.setup.model
    }

    fn agent_loop(&self) -> Option<&dyn AgentLoop> {
        Some(self)
    }

    fn stream(&self, request: ChatRequest) -> EventStream {
        let last = self
            .last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let opening = session::opening(&last, &request.messages);
        let setup = &self.setup;
        let mut system_prompt = opening.system_prompt.clone();
        if !setup.system_extra.trim().is_empty() {
            system_prompt.push_str("\n\n");
            system_prompt.push_str(setup.system_extra.trim());
        }
        let context = self
            .context
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let bridge = context.as_ref().map_or_else(
            || BridgeAddress {
                url: String::new(),
                token: String::new(),
            },
            |context| context.bridge.clone(),
        );
        let plan = context.and_then(|context| context.confinement);
        let home = home(plan.as_ref(), setup);
        let confinement = confinement(plan, &home);
        let cwd = confinement.workspace.clone();
        let prompt = if opening.system_changed && !setup.dialect.takes_system_prompt_on_resume() {
            format!(
                "<SYSTEM INSTRUCTIONS for this turn, replacing earlier ones>\n{system_prompt}\n</SYSTEM INSTRUCTIONS>\n\n{}",
                opening.prompt
            )
        } else {
            opening.prompt.clone()
        };
        let model =
            Some(setup.model.as_str()).filter(|model| !model.is_empty() && *model != "default");
        let launch = Launch {
            model,
            cwd: &cwd,
            home: &home,
            system_prompt: &system_prompt,
            prompt: &prompt,
            resume: opening.resume.as_deref(),
            bridge: &bridge,
            options: &setup.options,
            base_url: setup.base_url.as_deref(),
        };
        let plan = setup.dialect.command(&launch);
        tracing::debug!(
            target: "massgen::agent_cli",
            agent = %setup.label,
            resume = ?opening.resume,
            "starting {} {}",
            setup.program.display(),
            plan.args.join(" ")
        );
        let run = Run {
            setup: Arc::clone(setup),
            home,
            confinement,
            plan: Some(plan),
            process: None,
            parser: setup.dialect.parser(),
            pending: VecDeque::new(),
            done: false,
            tools: HashMap::new(),
            usage: UsageSum::default(),
            failure: None,
            last: Arc::clone(&self.last),
            messages: Arc::clone(&request.messages),
        };
        futures::stream::unfold(run, |mut run| async move {
            let item = run.next().await?;
            Some((item, run))
        })
        .boxed()
    }
}

type Item = Result<StreamEvent, BackendError>;

/// One start of the CLI, read as a stream.
struct Run {
    setup: Arc<CliSetup>,
    home: PathBuf,
    confinement: Plan,
    plan: Option<super::dialect::CommandPlan>,
    process: Option<CliProcess>,
    parser: Box<dyn LineParser>,
    pending: VecDeque<Item>,
    done: bool,
    /// The CLI's tools that started and have not finished: name and input by id.
    tools: HashMap<String, (String, String)>,
    usage: UsageSum,
    failure: Option<String>,
    last: Arc<Mutex<LastSession>>,
    messages: Arc<Vec<Message>>,
}

#[derive(Default)]
struct UsageSum {
    usage: Option<Usage>,
    cost: Option<f64>,
}

impl Run {
    async fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            match self.process.as_mut() {
                None => self.start().await,
                Some(process) => match process.next_line().await {
                    Some(line) => {
                        for event in self.parser.line(&line) {
                            self.take(event);
                        }
                    }
                    None => self.end().await,
                },
            }
        }
    }

    async fn start(&mut self) {
        let Some(plan) = self.plan.take() else {
            self.done = true;
            return;
        };
        let setup = &self.setup;
        for (name, source) in &setup.seed_files {
            let _ = std::fs::create_dir_all(&self.home);
            if let Err(error) = std::fs::copy(source, self.home.join(name)) {
                tracing::warn!(
                    "could not copy {} into the CLI's home: {error}",
                    source.display()
                );
            }
        }
        let start = Start {
            program: &setup.program,
            confinement: self.confinement.clone(),
            home: &self.home,
            env: setup.env.clone(),
            label: setup.label.clone(),
        };
        match CliProcess::start(start, &plan).await {
            Ok(process) => self.process = Some(process),
            Err(error) => self.fail(format!(
                "could not start `{}`: {error}",
                setup.program.display()
            )),
        }
    }

    fn fail(&mut self, message: String) {
        self.pending.push_back(Err(BackendError::Failed {
            message: format!("{} failed: {message}", self.setup.dialect.backend_type()),
        }));
        self.done = true;
    }

    fn take(&mut self, event: CliEvent) {
        let via_bridge = |server: &Option<String>| server.as_deref() == Some(BRIDGE_SERVER);
        match event {
            CliEvent::Session(id) => {
                let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
                *last = LastSession {
                    id: Some(id),
                    messages: Some(Arc::clone(&self.messages)),
                };
            }
            CliEvent::Text(text) => self.pending.push_back(Ok(StreamEvent::TextDelta(text))),
            CliEvent::Reasoning(text) => {
                self.pending
                    .push_back(Ok(StreamEvent::ReasoningDelta(text)));
            }
            CliEvent::ToolStarted { server, .. } if via_bridge(&server) => {}
            CliEvent::ToolStarted {
                id, name, input, ..
            } => {
                self.tools.insert(id, (name, input));
            }
            CliEvent::ToolFinished { server, .. } if via_bridge(&server) => {}
            CliEvent::ToolFinished {
                id,
                name,
                server,
                output,
                ok,
            } => {
                let (name, input) = self.tools.remove(&id).unwrap_or((name, String::new()));
                let tool = match server {
                    Some(server) => format!("{server}/{name}"),
                    None => name,
                };
                self.pending
                    .push_back(Ok(StreamEvent::ProviderTool(ProviderToolCall {
                        call_id: id,
                        tool,
                        input,
                        sources: Vec::new(),
                        output: cut(output),
                        ok,
                    })));
            }
            CliEvent::Usage {
                usage,
                cost_usd,
                total,
            } => {
                let sum = self.usage.usage.get_or_insert_with(Usage::default);
                if total {
                    *sum = usage;
                } else {
                    *sum += usage;
                }
                if let Some(cost) = cost_usd {
                    self.usage.cost = Some(if total {
                        cost
                    } else {
                        self.usage.cost.unwrap_or(0.0) + cost
                    });
                }
            }
            CliEvent::Failed(message) => self.failure = Some(message),
        }
    }

    async fn end(&mut self) {
        let exit = match self.process.as_mut() {
            Some(process) => process.finish().await,
            None => Ok(()),
        };
        if let Some(usage) = self.usage.usage.take() {
            self.pending.push_back(Ok(StreamEvent::Usage(usage)));
        }
        if let Some(cost) = self.usage.cost.take() {
            self.pending.push_back(Ok(StreamEvent::ReportedCost(cost)));
        }
        match (self.failure.take(), exit) {
            (Some(message), _) | (None, Err(message)) => self.fail(message),
            (None, Ok(())) => {
                self.pending
                    .push_back(Ok(StreamEvent::Finish(FinishReason::Stop)));
                self.done = true;
            }
        }
    }
}

/// The output, its end cut past [`MAX_TOOL_OUTPUT`] bytes.
fn cut(mut output: String) -> String {
    if output.len() > MAX_TOOL_OUTPUT {
        let mut end = MAX_TOOL_OUTPUT;
        while !output.is_char_boundary(end) {
            end -= 1;
        }
        output.truncate(end);
        output.push_str("\n… (cut)");
    }
    output
}
