//! Agents as the agents view, `--quickstart` and `--generate-config` edit them: id, backend
//! type, model and system message; written out as a config file that `--validate` accepts,
//! and merged into a running config so the agents' other settings survive an edit.

use super::backend_kind::BackendKind;
use super::schema::{AgentConfig, BackendConfig, Config};
use crate::protocol::AgentId;

/// One agent being edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentDraft {
    pub id: String,
    pub kind: BackendKind,
    pub model: String,
    pub system_message: Option<String>,
    /// Written as `base_url` (providers with no default, local servers).
    pub base_url: Option<String>,
    /// The agent gets a workspace (`cwd: workspace`) and with it the file tools.
    pub workspace: bool,
}

impl AgentDraft {
    pub fn new(id: impl Into<String>, kind: BackendKind, model: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            kind,
            model: model.into(),
            system_message: None,
            base_url: None,
            workspace: true,
        }
    }
}

/// The drafts of `config`'s agents, in config order.
pub fn drafts_of(config: &Config) -> Vec<AgentDraft> {
    config
        .agents
        .iter()
        .map(|agent| AgentDraft {
            id: agent.id.to_string(),
            kind: agent.backend.kind,
            model: agent.backend.model.clone(),
            system_message: agent.system_message.clone(),
            base_url: agent.backend.base_url.clone(),
            workspace: agent.backend.tools.cwd.is_some(),
        })
        .collect()
}

/// An id not among `taken`, made from `base` (`agent`, `agent_2`, …), usable in file names.
pub fn unique_id(base: &str, taken: &[&str]) -> String {
    let mut clean = String::new();
    for ch in base.chars() {
        let ch = if ch.is_ascii_alphanumeric() || ch == '-' {
            ch.to_ascii_lowercase()
        } else {
            '_'
        };
        if !(ch == '_' && clean.ends_with('_')) {
            clean.push(ch);
        }
    }
    let clean = clean.trim_matches('_').chars().take(40).collect::<String>();
    let clean = if clean.is_empty() {
        "agent".to_string()
    } else {
        clean
    };
    if !taken.contains(&clean.as_str()) {
        return clean;
    }
    (2..)
        .map(|n| format!("{clean}_{n}"))
        .find(|id| !taken.contains(&id.as_str()))
        .unwrap_or(clean)
}

/// A config file of `drafts` (comment lines first): agents with `id`, `backend` (`type`,
/// `model`, `base_url` when set, `cwd: workspace`) and `system_message`; the orchestrator's
/// defaults written out. No API key is ever written: keys come from the environment.
pub fn to_yaml(drafts: &[AgentDraft], comments: &[String]) -> String {
    let mut yaml = String::new();
    for comment in comments {
        for line in comment.lines() {
            yaml.push_str(&format!("# {line}\n"));
        }
    }
    yaml.push_str("agents:\n");
    for draft in drafts {
        yaml.push_str(&format!("  - id: {}\n", quoted(&draft.id)));
        if let Some(message) = draft.system_message.as_deref().filter(|m| !m.is_empty()) {
            yaml.push_str(&format!("    system_message: {}\n", quoted(message)));
        }
        yaml.push_str("    backend:\n");
        yaml.push_str(&format!("      type: {}\n", draft.kind.name()));
        yaml.push_str(&format!("      model: {}\n", quoted(&draft.model)));
        if let Some(url) = &draft.base_url {
            yaml.push_str(&format!("      base_url: {}\n", quoted(url)));
        }
        if draft.workspace {
            yaml.push_str("      cwd: workspace\n");
        }
    }
    yaml.push_str(
        "orchestrator:\n  voting_sensitivity: lenient\n  max_new_answers_per_agent: 2\n\
         timeout_settings:\n  orchestrator_timeout_seconds: 1800\n",
    );
    yaml
}

