//! MassGen's registry of recommended MCP servers (`mcp_tools/server_registry.py`), which
//! `auto_discover_custom_tools: true` adds to an agent's `mcp_servers`: those that need no
//! API key or whose key is set, never over a server of the same name.

use super::env::Env;
use super::schema::Config;
use super::secret::Secret;
use super::tools::{DEFAULT_CALL_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, McpServerConfig, McpTransport};

/// How a registry server reaches its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    /// Runs without one; given this variable, it gets higher rate limits.
    Optional(&'static str),
    /// Not offered unless this variable is set; passed in the server's environment.
    RequiredEnv(&'static str),
    /// Not offered unless this variable is set; sent as `Authorization: Bearer`.
    RequiredBearer(&'static str),
}

struct Entry {
    name: &'static str,
    /// A stdio command and its arguments, or (with an empty command) a streamable-HTTP URL.
    command: &'static str,
    args: &'static [&'static str],
    url: &'static str,
    key: Key,
}

const REGISTRY: [Entry; 4] = [
    Entry {
        name: "context7",
        command: "npx",
        args: &["-y", "@upstash/context7-mcp"],
        url: "",
        key: Key::Optional("CONTEXT7_API_KEY"),
    },
    Entry {
        name: "brave_search",
        command: "npx",
        args: &["-y", "@brave/brave-search-mcp-server"],
        url: "",
        key: Key::RequiredEnv("BRAVE_API_KEY"),
    },
    Entry {
        name: "exa_search",
        command: "npx",
        args: &["-y", "exa-mcp-server"],
        url: "",
        key: Key::RequiredEnv("EXA_API_KEY"),
    },
    Entry {
        name: "parallel_search",
        command: "",
        args: &[],
        url: "https://search.parallel.ai/mcp",
        key: Key::RequiredBearer("PARALLEL_API_KEY"),
    },
];

/// The registry's servers `env` makes available, in the registry's order.
pub fn available(env: &Env) -> Vec<McpServerConfig> {
    let value = |name: &str| {
        env.get(name)
            .filter(|value| !value.trim().is_empty())
            .map(|value| Secret::new(value.to_string()))
    };
    REGISTRY
        .iter()
        .filter_map(|entry| {
            let key = match entry.key {
                Key::Optional(name) => value(name).map(|secret| (name, secret)),
                Key::RequiredEnv(name) | Key::RequiredBearer(name) => Some((name, value(name)?)),
            };
            let transport = if entry.command.is_empty() {
                let headers = key
                    .map(|(_, secret)| {
                        let bearer = format!("Bearer {}", secret.expose());
                        ("Authorization".to_string(), Secret::new(bearer))
                    })
                    .into_iter()
                    .collect();
                McpTransport::StreamableHttp {
                    url: entry.url.to_string(),
                    headers,
                }
            } else {
                // MassGen passes Context7's optional key as `--api-key`; the environment
                // keeps it out of process listings, and the server reads it there too.
                McpTransport::Stdio {
                    command: entry.command.to_string(),
                    args: entry.args.iter().map(|arg| (*arg).to_string()).collect(),
                    env: key
                        .map(|(name, secret)| (name.to_string(), secret))
                        .into_iter()
                        .collect(),
                    cwd: None,
                }
            };
            Some(McpServerConfig {
                name: entry.name.to_string(),
                transport,
                connect_timeout: DEFAULT_CONNECT_TIMEOUT,
                call_timeout: DEFAULT_CALL_TIMEOUT,
                allowed_tools: None,
                exclude_tools: Vec::new(),
            })
        })
        .collect()
}

/// Adds the available registry servers to every agent that asked for them, skipping names
/// the agent already configures.
pub fn merge_into(config: &mut Config, env: &Env) {
    if !config
        .agents
        .iter()
        .any(|agent| agent.backend.tools.auto_discover)
    {
        return;
    }
    let servers = available(env);
    for agent in &mut config.agents {
        let tools = &mut agent.backend.tools;
        if !tools.auto_discover {
            continue;
        }
        for server in &servers {
            if !tools.mcp_servers.iter().any(|own| own.name == server.name) {
                tools.mcp_servers.push(server.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::from_text;

    fn servers(yaml: &str, env: &[(&str, &str)]) -> Vec<McpServerConfig> {
        let env = Env::from_pairs(env.iter().copied());
        let loaded = from_text(yaml, "t.yaml", &env).unwrap();
        loaded.config.agents[0].backend.tools.mcp_servers.clone()
    }

    fn names(servers: &[McpServerConfig]) -> Vec<&str> {
        servers.iter().map(|server| server.name.as_str()).collect()
    }

    const DISCOVERING: &str = "agent:\n  id: a\n  backend:\n    type: scripted\n    \
                               auto_discover_custom_tools: true\n";

    #[test]
    fn without_keys_only_the_keyless_server_joins() {
        let found = servers(DISCOVERING, &[]);
        assert_eq!(names(&found), ["context7"]);
        let McpTransport::Stdio {
            command, args, env, ..
        } = &found[0].transport
        else {
            panic!("{:?}", found[0].transport);
        };
        assert_eq!(
            (command.as_str(), args.as_slice()),
            (
                "npx",
                &["-y".to_string(), "@upstash/context7-mcp".into()][..]
            )
        );
        assert!(env.is_empty());
    }

    #[test]
    fn a_set_key_brings_its_server_with_the_key() {
        let found = servers(
            DISCOVERING,
            &[
                ("BRAVE_API_KEY", "brave-secret"),
                ("PARALLEL_API_KEY", "p-secret"),
                ("EXA_API_KEY", " "),
            ],
        );
        assert_eq!(
            names(&found),
            ["context7", "brave_search", "parallel_search"]
        );
        let McpTransport::Stdio { env, .. } = &found[1].transport else {
            panic!("{:?}", found[1].transport);
        };
        assert_eq!(
            (env[0].0.as_str(), env[0].1.expose()),
            ("BRAVE_API_KEY", "brave-secret")
        );
        let McpTransport::StreamableHttp { headers, .. } = &found[2].transport else {
            panic!("{:?}", found[2].transport);
        };
        assert_eq!(headers[0].1.expose(), "Bearer p-secret");
    }

    #[test]
    fn configured_names_win_and_agents_that_did_not_ask_get_nothing() {
        let own = format!(
            "{DISCOVERING}    mcp_servers: [{{name: context7, command: uvx, args: [mine]}}]\n"
        );
        let found = servers(&own, &[]);
        assert_eq!(names(&found), ["context7"]);
        assert!(
            matches!(&found[0].transport, McpTransport::Stdio { command, .. } if command == "uvx")
        );
        let plain = "agent:\n  id: a\n  backend:\n    type: scripted\n";
        assert!(servers(plain, &[("BRAVE_API_KEY", "k")]).is_empty());
    }
}
