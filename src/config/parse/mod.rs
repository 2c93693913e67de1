//! Turns a YAML tree into a [`Config`]: types, required keys, unique ids, and one warning
//! per key that massgen reads but does not act on yet. Backends are read in `backend`, the
//! orchestrator, timeout and ui blocks in `settings`.

mod backend;
mod coordination;
mod limits;
mod modes;
mod request_options;
mod settings;
mod tools;
mod web_search_options;

pub use limits::LimitRules;

use std::collections::HashMap;

use super::error::{Problem, did_you_mean, thousands};
use super::fields::Fields;
use super::key_notes::{self, Section};
use super::keys;
use super::schema::{
    AgentConfig, Config, LimitsConfig, OrchestratorConfig, TimeoutConfig, UiConfig,
};
use super::yaml::{Entry, Location, Node, Value};
use crate::protocol::AgentId;
use backend::parse_backend;
use settings::{parse_orchestrator, parse_timeouts, parse_ui};

/// A warning before the file name is attached.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub loc: Option<Location>,
    pub message: String,
    /// The key path this note says is ignored, if it is about an ignored key.
    pub ignored: Option<String>,
}

/// Reads the whole document. Stops at the first error.
pub fn parse(
    root: &Node,
    source_name: &str,
    limit_rules: LimitRules<'_>,
) -> Result<(Config, Vec<Note>), Problem> {
    let mut notes = Vec::new();
    let top = Fields::of(root, "")?;
    check_keys(
        &top,
        keys::TOP_LEVEL,
        (Section::Top, keys::TOP_LEVEL_UNSUPPORTED),
        &mut notes,
    );
    // Limits first: the agent count is checked before thousands of agents are read.
    let limits_block = top
        .get("limits")
        .map(|node| Fields::of(node, "limits"))
        .transpose()?;
    let limits = limits::parse_limits(limits_block.as_ref(), limit_rules, &mut notes)?;
    let agents = parse_agents(&top, &limits, &mut notes)?;
    let orchestrator = match top.get("orchestrator") {
        Some(node) => parse_orchestrator(&Fields::of(node, "orchestrator")?, &mut notes)?,
        None => OrchestratorConfig::default(),
    };
    notes.extend(super::server_tools::gemini_notes(&agents, &orchestrator));
    let agents = agents.into_iter().map(|(agent, _)| agent).collect();
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
            limits,
            granted_paths: Vec::new(),
        },
        notes,
    ))
}

/// Each agent with its YAML node, in config order.
fn parse_agents<'a>(
    top: &Fields<'a>,
    limits: &LimitsConfig,
    notes: &mut Vec<Note>,
) -> Result<Vec<(AgentConfig, &'a Node)>, Problem> {
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
        (None, None) if looks_like_rate_limits(top) => {
            return Err(Problem::at(
                top.loc(),
                "this looks like MassGen's rate-limits file (provider → model → rpm/tpm/rpd), \
                 not an agent config",
            )
            .help(
                "massgen runs configs with an `agents:` list (see massgen --list-examples); it \
                 does not read rate-limit files, it retries rate-limited calls (`max_retries`)",
            ));
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
            Value::Seq(items) if items.len() as u64 > limits.max_agents => {
                let loc = top
                    .entries
                    .iter()
                    .find(|entry| entry.key == "agents")
                    .map_or(node.loc, |entry| entry.key_loc);
                return Err(Problem::at(
                    loc,
                    format!(
                        "the config lists {} agents; at most {} run in one turn \
                         (limits.max_agents)",
                        thousands(items.len()),
                        thousands(usize::try_from(limits.max_agents).unwrap_or(usize::MAX))
                    ),
                )
                .help(format!(
                    "remove agents (every agent is a model call per round, and reads every \
                     other's answer); or {}",
                    super::limits::how_to_raise("max_agents")
                )));
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
    Ok(agents)
}

/// MassGen's `rate_limits.yaml`: every top-level value maps model names to mappings of
/// `rpm` / `tpm` / `rpd`.
fn looks_like_rate_limits(top: &Fields<'_>) -> bool {
    let is_limits = |node: &Node| {
        node.entries().is_some_and(|entries| {
            entries
                .iter()
                .any(|entry| matches!(entry.key.as_str(), "rpm" | "tpm" | "rpd"))
        })
    };
    !top.entries.is_empty()
        && top.entries.iter().all(|provider| {
            provider.value.entries().is_some_and(|models| {
                !models.is_empty() && models.iter().all(|model| is_limits(&model.value))
            })
        })
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
    check_keys(
        agent,
        keys::AGENT,
        (Section::Agent, keys::AGENT_UNSUPPORTED),
        notes,
    );
    let id = agent.required_string("id", "my_agent")?;
    validate_agent_id(&id, agent.get("id").map_or(agent.loc(), |node| node.loc))?;
    let Some(backend_node) = agent.get("backend") else {
        return Err(
            Problem::at(agent.loc(), format!("agent `{id}` has no `backend`"))
                .help("add `backend: {type: openai, model: gpt-5}` (or `type: scripted` offline)"),
        );
    };
    let backend_fields = Fields::of(backend_node, agent.key_path("backend"))?;
    let backend = parse_backend(&backend_fields, notes)?;
    super::server_tools::check(&id, &backend_fields, backend.kind)?;
    super::server_tools::check_legacy_search(&id, &backend_fields, backend.kind)?;
    Ok(AgentConfig {
        id: AgentId::new(id),
        backend,
        system_message: agent.string("system_message")?,
        voting_sensitivity: modes::voting_sensitivity(agent, notes)?,
        persona: agent
            .string("persona")?
            .filter(|text| !text.trim().is_empty()),
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

/// One note per key that is known but not acted on (saying what MassGen would have done
/// with it), or not known at all.
pub(super) fn check_keys(
    fields: &Fields<'_>,
    supported: &[&str],
    (section, unsupported): (Section, &[&str]),
    notes: &mut Vec<Note>,
) {
    for entry in fields.unknown(supported) {
        let path = fields.key_path(&entry.key);
        if unsupported.contains(&entry.key.as_str()) {
            notes.push(unsupported_note(entry, &path, section));
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

pub(super) fn unsupported_note(entry: &Entry, path: &str, section: Section) -> Note {
    let what = key_notes::describe(section, &entry.key).unwrap_or("not supported yet".into());
    Note {
        loc: Some(entry.key_loc),
        message: format!("ignored: {path} — {what}"),
        ignored: Some(path.to_string()),
    }
}
