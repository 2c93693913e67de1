//! Shared helpers for scenario tests: load a YAML config, run turns offline, inspect events.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod cancel;
pub mod plans;
pub mod pty;
pub mod sandbox;
pub mod serve;
mod transcript;

#[allow(unused_imports)]
pub use transcript::{error_and_kill, transcript, transcript_of};

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use massgen::backend::{
    Backend, BackendError, ChatRequest, EventStream, StreamEvent, build_backends,
};
use massgen::config::{self, Config, Env};
use massgen::orchestrator::ToolSetup;
use massgen::orchestrator::{self, OrchestratorHandle, RuntimeOptions};
use massgen::protocol::{AgentId, Event, EventMsg, TurnOutcome};
use massgen::tools::NoTools;

pub fn load(yaml: &str) -> Config {
    let loaded = config::from_text(yaml, "scenario.yaml", &Env::default()).unwrap();
    loaded.into_runnable().unwrap().0
}

/// A backend wrapper that records every request it receives and, if `presentation` is
/// set, streams it for the final-presentation call (the one offering no `vote` tool).
pub struct Wrapped {
    inner: Arc<dyn Backend>,
    requests: Arc<Mutex<Vec<ChatRequest>>>,
    presentation: Option<Vec<Result<StreamEvent, BackendError>>>,
}

impl Backend for Wrapped {
    fn kind(&self) -> massgen::config::BackendKind {
        self.inner.kind()
    }
    fn provider(&self) -> &str {
        self.inner.provider()
    }
    fn model(&self) -> &str {
        self.inner.model()
    }
    fn agent_loop(&self) -> Option<&dyn massgen::backend::AgentLoop> {
        self.inner.agent_loop()
    }
    fn stream(&self, request: ChatRequest) -> EventStream {
        self.requests.lock().unwrap().push(request.clone());
        match &self.presentation {
            Some(events) if !request.tools.iter().any(|tool| tool.name == "vote") => {
                Box::pin(futures::stream::iter(events.clone()))
            }
            _ => self.inner.stream(request),
        }
    }
}

/// The config's backends, each presenting with `presentation`.
pub fn with_presentation(
    config: &Config,
    presentation: &[Result<StreamEvent, BackendError>],
) -> Vec<Arc<dyn Backend>> {
    build_backends(config, &massgen::config::Env::default())
        .unwrap()
        .into_iter()
        .map(|inner| {
            Arc::new(Wrapped {
                inner,
                requests: Arc::default(),
                presentation: Some(presentation.to_vec()),
            }) as Arc<dyn Backend>
        })
        .collect()
}

/// A runtime over `config` with these backends, no tools and no logs.
pub fn spawn_unlogged(config: Config, backends: Vec<Arc<dyn Backend>>) -> OrchestratorHandle {
    orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::Shared(Arc::new(NoTools)),
        RuntimeOptions {
            logs: None,
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor: massgen::redact::Redactor::default(),
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: None,
        },
    )
}

pub struct Scenario {
    pub handle: OrchestratorHandle,
    pub dir: tempfile::TempDir,
    /// Requests per agent, config order.
    pub requests: Vec<(AgentId, Arc<Mutex<Vec<ChatRequest>>>)>,
}

impl Scenario {
    /// Agents without tools, logging under a fresh temporary project.
    pub fn start(yaml: &str) -> Self {
        Self::start_in(tempfile::tempdir().unwrap(), yaml, false, None, false)
    }

    /// Agents with their workspaces and tools, and a user who can answer their questions
    /// (`Op::AnswerQuestion`, as a front end would send).
    pub fn start_with_human(dir: tempfile::TempDir, yaml: &str) -> Self {
        Self::start_in(dir, yaml, true, None, true)
    }

    /// Submits `text` in `mode` and returns every event up to the `TurnFinished` of the
    /// turn — or of the next turn when a plan is executed right after (`auto_execute`).
    pub async fn submit(
        &mut self,
        text: &str,
        mode: massgen::protocol::Mode,
        options: massgen::protocol::TurnOptions,
    ) -> Vec<Event> {
        self.submit_answering(text, mode, options, |_| None).await
    }

