//! [`McpServers`]: one agent's MCP servers — started together, their tools offered under
//! full names, calls bounded by timeouts and a circuit breaker, failures turned into text
//! the model can read.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use futures::future::{BoxFuture, join_all};

use super::breaker::{Admission, Breaker};
use super::client::{McpClient, McpError, seconds};
use super::naming::{ToolNames, full_name};
use crate::backend::ToolSpec;
use crate::config::McpServerConfig;
use crate::protocol::McpServerState;
use crate::tools::ToolOutcome;

/// Where server state changes go: `(server name, new state)`.
pub type Report = Arc<dyn Fn(&str, McpServerState) + Send + Sync>;

/// Opens a session with one server (massgen's own client in production, fakes in tests).
pub type Connector = Arc<
    dyn Fn(McpServerConfig) -> BoxFuture<'static, Result<Arc<dyn McpClient>, McpError>>
        + Send
        + Sync,
>;

/// How much of a call's arguments an error repeats back.
const ARGS_PREVIEW_CHARS: usize = 200;

pub struct McpServers {
    servers: Vec<Server>,
    names: ToolNames,
    /// Server name → index in `servers`.
    by_name: HashMap<String, usize>,
    connector: Connector,
    report: Report,
    /// After [`Self::shutdown`], calls are refused instead of restarting servers.
    shut_down: AtomicBool,
}

struct Server {
    config: McpServerConfig,
    client: RwLock<Arc<dyn McpClient>>,
    /// The session ended under us (the process exited, the HTTP server went away); the next
    /// call reconnects first.
    dead: AtomicBool,
    reconnecting: tokio::sync::Mutex<()>,
    tools: Vec<ToolSpec>,
    health: Mutex<Health>,
}

#[derive(Default)]
struct Health {
    breaker: Breaker,
    /// `Paused` was reported and no success since.
    paused: bool,
}

impl McpServers {
    /// Starts every server at once, each bounded by its `connect_timeout`, reporting
    /// `Starting` then `Ready` or `Failed`. Servers that fail are left out.
    pub async fn start(
        configs: &[McpServerConfig],
        report: impl Fn(&str, McpServerState) + Send + Sync + 'static,
    ) -> Self {
        Self::start_with(
            configs,
            Arc::new(report),
            Arc::new(super::native_client::connect),
        )
        .await
    }

    /// [`Self::start`] with another way to connect.
    pub async fn start_with(
        configs: &[McpServerConfig],
        report: Report,
        connector: Connector,
    ) -> Self {
        let names = Mutex::new(ToolNames::default());
        let mut seen = HashMap::new();
        let starts = configs.iter().enumerate().map(|(index, config)| {
            let duplicate = seen.insert(config.name.clone(), index).is_some();
            let (names, report, connector) = (&names, &report, &connector);
            async move {
                if duplicate {
                    let error = format!("another MCP server is already named `{}`", config.name);
                    report(&config.name, McpServerState::Failed { error });
                    return None;
                }
                start_one(config, names, report, connector).await
            }
        });
        let servers: Vec<Server> = join_all(starts).await.into_iter().flatten().collect();
        let by_name = servers
            .iter()
            .enumerate()
            .map(|(index, server)| (server.config.name.clone(), index))
            .collect();
        Self {
            servers,
            names: names.into_inner().unwrap_or_else(PoisonError::into_inner),
            by_name,
            connector,
            report,
            shut_down: AtomicBool::new(false),
        }
    }

    /// Every offered tool of every server that started, under its full name.
    pub fn tools(&self) -> Vec<ToolSpec> {
        self.servers
            .iter()
            .flat_map(|server| server.tools.iter().cloned())
            .collect()
    }

    /// Each started server's name with its offered tools: the tool's own name and its
    /// spec under the full name.
    pub fn tools_by_server(&self) -> Vec<(String, Vec<(String, ToolSpec)>)> {
        let tools_of = |server: &Server| {
            let tools = server.tools.iter().filter_map(|spec| {
                let (_, tool) = self.names.resolve(&spec.name)?;
                Some((tool.to_string(), spec.clone()))
            });
            (server.config.name.clone(), tools.collect())
        };
        self.servers.iter().map(tools_of).collect()
    }

