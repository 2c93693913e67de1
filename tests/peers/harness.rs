//! Finds the MCP test peers installed in this folder and describes them as
//! `McpServerConfig`s; starts the streamable-HTTP one. Used by `tests/tools/`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use massgen::config::{McpServerConfig, McpTransport, Secret};
use massgen::mcp::McpServers;
use massgen::protocol::McpServerState;

pub fn peers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers")
}

/// The peer at `tests/peers/<relative>`, or `None` (skip) when it is not installed.
pub fn peer(relative: &str) -> Option<PathBuf> {
    let path = peers().join(relative);
    if path.exists() {
        return Some(path);
    }
    let why = format!(
        "{} is missing: install the test peers with .ci/run's install step \
         (`npm ci --prefix tests/peers` and `python3 -m venv tests/peers/.venv && \
         tests/peers/.venv/bin/pip install -r tests/peers/requirements.txt`)",
        path.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("skipping: {why}");
    None
}

/// `program` from the Python peers' virtualenv (`tests/peers/.venv/bin/`), or `None` (skip)
/// as [`peer`]. Outside CI, `MASSGEN_PEERS_VENV` names another virtualenv to take it from
/// (a scratch one, to try a new pin before `.ci/run` installs it); CI always uses the
/// pinned one.
#[allow(dead_code)]
pub fn venv_program(program: &str) -> Option<PathBuf> {
    let scratch = std::env::var_os("MASSGEN_PEERS_VENV")
        .filter(|_| std::env::var("CI").as_deref() != Ok("true"));
    match scratch {
        Some(venv) => {
            let path = PathBuf::from(venv).join("bin").join(program);
            assert!(
                path.exists(),
                "{} is missing: MASSGEN_PEERS_VENV names a virtualenv without it",
                path.display()
            );
            Some(path)
        }
        None => peer(&format!(".venv/bin/{program}")),
    }
}

pub fn everything() -> Option<McpServerConfig> {
    let bin = peer("node_modules/.bin/mcp-server-everything")?;
    Some(stdio("everything", &bin, &["stdio"]))
}

/// `mcp_peer.py` over stdio.
pub fn python_stdio(name: &str) -> Option<McpServerConfig> {
    let python = peer(".venv/bin/python")?;
    let script = peers().join("mcp_peer.py");
    Some(stdio(name, &python, &[script.to_str().unwrap(), "stdio"]))
}

pub fn stdio(name: &str, command: &Path, args: &[&str]) -> McpServerConfig {
    McpServerConfig {
        name: name.into(),
        transport: McpTransport::Stdio {
            command: command.to_str().unwrap().into(),
            args: args.iter().map(|arg| arg.to_string()).collect(),
            env: Vec::new(),
            cwd: None,
        },
        connect_timeout: Duration::from_secs(30),
        call_timeout: Duration::from_secs(30),
        allowed_tools: None,
        exclude_tools: Vec::new(),
    }
}

pub type Reports = Arc<Mutex<Vec<(String, McpServerState)>>>;

pub async fn start(configs: &[McpServerConfig]) -> (McpServers, Reports) {
    let reports = Reports::default();
    let sink = reports.clone();
    let servers = McpServers::start(configs, move |server: &str, state| {
        sink.lock().unwrap().push((server.to_owned(), state));
    })
    .await;
    (servers, reports)
}

pub fn last_state(reports: &Reports, server: &str) -> Option<McpServerState> {
    let reports = reports.lock().unwrap();
    reports
        .iter()
        .rev()
        .find(|(name, _)| name == server)
        .map(|(_, state)| state.clone())
}

pub fn ready_tools(reports: &Reports, server: &str) -> Vec<String> {
    match last_state(reports, server) {
        Some(McpServerState::Ready { tools }) => tools,
        other => panic!("{server} is not ready: {other:?}"),
    }
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `mcp_peer.py` serving streamable HTTP; killed on drop.
pub struct HttpPeer {
    child: std::process::Child,
    pub port: u16,
    pub url: String,
}

impl HttpPeer {
    pub fn start() -> Option<Self> {
        Self::start_on(free_port())
    }

    pub fn start_on(port: u16) -> Option<Self> {
        let python = peer(".venv/bin/python")?;
        let child = std::process::Command::new(python)
            .arg(peers().join("mcp_peer.py"))
            .args(["http", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let peer = Self {
            child,
            port,
            url: format!("http://127.0.0.1:{port}/mcp"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the HTTP peer did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(peer)
    }
}

impl Drop for HttpPeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn http(name: &str, url: &str, headers: Vec<(String, Secret)>) -> McpServerConfig {
    McpServerConfig {
        transport: McpTransport::StreamableHttp {
            url: url.into(),
            headers,
        },
        ..stdio(name, Path::new("unused"), &[])
    }
}
