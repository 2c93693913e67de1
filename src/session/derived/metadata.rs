//! `execution_metadata.yaml`: what was asked, with which config, from where, by which
//! version. The config is summarised field by field, so keys, MCP `env` values and header
//! values never reach it. (JSON is YAML 1.2; the file is written as JSON text.)

use std::path::Path;

use serde_json::{Value, json};

use crate::config::{Config, McpTransport, Permission, Sensitivity};

pub fn execution_metadata(
    config: &Config,
    question: &str,
    turn: u32,
    session_id: Option<&str>,
    working_directory: Option<&Path>,
) -> Value {
    json!({
        "query": question,
        "timestamp": jiff::Timestamp::now().to_string(),
        "turn": turn,
        "session_id": session_id,
        "config_path": config.source_name,
        "config": config_summary(config),
        "massgen_version": env!("CARGO_PKG_VERSION"),
        "implementation": "massgen (Rust)",
        "working_directory": working_directory.map(|path| path.to_string_lossy()),
    })
}

fn config_summary(config: &Config) -> Value {
    let sensitivity = |value: Sensitivity| match value {
        Sensitivity::Lenient => "lenient",
        Sensitivity::Balanced => "balanced",
        Sensitivity::Strict => "strict",
    };
    let agents: Vec<Value> = config
        .agents
        .iter()
        .map(|agent| {
            let backend = &agent.backend;
            let servers: Vec<Value> = backend
                .tools
                .mcp_servers
                .iter()
                .map(|server| match &server.transport {
                    McpTransport::Stdio {
                        command, args, env, ..
                    } => json!({
                        "name": server.name,
                        "type": "stdio",
                        "command": command,
                        "args": args,
                        "env": env.iter().map(|(name, _)| name).collect::<Vec<_>>(),
                    }),
                    McpTransport::StreamableHttp { url, headers } => json!({
                        "name": server.name,
                        "type": "streamable-http",
                        "url": url,
                        "headers": headers.iter().map(|(name, _)| name).collect::<Vec<_>>(),
                    }),
                })
                .collect();
            json!({
                "id": agent.id,
                "backend": {
                    "type": backend.kind.name(),
                    "model": backend.model,
                    "base_url": backend.base_url,
                    "api_key": backend.api_key.as_ref().map(|_| "(set; not recorded)"),
                    "temperature": backend.temperature,
                    "max_tokens": backend.max_tokens,
                    "cwd": backend.tools.cwd,
                    "mcp_servers": servers,
                    "command_line": backend.tools.command_line.is_some(),
                },
                "system_message": agent.system_message,
            })
        })
        .collect();
    let orchestrator = &config.orchestrator;
    json!({
        "agents": agents,
        "orchestrator": {
            "voting_sensitivity": sensitivity(orchestrator.voting_sensitivity),
            "answer_novelty_requirement": sensitivity(orchestrator.answer_novelty_requirement),
            "max_new_answers_per_agent": orchestrator.max_new_answers_per_agent,
            "context_paths": orchestrator.context_paths.iter().map(|context| json!({
                "path": context.path,
                "permission": match context.permission {
                    Permission::Read => "read",
                    Permission::Write => "write",
                },
            })).collect::<Vec<_>>(),
        },
        "timeout_settings": {
            "orchestrator_timeout_seconds": config.timeouts.orchestrator.as_secs(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Env, from_text};

    #[test]
    fn the_config_is_summarised_without_any_secret() {
        let yaml = "agent:\n  id: a\n  backend:\n    type: openai\n    model: gpt-5\n    \
                    api_key: sk-SECRET-1\n    mcp_servers:\n      - {name: s, command: x, env: {TOKEN: SECRET-2}}\n      \
                    - {name: h, url: \"http://localhost:1/mcp\", headers: {Authorization: SECRET-3}}\n";
        let config = from_text(yaml, "t.yaml", &Env::default()).unwrap().config;
        let metadata = execution_metadata(&config, "q", 1, Some("session_x"), None);
        let text = metadata.to_string();
        assert!(!text.contains("SECRET"), "{text}");
        assert_eq!(metadata["config"]["agents"][0]["backend"]["model"], "gpt-5");
        assert_eq!(
            metadata["config"]["agents"][0]["backend"]["mcp_servers"][0]["env"][0],
            "TOKEN"
        );
        assert_eq!(metadata["query"], "q");
    }
}
