//! Turns a YAML tree into a [`Config`]: types, required keys, unique ids, and one warning
//! per key that massgen reads but does not act on yet.

use std::collections::HashMap;
use std::time::Duration;

use super::backend_kind::BackendKind;
use super::error::{Problem, did_you_mean};
use super::fields::Fields;
use super::keys;
use super::schema::{
    AgentConfig, BackendConfig, Config, DisplayKind, OrchestratorConfig, Secret, Sensitivity,
    TimeoutConfig, UiConfig,
};
use super::scripted;
use super::yaml::{Entry, Location, Node, Value};
use crate::protocol::AgentId;

/// A warning before the file name is attached.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub loc: Option<Location>,
    pub message: String,
    /// The key path this note says is ignored, if it is about an ignored key.
    pub ignored: Option<String>,
}

/// Reads the whole document. Stops at the first error.
pub fn parse(root: &Node, source_name: &str) -> Result<(Config, Vec<Note>), Problem> {
    let mut notes = Vec::new();
    let top = Fields::of(root, "")?;
    check_keys(
        &top,
        keys::TOP_LEVEL,
        keys::TOP_LEVEL_UNSUPPORTED,
        &mut notes,
    );
    let agents = parse_agents(&top, &mut notes)?;
    let orchestrator = match top.get("orchestrator") {
        Some(node) => parse_orchestrator(&Fields::of(node, "orchestrator")?, &mut notes)?,
        None => OrchestratorConfig::default(),
    };
    let timeouts = match top.get("timeout_settings") {
        Some(node) => parse_timeouts(&Fields::of(node, "timeout_settings")?, &mut notes)?,
        None => TimeoutConfig::default(),
    };
    let ui = match top.get("ui") {
        Some(node) => parse_ui(&Fields::of(node, "ui")?, &mut notes)?,
        None => UiConfig {
            display: None,
            logging_enabled: true,
        },
    };
    Ok((
        Config {
            source_name: source_name.to_string(),
            agents,
            orchestrator,
            timeouts,
            ui,
        },
        notes,
    ))
}

fn parse_agents(top: &Fields<'_>, notes: &mut Vec<Note>) -> Result<Vec<AgentConfig>, Problem> {
    for key in ["agent", "agents"] {
        if let Some(entry) = top.entries.iter().find(|entry| entry.key == key)
            && matches!(entry.value.value, Value::Null)
        {
            return Err(Problem::at(entry.key_loc, format!("`{key}` has no value"))
                .help("list agents under it, each with `id` and `backend: {type, model}`"));
        }
    }
    let (single, list) = (top.get("agent"), top.get("agents"));
    let nodes: Vec<(String, &Node)> = match (single, list) {
        (Some(_), Some(list)) => {
            return Err(
                Problem::at(list.loc, "a config has `agent` or `agents`, not both")
                    .help("put every agent in the `agents:` list and remove `agent:`"),
            );
        }
        (None, None) => {
            return Err(Problem::at(top.loc(), "the config defines no agents")
                .help("add an `agents:` list, each with `id` and `backend: {type, model}`"));
        }
        (Some(node), None) => vec![("agent".to_string(), node)],
        (None, Some(node)) => match &node.value {
            Value::Seq(items) if items.is_empty() => {
                return Err(Problem::at(node.loc, "`agents` is an empty list")
                    .help("add at least one agent with `id` and `backend: {type, model}`"));
            }
            Value::Seq(items) => items
                .iter()
                .enumerate()
                .map(|(index, item)| (format!("agents[{index}]"), item))
                .collect(),
            Value::Map(_) => vec![("agents".to_string(), node)],
            Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => {
                return Err(top.wrong_type(
                    "agents",
                    node,
                    "a list of agents",
                    "agents: [{id: a, backend: {type: openai, model: gpt-5}}]",
                ));
            }
        },
    };
    let mut first_seen: HashMap<AgentId, Location> = HashMap::new();
    let mut agents = Vec::with_capacity(nodes.len());
    for (path, node) in nodes {
        let fields = Fields::of(node, path)?;
        let agent = parse_agent(&fields, notes)?;
        let id_loc = fields.get("id").map_or(fields.loc(), |node| node.loc);
        if let Some(first) = first_seen.get(&agent.id) {
            return Err(Problem::at(
                id_loc,
                format!(
                    "agent id `{}` is used twice (first at line {})",
                    agent.id, first.line
                ),
            )
            .help("give every agent its own id"));
        }
        first_seen.insert(agent.id.clone(), id_loc);
        agents.push((agent, node));
    }
    check_vote_targets(&agents)?;
    Ok(agents.into_iter().map(|(agent, _)| agent).collect())
}

