//! Starting the real Codex CLI once as massgen's backend does — the dialect's command plan,
//! confined by `CliProcess` — and what the tests give it: a workspace, a home, a bridge
//! whose tools record their calls.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use massgen::backend::ToolSpec;
use massgen::backend::agent_cli::codex::Codex;
use massgen::backend::agent_cli::dialect::{BridgeAddress, CliOptions, Dialect, Launch};
use massgen::backend::agent_cli::event::CliEvent;
use massgen::backend::agent_cli::process::{CliProcess, Start};
use massgen::mcp::bridge::{BridgeReply, BridgeTools};
use massgen::protocol::Usage;
use massgen::sandbox::Plan;
use serde_json::{Value, json};

use crate::fake_codex::{CACHED_TOKENS, FakeModel, INPUT_TOKENS, OUTPUT_TOKENS, REASONING_TOKENS};
use crate::harness;

/// How long one start of the CLI may take.
const START_TIMEOUT: Duration = Duration::from_secs(120);
pub const MODEL: &str = "gpt-5.5";
pub const API_KEY: &str = "sk-massgen-test-codex";
const SYSTEM_PROMPT: &str = "You are agent_a in a MassGen team. SYSTEM-MARKER-7f3.";

/// The bridge's tools: `vote` and `new_answer`, each call recorded.
#[derive(Clone, Default)]
pub struct Recorder {
    pub calls: Arc<Mutex<Vec<(String, Value)>>>,
}

impl BridgeTools for Recorder {
    fn tools(&self) -> Vec<ToolSpec> {
        let schema = |property: &str| {
            json!({
                "type": "object",
                "properties": { property: { "type": "string" } },
                "required": [property],
            })
        };
        vec![
            ToolSpec {
                name: "vote".into(),
                description: "Vote for the best answer.".into(),
                parameters: schema("agent_id"),
            },
            ToolSpec {
                name: "new_answer".into(),
                description: "Submit a new answer.".into(),
                parameters: schema("content"),
            },
        ]
    }

    fn call(&self, name: String, arguments: Value) -> BoxFuture<'static, BridgeReply> {
        self.calls.lock().unwrap().push((name.clone(), arguments));
        Box::pin(async move {
            BridgeReply {
                text: format!("{name} recorded"),
                is_error: false,
            }
        })
    }
}

/// One agent: its workspace and its CLI home, in a temp dir.
pub struct Agent {
    _dir: tempfile::TempDir,
    pub cwd: PathBuf,
    pub home: PathBuf,
    pub user_home: PathBuf,
}

impl Agent {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let agent = Self {
            cwd: root.join("workspace"),
            home: root.join("codex-home"),
            user_home: root.join("user"),
            _dir: dir,
        };
        for path in [&agent.cwd, &agent.home, &agent.user_home] {
            std::fs::create_dir_all(path).unwrap();
        }
        agent
    }
}

/// What one start printed, what the dialect's parser read from it as it came, and how it
/// ended.
pub struct Outcome {
    pub lines: Vec<String>,
    pub events: Vec<CliEvent>,
    pub exit: Result<(), String>,
}

impl Outcome {
    pub fn session(&self) -> String {
        self.events
            .iter()
            .cloned()
            .find_map(|event| match event {
                CliEvent::Session(id) => Some(id),
                _ => None,
            })
            .expect("no session reported")
    }
}

pub struct Run<'a> {
    pub agent: &'a Agent,
    pub fake: &'a FakeModel,
    pub bridge: &'a BridgeAddress,
    pub prompt: &'a str,
    pub resume: Option<&'a str>,
    pub options: CliOptions,
}

/// Starts the CLI once as the backend does and reads all it prints.
pub async fn start(codex: &Codex, program: &Path, run: Run<'_>) -> Outcome {
    let launch = Launch {
        model: Some(MODEL),
        cwd: &run.agent.cwd,
        home: &run.agent.home,
        system_prompt: SYSTEM_PROMPT,
        prompt: run.prompt,
        resume: run.resume,
        bridge: run.bridge,
        options: &run.options,
        base_url: Some(&run.fake.base_url),
    };
    let plan = codex.command(&launch);
    let start = Start {
        program,
        confinement: Plan {
            workspace: run.agent.cwd.clone(),
            writable: vec![run.agent.home.clone()],
            network: true,
            read_everything: true,
            ..Plan::default()
        },
        home: &run.agent.home,
        env: vec![
            ("PATH".into(), std::env::var_os("PATH").unwrap_or_default()),
            ("HOME".into(), run.agent.user_home.clone().into()),
            ("CODEX_API_KEY".into(), API_KEY.into()),
        ],
        label: "test codex".into(),
    };
    let mut process = CliProcess::start(start, &plan).await.unwrap();
    let mut parser = codex.parser();
    let read = async {
        let (mut lines, mut events) = (Vec::new(), Vec::new());
        while let Some(line) = process.next_line().await {
            events.extend(parser.line(&line));
            lines.push(line);
        }
        let exit = process.finish().await;
        Outcome {
            lines,
            events,
            exit,
        }
    };
    let outcome = tokio::time::timeout(START_TIMEOUT, read)
        .await
        .expect("codex did not finish in time");
    // `process` is dropped here: the whole process group is killed.
    outcome
}

pub fn codex_program() -> Option<PathBuf> {
    harness::peer("node_modules/.bin/codex")
}

pub fn per_request(requests: usize) -> Usage {
    let requests = requests as u64;
    Usage {
        input_tokens: INPUT_TOKENS * requests,
        cached_input_tokens: CACHED_TOKENS * requests,
        output_tokens: OUTPUT_TOKENS * requests,
        reasoning_tokens: REASONING_TOKENS * requests,
        ..Usage::default()
    }
}