    /// Whether `full_name` is one of [`Self::tools`].
    pub fn handles(&self, full_name: &str) -> bool {
        self.route(full_name).is_some()
    }

    /// Runs one call. Never fails: every problem becomes an error outcome for the model.
    pub async fn call(&self, full_name: &str, arguments_json: &str) -> ToolOutcome {
        let Some((server, tool)) = self.route(full_name) else {
            return refusal(format!(
                "Tool `{full_name}` is not offered by any of your MCP servers. Use only the \
                 tools you were given."
            ));
        };
        let name = &server.config.name;
        if self.shut_down.load(Ordering::SeqCst) {
            return refusal(format!("MCP server `{name}` has been shut down."));
        }
        let arguments = match parse_arguments(arguments_json) {
            Ok(arguments) => arguments,
            Err(problem) => {
                return refusal(format!(
                    "The arguments for `{full_name}` are not usable: {problem}. Send one JSON \
                     object that matches the tool's schema."
                ));
            }
        };
        let admission = lock(&server.health).breaker.admit(now());
        if let Admission::Paused { failures, retry_in } = admission {
            return refusal(format!(
                "MCP server `{name}` is paused after {failures} failures; try again in {} s.",
                retry_in.as_secs_f64().ceil()
            ));
        }
        let client = match self.live_client(server).await {
            Ok(client) => client,
            Err(error) => {
                self.failed(server);
                return refusal(format!(
                    "MCP server `{name}` stopped and could not be restarted: {error}."
                ));
            }
        };
        let timeout = server.config.call_timeout;
        match tokio::time::timeout(timeout, client.call_tool(tool, arguments)).await {
            Ok(Ok(result)) => {
                self.succeeded(server);
                let output = match (result.is_error, result.text.trim().is_empty()) {
                    (true, true) => "The tool reported an error without a message.".to_owned(),
                    (true, false) | (false, _) => result.text,
                };
                ToolOutcome {
                    ok: !result.is_error,
                    output,
                }
            }
            Ok(Err(McpError::Protocol(message))) => refusal(format!(
                "MCP server `{name}` refused the call to `{tool}`: {message}"
            )),
            Ok(Err(error)) => {
                if matches!(error, McpError::Closed { .. } | McpError::Connect(_)) {
                    server.dead.store(true, Ordering::SeqCst);
                }
                self.failed(server);
                refusal(format!(
                    "Tool `{full_name}` failed: MCP server `{name}`: {error}."
                ))
            }
            Err(_elapsed) => {
                self.failed(server);
                refusal(format!(
                    "Tool `{full_name}` timed out after {} and was abandoned (arguments: {}). \
                     Try a smaller request or another way.",
                    seconds(timeout),
                    preview(arguments_json)
                ))
            }
        }
    }

    /// Ends every session and stops the servers massgen started.
    pub async fn shutdown(&self) {
        self.shut_down.store(true, Ordering::SeqCst);
        join_all(self.servers.iter().map(|server| async move {
            let client = read(&server.client);
            client.close().await;
        }))
        .await;
    }

    fn route(&self, full_name: &str) -> Option<(&Server, &str)> {
        let (server, tool) = self.names.resolve(full_name)?;
        let server = self.servers.get(*self.by_name.get(server)?)?;
        server
            .tools
            .iter()
            .any(|spec| spec.name == full_name)
            .then_some((server, tool))
    }

    /// The server's client, reconnecting first when its session ended.
    async fn live_client(&self, server: &Server) -> Result<Arc<dyn McpClient>, McpError> {
        if !server.dead.load(Ordering::SeqCst) {
            return Ok(read(&server.client));
        }
        let _only_one = server.reconnecting.lock().await;
        if !server.dead.load(Ordering::SeqCst) {
            return Ok(read(&server.client));
        }
        let timeout = server.config.connect_timeout;
        let fresh = tokio::time::timeout(timeout, (self.connector)(server.config.clone()))
            .await
            .map_err(|_| McpError::Timeout(timeout))??;
        let old = std::mem::replace(
            &mut *server
                .client
                .write()
                .unwrap_or_else(PoisonError::into_inner),
            fresh.clone(),
        );
        server.dead.store(false, Ordering::SeqCst);
        tracing::info!(target: "massgen::mcp", server = %server.config.name, "reconnected");
        old.close().await;
        Ok(fresh)
    }