/// A scripted `vote_for` must name an agent of this config.
fn check_vote_targets(agents: &[(AgentConfig, &Node)]) -> Result<(), Problem> {
    for (agent, node) in agents {
        let Some(target) = agent
            .backend
            .scripted
            .as_ref()
            .and_then(|s| s.vote_for.as_ref())
        else {
            continue;
        };
        if agents.iter().any(|(other, _)| &other.id == target) {
            continue;
        }
        let loc = node
            .get("backend")
            .and_then(|backend| backend.get("vote_for"))
            .map_or(node.loc, |value| value.loc);
        let ids: Vec<&str> = agents.iter().map(|(other, _)| other.id.as_str()).collect();
        return Err(Problem::at(
            loc,
            format!("`vote_for: {target}` names no agent of this config"),
        )
        .help(format!("agent ids here: {}", ids.join(", "))));
    }
    Ok(())
}

fn parse_agent(agent: &Fields<'_>, notes: &mut Vec<Note>) -> Result<AgentConfig, Problem> {
    check_keys(agent, keys::AGENT, keys::AGENT_UNSUPPORTED, notes);
    let id = agent.required_string("id", "my_agent")?;
    validate_agent_id(&id, agent.get("id").map_or(agent.loc(), |node| node.loc))?;
    let Some(backend_node) = agent.get("backend") else {
        return Err(
            Problem::at(agent.loc(), format!("agent `{id}` has no `backend`"))
                .help("add `backend: {type: openai, model: gpt-5}` (or `type: scripted` offline)"),
        );
    };
    let backend = parse_backend(&Fields::of(backend_node, agent.key_path("backend"))?, notes)?;
    Ok(AgentConfig {
        id: AgentId::new(id),
        backend,
        system_message: agent.string("system_message")?,
    })
}

fn validate_agent_id(id: &str, loc: Location) -> Result<(), Problem> {
    let bad = id.trim() != id
        || id.contains(['/', '\\'])
        || id == "."
        || id == ".."
        || id.chars().any(char::is_control);
    if bad {
        return Err(Problem::at(
            loc,
            format!("agent id \"{id}\" cannot be used in file names"),
        )
        .help("use letters, digits, `-` and `_`, like `agent_a`"));
    }
    Ok(())
}