    /// As [`submit`](Self::submit); `reply` may answer each event with an op (the user
    /// answering a question).
    pub async fn submit_answering(
        &mut self,
        text: &str,
        mode: massgen::protocol::Mode,
        options: massgen::protocol::TurnOptions,
        reply: impl Fn(&EventMsg) -> Option<massgen::protocol::Op>,
    ) -> Vec<Event> {
        let turns = if options.auto_execute { 2 } else { 1 };
        let submit = massgen::protocol::Op::Submit {
            text: text.into(),
            mode,
            context_paths: Vec::new(),
            options,
        };
        self.handle.ops.send(submit).await.unwrap();
        let mut events = Vec::new();
        let mut finished = 0;
        while let Some(event) = self.handle.events.recv().await {
            if let Some(op) = reply(&event.msg) {
                self.handle.ops.send(op).await.unwrap();
            }
            let completed = matches!(
                event.msg,
                EventMsg::TurnFinished {
                    outcome: TurnOutcome::Completed,
                    ..
                }
            );
            let done = matches!(event.msg, EventMsg::TurnFinished { .. });
            events.push(event);
            if done {
                finished += 1;
                // The runtime executes the plan of a planning turn that completed.
                let more = turns > finished && completed && events.iter().any(|event| {
                    matches!(&event.msg, EventMsg::PlanUpdated { plan } if plan.status == massgen::protocol::PlanStatus::Ready)
                });
                if !more {
                    break;
                }
            }
        }
        events
    }

    /// Going on with an earlier session (`--continue`).
    pub fn start_resumed(yaml: &str, session: massgen::session::SessionInfo) -> Self {
        Self::start_in(
            tempfile::tempdir().unwrap(),
            yaml,
            false,
            Some(session),
            false,
        )
    }

    /// Agents with the workspaces and tools their config gives them, under `dir`.
    pub fn start_with_tools(dir: tempfile::TempDir, yaml: &str) -> Self {
        Self::start_in(dir, yaml, true, None, false)
    }

    /// As `start_with_tools`, with a config the test has adjusted after loading it.
    pub fn start_with_tools_config(dir: tempfile::TempDir, config: Config) -> Self {
        Self::start_config(dir, config, (true, Default::default()), None, false)
    }

    /// As `start_with_tools_config`, with a person at the terminal or not, and the
    /// command line's approval options.
    pub fn start_with_approvals(
        dir: tempfile::TempDir,
        config: Config,
        human: bool,
        approvals: massgen::orchestrator::ApprovalOptions,
    ) -> Self {
        Self::start_config(dir, config, (true, approvals), None, human)
    }

    fn start_in(
        dir: tempfile::TempDir,
        yaml: &str,
        tools: bool,
        resume: Option<massgen::session::SessionInfo>,
        human: bool,
    ) -> Self {
        Self::start_config(dir, load(yaml), (tools, Default::default()), resume, human)
    }

    fn start_config(
        dir: tempfile::TempDir,
        config: Config,
        (tools, approvals): (bool, massgen::orchestrator::ApprovalOptions),
        resume: Option<massgen::session::SessionInfo>,
        human: bool,
    ) -> Self {
        let mut requests = Vec::new();
        let backends: Vec<Arc<dyn Backend>> =
            build_backends(&config, &massgen::config::Env::default())
                .unwrap()
                .into_iter()
                .zip(&config.agents)
                .map(|(inner, agent)| {
                    let recorded = Arc::new(Mutex::new(Vec::new()));
                    requests.push((agent.id.clone(), Arc::clone(&recorded)));
                    Arc::new(Wrapped {
                        inner,
                        requests: recorded,
                        presentation: None,
                    }) as Arc<dyn Backend>
                })
                .collect();
        let tools = if tools {
            ToolSetup::FromConfig {
                project_dir: dir.path().to_path_buf(),
            }
        } else {
            ToolSetup::Shared(Arc::new(NoTools))
        };
        let handle = orchestrator::spawn(
            Arc::new(config),
            backends,
            tools,
            RuntimeOptions {
                logs: Some(
                    massgen::session::RunLogDir::create(&dir.path().join(".massgen")).unwrap(),
                ),
                resume,
                session_registry: None,
                human,
                inbox_dir: None,
                redactor: massgen::redact::Redactor::default(),
                history: Vec::new(),
                approvals,
                agents_loader: None,
            },
        );
        Self {
            handle,
            dir,
            requests,
        }
    }

