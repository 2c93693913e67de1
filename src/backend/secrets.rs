//! Every secret a run is handed, gathered into one [`Redactor`]: each agent's API key (from
//! the config or the environment), MCP header values, secret-looking MCP `env` values, and
//! passwords or tokens inside `base_url` and MCP URLs.

use reqwest::Url;

use super::provider;
use crate::config::{AgentConfig, Config, Env, McpTransport, credential_name};
use crate::redact::Redactor;

/// The redactor for everything `config` run with `env` prints, logs or stores.
pub fn redactor_for(config: &Config, env: &Env) -> Redactor {
    let mut secrets: Vec<String> = Vec::new();
    for agent in &config.agents {
        agent_secrets(agent, env, &mut secrets);
    }
    Redactor::new(secrets)
}

/// As [`redactor_for`], plus every provider key set in `env`: for a run whose agents can
/// change (`/agents`), so the key of an agent added later is hidden too.
pub fn redactor_for_any_agents(config: &Config, env: &Env) -> Redactor {
    let mut secrets: Vec<String> = Vec::new();
    for agent in &config.agents {
        agent_secrets(agent, env, &mut secrets);
    }
    for kind in crate::config::BackendKind::ALL {
        let vars = provider::provider(kind).map_or(&[][..], |provider| provider.key_vars);
        secrets.extend(
            vars.iter()
                .filter_map(|var| env.get(var))
                .map(str::to_string),
        );
    }
    Redactor::new(secrets)
}

fn agent_secrets(agent: &AgentConfig, env: &Env, secrets: &mut Vec<String>) {
    let backend = &agent.backend;
    if let Some(key) = &backend.api_key {
        secrets.push(key.expose().to_string());
    }
    if provider::provider(backend.kind).is_some()
        && let Ok(endpoint) = provider::resolve(backend, env)
    {
        secrets.extend(endpoint.api_key.map(|key| key.expose().to_string()));
        url_secrets(&endpoint.base_url, secrets);
    }
    if let Some(base_url) = &backend.base_url {
        url_secrets(base_url, secrets);
    }
    // An agent CLI reads its key from the environment itself (and its shell could print
    // it): every variable it may sign in with is a secret.
    if let Some(dialect) = super::agent_cli::build::dialect(backend.kind) {
        secrets.extend(
            dialect
                .key_variables()
                .iter()
                .chain(&["CODEX_API_KEY", "OPENAI_API_KEY"])
                .filter_map(|variable| env.get(variable))
                .map(str::to_string),
        );
    }
    for server in &backend.tools.mcp_servers {
        match &server.transport {
            McpTransport::Stdio { env, .. } => {
                for (name, value) in env {
                    if credential_name(name) || key_like(value.expose()) {
                        secrets.push(value.expose().to_string());
                    }
                }
            }
            McpTransport::StreamableHttp { url, headers } => {
                url_secrets(url, secrets);
                for (_, value) in headers {
                    header_secrets(value.expose(), secrets);
                }
            }
        }
    }
}

/// A header value, and its credential alone when it has a scheme (`Bearer <token>`).
fn header_secrets(value: &str, secrets: &mut Vec<String>) {
    let value = value.trim();
    secrets.push(value.to_string());
    if let Some((_scheme, credential)) = value.split_once(char::is_whitespace) {
        secrets.push(credential.trim().to_string());
    }
}

/// The user info of `url` (`user:password@`), and the values of query parameters whose
/// names say they are credentials (`?key=`, `?token=`).
fn url_secrets(url: &str, secrets: &mut Vec<String>) {
    let Ok(parsed) = Url::parse(url.trim()) else {
        return;
    };
    if let Some(password) = parsed.password() {
        secrets.push(password.to_string());
        secrets.push(format!("{}:{password}", parsed.username()));
        secrets.extend(percent_decoded(password));
    }
    for (name, value) in parsed.query_pairs() {
        if credential_name(&name) {
            secrets.push(value.into_owned());
        }
    }
}