fn parse_backend(backend: &Fields<'_>, notes: &mut Vec<Note>) -> Result<BackendConfig, Problem> {
    let type_names: Vec<&str> = BackendKind::ALL.iter().map(|kind| kind.name()).collect();
    let Some(kind) = backend.choice("type", &type_names, BackendKind::from_name)? else {
        return Err(Problem::at(
            backend.loc(),
            format!("`{}` is missing", backend.key_path("type")),
        )
        .help(format!(
            "add `type: openai` (one of {})",
            type_names.join(", ")
        )));
    };
    let scripted = if kind == BackendKind::Scripted {
        Some(scripted::parse(backend)?)
    } else {
        None
    };
    let model = match model_rule(kind) {
        ModelRule::Optional { default } => {
            backend.string("model")?.unwrap_or_else(|| default.into())
        }
        ModelRule::Required { example } => backend.required_string("model", example)?,
    };
    let mut passthrough = serde_json::Map::new();
    for entry in backend.unknown(keys::BACKEND_COMMON) {
        let path = backend.key_path(&entry.key);
        if keys::is_backend_unsupported(&entry.key) {
            notes.push(unsupported_note(entry, &path));
        } else if kind == BackendKind::Scripted {
            if !scripted::SCRIPTED_KEYS.contains(&entry.key.as_str()) {
                let mut problem = Problem::at(
                    entry.key_loc,
                    format!("`{path}` is not an option of the scripted backend"),
                );
                let known = scripted::SCRIPTED_KEYS
                    .iter()
                    .chain(keys::BACKEND_COMMON)
                    .copied();
                problem = match did_you_mean(&entry.key, known) {
                    Some(close) => problem.help(format!("did you mean `{close}`?")),
                    None => problem.help(format!(
                        "scripted options: {}",
                        scripted::SCRIPTED_KEYS.join(", ")
                    )),
                };
                return Err(problem);
            }
        } else {
            passthrough.insert(entry.key.clone(), entry.value.to_json());
        }
    }
    let temperature = backend.number("temperature")?;
    if let Some(value) = temperature
        && !(0.0..=2.0).contains(&value)
    {
        notes.push(Note {
            loc: backend.get("temperature").map(|node| node.loc),
            message: format!(
                "`{}` is {value}, outside 0.0–2.0; most providers will reject it",
                backend.key_path("temperature")
            ),
            ignored: None,
        });
    }
    Ok(BackendConfig {
        kind,
        model,
        api_key: backend.string("api_key")?.map(Secret::new),
        base_url: backend.string("base_url")?,
        temperature,
        max_tokens: backend.unsigned("max_tokens")?,
        passthrough,
        scripted,
    })
}