    pub fn requests_of(&self, agent: &str) -> Vec<ChatRequest> {
        self.requests
            .iter()
            .find(|(id, _)| id.as_str() == agent)
            .map(|(_, requests)| requests.lock().unwrap().clone())
            .unwrap()
    }
}

/// Runs one question on a fresh runtime and returns the turn's events and the temp dir.
pub async fn run_once(yaml: &str, question: &str) -> (Vec<Event>, Scenario) {
    let mut scenario = Scenario::start(yaml);
    let events = scenario.handle.run_turn(question).await;
    (events, scenario)
}

pub fn outcome(events: &[Event]) -> TurnOutcome {
    events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::TurnFinished { outcome, .. } => Some(*outcome),
            _ => None,
        })
        .expect("turn finished")
}

/// The turn completed; else fails with its coordination transcript.
pub fn assert_completed(events: &[Event]) {
    assert_eq!(
        outcome(events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(events)
    );
}

pub fn winner(events: &[Event]) -> Option<String> {
    events.iter().find_map(|event| match &event.msg {
        EventMsg::WinnerSelected { winner, .. } => Some(winner.to_string()),
        _ => None,
    })
}

pub fn final_answer(events: &[Event]) -> Option<(String, bool)> {
    events.iter().find_map(|event| match &event.msg {
        EventMsg::FinalPresentationDone {
            content, fallback, ..
        } => Some((content.clone(), *fallback)),
        _ => None,
    })
}

/// The single attempt directory of turn `turn` under `.massgen/massgen_logs/log_*/`.
pub fn attempt_dir(root: &Path, turn: u32) -> PathBuf {
    let logs = root.join(".massgen").join("massgen_logs");
    let run = std::fs::read_dir(&logs)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("log_")
        })
        .expect("a log_ directory");
    run.join(format!("turn_{turn}")).join("attempt_1")
}

/// The plans the session lists after the turn; by then the turn's derived files
/// (`coordination_events.json`, `status.json`, …) are written.
pub async fn list_plans(scenario: &mut Scenario) -> Vec<massgen::protocol::PlanInfo> {
    ask_for_plans(scenario).await;
    loop {
        let event = scenario.handle.events.recv().await.unwrap();
        if let EventMsg::PlansListed { plans } = event.msg {
            break plans;
        }
    }
}

/// Asks the session to list its plans (answered once the turn's files are written).
pub async fn ask_for_plans(scenario: &Scenario) {
    let op = massgen::protocol::Op::ListPlans;
    scenario.handle.ops.send(op).await.unwrap();
}

/// Every user message of `request`, joined.
pub fn user_text(request: &ChatRequest) -> String {
    request
        .messages
        .iter()
        .filter_map(|message| match message {
            massgen::backend::Message::User { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

/// What the plain display and the `--automation` display print for `events`.
pub fn displays(events: &[Event]) -> (String, String) {
    let mut plain =
        massgen::headless::PlainPrinter::new(Vec::new(), massgen::headless::Style::new(false));
    let mut automation = massgen::headless::AutomationPrinter::new(Vec::new(), Vec::new());
    for event in events {
        massgen::headless::Printer::print(&mut plain, event).unwrap();
        massgen::headless::Printer::print(&mut automation, event).unwrap();
    }
    (
        String::from_utf8(plain.into_inner()).unwrap(),
        String::from_utf8(automation.into_inner().0).unwrap(),
    )
}

/// A scripted agent that answers `answer`, with `extra` backend keys (", key: value").
pub fn scripted_member(id: &str, answer: &str, extra: &str) -> String {
    format!(
        "  - id: {id}\n    backend: {{type: scripted, tokens_per_second: 0, answer: \"{answer}\"{extra}}}\n"
    )
}

/// The strategy events of a turn, with the member each names (none: the whole turn).
pub fn strategy_events(
    events: &[Event],
) -> Vec<(Option<String>, massgen::protocol::StrategyEvent)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Strategy(inner) => {
                Some((event.agent.as_ref().map(ToString::to_string), inner.clone()))
            }
            _ => None,
        })
        .collect()
}