    fn succeeded(&self, server: &Server) {
        let was_paused = {
            let mut health = lock(&server.health);
            health.breaker.record_success();
            std::mem::take(&mut health.paused)
        };
        if was_paused {
            let tools = server.tools.iter().map(|spec| spec.name.clone()).collect();
            (self.report)(&server.config.name, McpServerState::Ready { tools });
        }
    }

    fn failed(&self, server: &Server) {
        let pause = {
            let mut health = lock(&server.health);
            let pause = health.breaker.record_failure(now());
            if pause.is_some() {
                health.paused = true;
            }
            pause
        };
        if let Some(pause) = pause {
            tracing::warn!(
                target: "massgen::mcp",
                server = %server.config.name,
                "paused for {} after repeated failures",
                seconds(pause)
            );
            let retry_in_secs = pause.as_secs_f64().ceil() as u64;
            (self.report)(
                &server.config.name,
                McpServerState::Paused { retry_in_secs },
            );
        }
    }
}

async fn start_one(
    config: &McpServerConfig,
    names: &Mutex<ToolNames>,
    report: &Report,
    connector: &Connector,
) -> Option<Server> {
    let name = config.name.as_str();
    report(name, McpServerState::Starting);
    let started = tokio::time::timeout(config.connect_timeout, async {
        let client = connector(config.clone()).await?;
        match client.list_tools().await {
            Ok(tools) => Ok((client, tools)),
            Err(error) => {
                client.close().await;
                Err(error)
            }
        }
    })
    .await;
    let (client, remote) = match started {
        Ok(Ok(started)) => started,
        Ok(Err(error)) => {
            tracing::warn!(target: "massgen::mcp", server = name, "did not start: {error}");
            report(
                name,
                McpServerState::Failed {
                    error: error.to_string(),
                },
            );
            return None;
        }
        Err(_elapsed) => {
            let error = format!(
                "did not start within {} (connect_timeout)",
                seconds(config.connect_timeout)
            );
            tracing::warn!(target: "massgen::mcp", server = name, "{error}");
            report(name, McpServerState::Failed { error });
            return None;
        }
    };
    let tools: Vec<ToolSpec> = {
        let mut names = lock(names);
        remote
            .into_iter()
            .filter(|tool| config.offers(&tool.name, &full_name(name, &tool.name)))
            .map(|tool| ToolSpec {
                name: names.insert(name, &tool.name),
                description: tool.description,
                parameters: tool.input_schema,
            })
            .collect()
    };
    let offered = tools.iter().map(|spec| spec.name.clone()).collect();
    report(name, McpServerState::Ready { tools: offered });
    Some(Server {
        config: config.clone(),
        client: RwLock::new(client),
        dead: AtomicBool::new(false),
        reconnecting: tokio::sync::Mutex::new(()),
        tools,
        health: Mutex::new(Health::default()),
    })
}

fn parse_arguments(json: &str) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    if json.trim().is_empty() {
        return Ok(serde_json::Map::new());
    }
    match serde_json::from_str(json) {
        Ok(serde_json::Value::Object(arguments)) => Ok(arguments),
        Ok(serde_json::Value::Null) => Ok(serde_json::Map::new()),
        Ok(other) => Err(format!("they are {}, not a JSON object", json_kind(&other))),
        Err(error) => Err(format!("they are not valid JSON ({error})")),
    }
}

fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

fn preview(arguments: &str) -> String {
    let arguments = arguments.trim();
    match arguments.char_indices().nth(ARGS_PREVIEW_CHARS) {
        Some((cut, _)) => format!("{}…", &arguments[..cut]),
        None => arguments.to_owned(),
    }
}

fn refusal(output: String) -> ToolOutcome {
    ToolOutcome { ok: false, output }
}

/// Follows tokio's clock, so tests with a paused clock can move the breaker's time.
fn now() -> std::time::Instant {
    tokio::time::Instant::now().into_std()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn read(client: &RwLock<Arc<dyn McpClient>>) -> Arc<dyn McpClient> {
    client
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

#[cfg(test)]
#[path = "servers_tests.rs"]
mod tests;