/// `text` with `%XX` escapes decoded, when that differs and is UTF-8.
fn percent_decoded(text: &str) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let escaped = (bytes[at] == b'%')
            .then(|| text.get(at + 1..at + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                at += 3;
            }
            None => {
                out.push(bytes[at]);
                at += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// A value that looks like a generated credential: long, one word, not a path or a URL,
/// letters and digits mixed.
fn key_like(value: &str) -> bool {
    let value = value.trim();
    value.len() >= 20
        && !value.contains(['/', '\\', ' ', ':'])
        && value.chars().any(|ch| ch.is_ascii_digit())
        && value.chars().any(|ch| ch.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_clis_keys_in_the_environment_are_secrets() {
        let yaml = "agents:\n  - id: a\n    backend: {type: claude_code}\n  - id: b\n    backend: {type: codex}\n";
        let config = crate::config::from_text(yaml, "t.yaml", &Env::default())
            .unwrap()
            .into_runnable()
            .unwrap()
            .0;
        let env = Env::from_pairs([
            ("ANTHROPIC_API_KEY", "sk-ant-secret-1"),
            ("CLAUDE_CODE_OAUTH_TOKEN", "oauth-secret-2"),
            ("OPENAI_API_KEY", "sk-openai-secret-3"),
        ]);
        let redactor = redactor_for(&config, &env);
        let shown = redactor.redact("sk-ant-secret-1 oauth-secret-2 sk-openai-secret-3");
        assert!(!shown.contains("secret"), "{shown}");
    }

    #[test]
    fn url_user_info_and_credential_parameters() {
        let mut secrets = Vec::new();
        url_secrets(
            "https://bob:p%40ss-word-1@example.com/v1?key=abc123def456&model=x",
            &mut secrets,
        );
        assert!(secrets.contains(&"p%40ss-word-1".to_string()));
        assert!(secrets.contains(&"p@ss-word-1".to_string()));
        assert!(secrets.contains(&"bob:p%40ss-word-1".to_string()));
        assert!(secrets.contains(&"abc123def456".to_string()));
        assert!(!secrets.contains(&"x".to_string()));
    }

    #[test]
    fn header_values_with_and_without_scheme() {
        let mut secrets = Vec::new();
        header_secrets("Bearer tok-1234567890", &mut secrets);
        header_secrets("plain-token-value", &mut secrets);
        assert_eq!(
            secrets,
            [
                "Bearer tok-1234567890",
                "tok-1234567890",
                "plain-token-value"
            ]
        );
    }

    #[test]
    fn keys_from_the_environment_mcp_headers_and_secret_env_values_are_gathered() {
        let yaml = "agents:
  - id: a
    backend:
      type: openai
      model: gpt-5
      mcp_servers:
        - name: gh
          type: stdio
          command: server
          env: {GITHUB_TOKEN: ghp-0123456789, ROOT_DIR: /home/me/project-dir}
        - name: web
          type: streamable-http
          url: https://example.com/mcp
          headers: {Authorization: Bearer web-token-0123456789}
";
        let config = crate::config::from_text(yaml, "t.yaml", &Env::default())
            .unwrap()
            .into_checked()
            .0;
        let env = Env::from_pairs([("OPENAI_API_KEY", "sk-from-the-environment")]);
        let redactor = redactor_for(&config, &env);
        let shown = redactor.redact(
            "sk-from-the-environment ghp-0123456789 web-token-0123456789 /home/me/project-dir",
        );
        assert_eq!(
            shown,
            "[REDACTED] [REDACTED] [REDACTED] /home/me/project-dir"
        );
    }

    #[test]
    fn key_like_values() {
        assert!(key_like("ghp_0123456789abcdefABCDEF"));
        assert!(!key_like("/home/user/project/with/digits/2024"));
        assert!(!key_like("short1"));
        assert!(!key_like("https://example.com/v1"));
    }
}