/// `running` with the agents of `edited`: an agent whose id and backend type are unchanged
/// keeps its other settings (tools, MCP servers, request options) with the new model and
/// system message; the orchestrator, timeouts and limits stay the running config's.
pub fn merge_agents(running: &Config, edited: &Config) -> Config {
    let agents = edited
        .agents
        .iter()
        .map(|agent| {
            let before = running
                .agents
                .iter()
                .find(|old| old.id == agent.id && old.backend.kind == agent.backend.kind);
            match before {
                Some(old) => AgentConfig {
                    id: agent.id.clone(),
                    system_message: agent.system_message.clone(),
                    backend: BackendConfig {
                        model: agent.backend.model.clone(),
                        base_url: agent
                            .backend
                            .base_url
                            .clone()
                            .or_else(|| old.backend.base_url.clone()),
                        ..old.backend.clone()
                    },
                    ..old.clone()
                },
                None => agent.clone(),
            }
        })
        .collect();
    Config {
        agents,
        granted_paths: running
            .granted_paths
            .iter()
            .chain(&edited.granted_paths)
            .cloned()
            .collect(),
        ..running.clone()
    }
}

/// Whether `id` is one of `config`'s agents.
pub fn has_agent(config: &Config, id: &str) -> bool {
    config
        .agents
        .iter()
        .any(|agent| agent.id == AgentId::new(id))
}

/// `text` as a YAML scalar: plain when it is a simple name that YAML reads as a string,
/// else double-quoted (JSON's string syntax is valid YAML).
fn quoted(text: &str) -> String {
    let simple = text.starts_with(|ch: char| ch.is_ascii_alphabetic())
        && text
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.' | '/'))
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n"
        );
    if simple {
        return text.to_string();
    }
    serde_json::to_string(text).unwrap_or_else(|_| format!("\"{}\"", text.replace('"', "'")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Env, from_text};

    fn load(yaml: &str) -> Config {
        from_text(yaml, "test", &Env::default())
            .unwrap()
            .into_runnable()
            .unwrap()
            .0
    }

    #[test]
    fn written_drafts_load_back_as_the_same_agents() {
        let mut scout = AgentDraft::new("scout", BackendKind::Scripted, "scripted-fast");
        scout.system_message = Some("Say \"hi\": briefly\nthen stop".into());
        let mut local = AgentDraft::new("local", BackendKind::Chatcompletion, "llama3.2:3b");
        local.base_url = Some("http://127.0.0.1:11434/v1".into());
        local.workspace = false;
        let tricky = AgentDraft::new("on", BackendKind::Scripted, "null");
        let drafts = vec![scout, local, tricky];
        let yaml = to_yaml(&drafts, &["made by a test".into()]);
        assert!(yaml.starts_with("# made by a test\nagents:\n"));
        let config = load(&yaml);
        assert_eq!(drafts_of(&config), drafts);
        assert!(!yaml.to_lowercase().contains("api_key"));
    }

    #[test]
    fn ids_are_made_unique_and_file_name_safe() {
        assert_eq!(unique_id("OpenAI gpt-5", &[]), "openai_gpt-5");
        assert_eq!(unique_id("a", &["a", "a_2"]), "a_3");
        assert_eq!(unique_id("../", &[]), "agent");
    }

    #[test]
    fn merging_keeps_an_unchanged_agents_other_settings() {
        let running = load(
            "agents:\n  - id: a\n    backend:\n      type: scripted\n      model: m1\n      \
             cwd: workspace\n      tokens_per_second: 7\n  - id: b\n    backend:\n      type: \
             scripted\n      model: m2\norchestrator:\n  max_new_answers_per_agent: 5\n",
        );
        let edited = load(
            "agents:\n  - id: a\n    system_message: new\n    backend:\n      type: scripted\n      \
             model: m9\n  - id: c\n    backend:\n      type: scripted\n      model: m3\n",
        );
        let merged = merge_agents(&running, &edited);
        let ids: Vec<String> = merged.agents.iter().map(|a| a.id.to_string()).collect();
        assert_eq!(ids, ["a", "c"]);
        let a = &merged.agents[0];
        assert_eq!(a.backend.model, "m9");
        assert_eq!(a.system_message.as_deref(), Some("new"));
        assert_eq!(a.backend.tools.cwd.as_deref(), Some("workspace"));
        let speed = a.backend.scripted.as_ref().map(|s| s.tokens_per_second);
        assert_eq!(speed, Some(7.0));
        assert_eq!(
            merged.orchestrator.max_new_answers_per_agent,
            running.orchestrator.max_new_answers_per_agent
        );
        assert!(has_agent(&merged, "c") && !has_agent(&merged, "b"));
    }
}