enum ModelRule {
    /// The backend has its own default (the scripted stand-in, Claude Code's CLI default,
    /// AG2's `agent_config.llm_config`).
    Optional { default: &'static str },
    /// `model` must be set; `example` goes in the help.
    Required { example: &'static str },
}

fn model_rule(kind: BackendKind) -> ModelRule {
    let required = |example| ModelRule::Required { example };
    match kind {
        BackendKind::Scripted => ModelRule::Optional {
            default: "scripted",
        },
        BackendKind::ClaudeCode | BackendKind::Ag2 => ModelRule::Optional { default: "default" },
        BackendKind::Openai | BackendKind::AzureOpenai => required("gpt-5"),
        BackendKind::Claude => required("claude-sonnet-4-5"),
        BackendKind::Gemini => required("gemini-2.5-flash"),
        BackendKind::Grok => required("grok-4"),
        BackendKind::Zai
        | BackendKind::Cerebras
        | BackendKind::Together
        | BackendKind::Fireworks
        | BackendKind::Groq
        | BackendKind::Openrouter
        | BackendKind::Moonshot
        | BackendKind::Kimi
        | BackendKind::Nebius
        | BackendKind::Poe
        | BackendKind::Qwen
        | BackendKind::Chatcompletion
        | BackendKind::Lmstudio
        | BackendKind::Vllm
        | BackendKind::Sglang => required("<model name>"),
    }
}

fn parse_orchestrator(
    orchestrator: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<OrchestratorConfig, Problem> {
    let mut known = keys::ORCHESTRATOR.to_vec();
    known.push("timeout");
    check_keys(orchestrator, &known, keys::ORCHESTRATOR_UNSUPPORTED, notes);
    if let Some(entry) = orchestrator
        .entries
        .iter()
        .find(|entry| entry.key == "timeout")
    {
        notes.push(Note {
            loc: Some(entry.key_loc),
            ignored: Some("orchestrator.timeout".into()),
            message: "ignored: orchestrator.timeout — MassGen reads timeouts from the top-level \
                      `timeout_settings` block; move them there"
                .into(),
        });
    }
    let sensitivity = |key| orchestrator.choice(key, &Sensitivity::NAMES, Sensitivity::from_name);
    let max_answers = orchestrator.unsigned("max_new_answers_per_agent")?;
    if max_answers == Some(0) {
        return Err(Problem::at(
            orchestrator
                .get("max_new_answers_per_agent")
                .map_or(orchestrator.loc(), |node| node.loc),
            "`orchestrator.max_new_answers_per_agent` is 0, so no agent could ever answer",
        )
        .help("use 1 or more, or remove it for no limit"));
    }
    Ok(OrchestratorConfig {
        voting_sensitivity: sensitivity("voting_sensitivity")?.unwrap_or_default(),
        answer_novelty_requirement: sensitivity("answer_novelty_requirement")?.unwrap_or_default(),
        max_new_answers_per_agent: max_answers.map(|max| u32::try_from(max).unwrap_or(u32::MAX)),
    })
}

fn parse_timeouts(timeouts: &Fields<'_>, notes: &mut Vec<Note>) -> Result<TimeoutConfig, Problem> {
    check_keys(timeouts, keys::TIMEOUTS, keys::TIMEOUTS_UNSUPPORTED, notes);
    let mut config = TimeoutConfig::default();
    if let Some(seconds) = timeouts.number("orchestrator_timeout_seconds")? {
        if !seconds.is_finite() || seconds <= 0.0 {
            return Err(Problem::at(
                timeouts
                    .get("orchestrator_timeout_seconds")
                    .map_or(timeouts.loc(), |node| node.loc),
                "`timeout_settings.orchestrator_timeout_seconds` must be more than 0",
            )
            .help("the default is 1800 (30 minutes)"));
        }
        config.orchestrator = Duration::from_secs_f64(seconds.min(1e9));
    }
    Ok(config)
}

fn parse_ui(ui: &Fields<'_>, notes: &mut Vec<Note>) -> Result<UiConfig, Problem> {
    check_keys(ui, keys::UI, keys::UI_UNSUPPORTED, notes);
    if let Some(node) = ui.get("display_type")
        && node
            .as_str()
            .is_some_and(|name| name.trim().eq_ignore_ascii_case("web"))
    {
        notes.push(Note {
            loc: Some(node.loc),
            message: "ignored: ui.display_type: web — the browser UI is not supported yet; the \
                      terminal display is used"
                .into(),
            ignored: Some("ui.display_type".into()),
        });
        return Ok(UiConfig {
            display: None,
            logging_enabled: ui.bool("logging_enabled")?.unwrap_or(true),
        });
    }
    let display = ui.choice("display_type", &keys::DISPLAY_TYPES, |name| {
        match name.trim().to_ascii_lowercase().as_str() {
            "textual_terminal" | "rich_terminal" | "textual" | "rich" | "tui" => {
                Some(DisplayKind::Tui)
            }
            "simple" | "terminal" | "plain" => Some(DisplayKind::Plain),
            "silent" | "none" | "quiet" => Some(DisplayKind::Quiet),
            _ => None,
        }
    })?;
    Ok(UiConfig {
        display,
        logging_enabled: ui.bool("logging_enabled")?.unwrap_or(true),
    })
}

/// One note per key that is known but not acted on, or not known at all.
fn check_keys(
    fields: &Fields<'_>,
    supported: &[&str],
    unsupported: &[&str],
    notes: &mut Vec<Note>,
) {
    for entry in fields.unknown(supported) {
        let path = fields.key_path(&entry.key);
        if unsupported.contains(&entry.key.as_str()) {
            notes.push(unsupported_note(entry, &path));
        } else {
            let suggestion = did_you_mean(&entry.key, supported.iter().copied())
                .map(|close| format!("; did you mean `{close}`?"))
                .unwrap_or_default();
            notes.push(Note {
                loc: Some(entry.key_loc),
                message: format!("ignored: unknown key `{path}`{suggestion}"),
                ignored: Some(path),
            });
        }
    }
}

fn unsupported_note(entry: &Entry, path: &str) -> Note {
    Note {
        loc: Some(entry.key_loc),
        message: format!("ignored: {path} — not supported yet"),
        ignored: Some(path.to_string()),
    }
}
