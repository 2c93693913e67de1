//! Model servers already running on this machine, found by asking each well-known port
//! for its models (`massgen --local`): Ollama, LM Studio, vLLM, SGLang and llama.cpp. Each
//! probe has a short deadline, so a closed port costs nothing and a hung one little, and
//! reads at most [`MAX_LISTING_BYTES`] of what a server sends.

use std::time::Duration;

use serde_json::Value;

/// How long one server may take to list its models.
const PROBE_TIMEOUT: Duration = Duration::from_millis(1500);
/// The most of one model listing read: a real one is a few kilobytes; whatever listens on a
/// well-known port could stream without end for the whole deadline.
pub const MAX_LISTING_BYTES: usize = 1024 * 1024;
/// At most this many agents are made from what is found.
pub const MAX_AGENTS: usize = 3;

/// A kind of local server and where it listens by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownServer {
    pub name: &'static str,
    pub port: u16,
    /// The config's backend `type` for it.
    pub backend: &'static str,
    /// Ollama also lists its models at `/api/tags`.
    pub ollama: bool,
}

pub const KNOWN_SERVERS: [KnownServer; 5] = [
    KnownServer {
        name: "Ollama",
        port: 11434,
        backend: "chatcompletion",
        ollama: true,
    },
    KnownServer {
        name: "LM Studio",
        port: 1234,
        backend: "lmstudio",
        ollama: false,
    },
    KnownServer {
        name: "vLLM",
        port: 8000,
        backend: "vllm",
        ollama: false,
    },
    KnownServer {
        name: "SGLang",
        port: 30000,
        backend: "sglang",
        ollama: false,
    },
    KnownServer {
        name: "llama.cpp",
        port: 8080,
        backend: "chatcompletion",
        ollama: false,
    },
];

/// A server that answered, with the models it serves.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundServer {
    pub server: KnownServer,
    /// The OpenAI-compatible base URL, ending in `/v1`.
    pub base_url: String,
    pub models: Vec<String>,
}

/// Asks every known port on `host` at once; the servers that listed at least one model,
/// in [`KNOWN_SERVERS`] order.
pub async fn discover(host: &str) -> Vec<FoundServer> {
    let Ok(client) = super::factory::client_builder()
        .timeout(PROBE_TIMEOUT)
        .connect_timeout(PROBE_TIMEOUT)
        .no_proxy()
        .build()
    else {
        return Vec::new();
    };
    let probes = KNOWN_SERVERS
        .iter()
        .map(|server| probe(&client, host, *server));
    futures::future::join_all(probes)
        .await
        .into_iter()
        .flatten()
        .collect()
}

async fn probe(client: &reqwest::Client, host: &str, server: KnownServer) -> Option<FoundServer> {
    let origin = format!("http://{host}:{}", server.port);
    let mut models = list(client, &format!("{origin}/v1/models"), "data", "id").await;
    if models.is_empty() && server.ollama {
        models = list(client, &format!("{origin}/api/tags"), "models", "name").await;
    }
    (!models.is_empty()).then(|| FoundServer {
        server,
        base_url: format!("{origin}/v1"),
        models,
    })
}

/// The `field` of every object in the `list` array of the JSON at `url`.
async fn list(client: &reqwest::Client, url: &str, list: &str, field: &str) -> Vec<String> {
    let Ok(response) = client.get(url).send().await else {
        return Vec::new();
    };
    if !response.status().is_success() {
        return Vec::new();
    }
    let (bytes, end) = super::http::read_capped(response, PROBE_TIMEOUT, MAX_LISTING_BYTES).await;
    if end != super::http::End::Complete {
        return Vec::new();
    }
    let Ok(body) = serde_json::from_slice::<Value>(&bytes) else {
        return Vec::new();
    };
    body[list]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|entry| entry[field].as_str())
        .map(str::to_string)
        .filter(|model| !model.trim().is_empty())
        .collect()
}

/// A config of up to [`MAX_AGENTS`] agents over what was found: one model from each
/// server in turn, then further models, so several servers are all used.
pub fn config_yaml(found: &[FoundServer]) -> Option<String> {
    let mut picks: Vec<(&FoundServer, &str)> = Vec::new();
    let deepest = found.iter().map(|server| server.models.len()).max()?;
    for index in 0..deepest {
        for server in found {
            if let Some(model) = server.models.get(index)
                && picks.len() < MAX_AGENTS
            {
                picks.push((server, model));
            }
        }
    }
    if picks.is_empty() {
        return None;
    }
    let listing: Vec<String> = found
        .iter()
        .map(|server| {
            format!(
                "{} at {} ({} model{})",
                server.server.name,
                server.base_url,
                server.models.len(),
                if server.models.len() == 1 { "" } else { "s" }
            )
        })
        .collect();
    let mut yaml = format!(
        "# Made by `massgen --local` from the model servers running here:\n#   {}\n\
         # Save it as .massgen/config.yaml to keep and edit it.\nagents:\n",
        listing.join("\n#   ")
    );
    let mut ids: Vec<String> = Vec::new();
    for (server, model) in picks {
        let mut id = agent_id(server.server.name, model);
        if ids.contains(&id) {
            id = format!("{id}_{}", ids.len() + 1);
        }
        yaml.push_str(&format!(
            "  - id: {id}\n    backend:\n      type: {}\n      model: {}\n      base_url: {}\n",
            server.server.backend,
            quoted(model),
            quoted(&server.base_url)
        ));
        ids.push(id);
    }
    Some(yaml)
}

/// `Ollama`, `llama3.2:3b` → `ollama_llama3_2_3b`.
fn agent_id(server: &str, model: &str) -> String {
    let model = model.rsplit('/').next().unwrap_or(model);
    let raw = format!("{server}_{model}").to_ascii_lowercase();
    let mut id = String::new();
    for ch in raw.chars() {
        let ch = if ch.is_ascii_alphanumeric() { ch } else { '_' };
        if !(ch == '_' && id.ends_with('_')) {
            id.push(ch);
        }
    }
    id.trim_matches('_').chars().take(48).collect()
}

/// `text` as a YAML double-quoted scalar (JSON's string syntax is valid YAML).
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("\"{text}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(index: usize, models: &[&str]) -> FoundServer {
        FoundServer {
            server: KNOWN_SERVERS[index],
            base_url: format!("http://127.0.0.1:{}/v1", KNOWN_SERVERS[index].port),
            models: models.iter().map(|model| (*model).to_string()).collect(),
        }
    }

    #[test]
    fn agents_take_turns_over_servers_up_to_three() {
        let yaml = config_yaml(&[
            found(0, &["llama3.2:3b", "qwen3:8b", "phi4"]),
            found(2, &["meta-llama/Llama-3.1-8B-Instruct"]),
        ])
        .unwrap();
        let ids: Vec<&str> = yaml
            .lines()
            .filter_map(|line| line.strip_prefix("  - id: "))
            .collect();
        assert_eq!(
            ids,
            [
                "ollama_llama3_2_3b",
                "vllm_llama_3_1_8b_instruct",
                "ollama_qwen3_8b"
            ]
        );
        assert!(
            yaml.contains("      type: vllm\n      model: \"meta-llama/Llama-3.1-8B-Instruct\"")
        );
        assert!(yaml.contains("base_url: \"http://127.0.0.1:11434/v1\""));
        assert!(config_yaml(&[]).is_none());
    }
}
