//! The `agents:` list (or a single `agent:`): each agent read on its own, so a mistake in
//! one does not hide the mistakes in the others.

use std::collections::HashMap;

use super::backend::parse_backend;
use super::key_table::KeyTable;
use super::{Gathered, Note, modes};
use crate::config::error::{Problem, thousands};
use crate::config::fields::Fields;
use crate::config::key_notes::Section;
use crate::config::schema::{AgentConfig, BackendConfig, LimitsConfig};
use crate::config::yaml_node::{Location, Node, Value};
use crate::protocol::AgentId;

/// Each agent that could be read, with its YAML node, in config order; every problem found
/// on the way goes to `problems`.
pub(super) fn parse_agents<'a>(
    top: &Fields<'a>,
    limits: &LimitsConfig,
    notes: &mut Vec<Note>,
    problems: &mut Vec<Problem>,
) -> Vec<(AgentConfig, &'a Node)> {
    let nodes = match agent_nodes(top, limits) {
        Ok(nodes) => nodes,
        Err(problem) => {
            problems.push(problem);
            return Vec::new();
        }
    };
    let mut first_seen: HashMap<AgentId, Location> = HashMap::new();
    let mut agents = Vec::with_capacity(nodes.len());
    let mut all_read = true;
    for (path, node) in nodes {
        let agent = Fields::of(node, path)
            .map_err(|problem| vec![problem])
            .and_then(|fields| {
                let agent = parse_agent(&fields, notes)?;
                let id_loc = fields.get("id").map_or(fields.loc(), |node| node.loc);
                Ok((agent, id_loc))
            });
        let (agent, id_loc) = match agent {
            Ok(read) => read,
            Err(found) => {
                problems.extend(found);
                all_read = false;
                continue;
            }
        };
        if let Some(first) = first_seen.get(&agent.id) {
            problems.push(
                Problem::at(
                    id_loc,
                    format!(
                        "agent id `{}` is used twice (first at line {})",
                        agent.id, first.line
                    ),
                )
                .help("give every agent its own id"),
            );
            continue;
        }
        first_seen.insert(agent.id.clone(), id_loc);
        agents.push((agent, node));
    }
    // An agent that could not be read may be the one a vote names.
    if all_read && let Err(problem) = check_vote_targets(&agents) {
        problems.push(problem);
    }
    agents
}

/// The agents' nodes with their key paths, or why the config has none to read.
fn agent_nodes<'a>(
    top: &Fields<'a>,
    limits: &LimitsConfig,
) -> Result<Vec<(String, &'a Node)>, Problem> {
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
        (None, None) => return Err(no_agents(top)),
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
                    crate::config::limits::how_to_raise("max_agents")
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
    Ok(nodes)
}

/// A config without `agents:`: named at the unknown top-level key that was meant to be it,
/// else naming the unknown top-level keys there are.
fn no_agents(top: &Fields<'_>) -> Problem {
    let table = KeyTable::of(Section::Top);
    let misspelt = table.unknown(top).find_map(|entry| {
        let close = table.suggest(&entry.key, &[])?;
        matches!(close, "agents" | "agent").then_some((entry, close))
    });
    if let Some((entry, close)) = misspelt {
        return Problem::at(
            entry.key_loc,
            format!(
                "unknown key `{}` — did you mean `{close}`? The config defines no agents",
                entry.key
            ),
        )
        .help(format!("rename `{}:` to `{close}:`", entry.key));
    }
    let unknown: Vec<String> = table
        .unknown(top)
        .map(|entry| format!("`{}`", entry.key))
        .collect();
    let help = "add an `agents:` list, each with `id` and `backend: {type, model}`";
    if unknown.is_empty() {
        return Problem::at(top.loc(), "the config defines no agents").help(help);
    }
    Problem::at(
        top.loc(),
        format!(
            "the config defines no agents; unknown top-level key{} {}",
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", ")
        ),
    )
    .help(format!(
        "{help}; the top-level keys massgen reads: {}",
        table.accepted.join(", ")
    ))
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

/// One agent, with a problem for each of its fields that cannot be used.
pub(super) fn parse_agent(
    agent: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<AgentConfig, Vec<Problem>> {
    KeyTable::of(Section::Agent).check(agent, notes);
    let mut found = Gathered::default();
    let id = found.take(agent_id(agent));
    let name = id.as_deref().unwrap_or(&agent.path);
    let backend = found.take_all(agent_backend(agent, name, notes));
    let system_message = found.take(agent.string("system_message")).flatten();
    let voting_sensitivity = found
        .take(modes::voting_sensitivity(agent, notes))
        .flatten();
    let checklist_gated = modes::checklist_gated(agent);
    let persona = found
        .take(agent.string("persona"))
        .flatten()
        .filter(|text| !text.trim().is_empty());
    let subtask = found
        .take(agent.string("subtask"))
        .flatten()
        .filter(|text| !text.trim().is_empty());
    let (Some(id), Some(backend)) = (id, backend) else {
        return Err(found.0);
    };
    found.finish(AgentConfig {
        id: AgentId::new(id),
        backend,
        system_message,
        voting_sensitivity,
        checklist_gated,
        persona,
        subtask,
    })
}

fn agent_id(agent: &Fields<'_>) -> Result<String, Problem> {
    let id = agent.required_string("id", "my_agent")?;
    validate_agent_id(&id, agent.get("id").map_or(agent.loc(), |node| node.loc))?;
    Ok(id)
}

/// The backend of the agent called `name` (its id, or its path when the id is unusable).
fn agent_backend(
    agent: &Fields<'_>,
    name: &str,
    notes: &mut Vec<Note>,
) -> Result<BackendConfig, Vec<Problem>> {
    let Some(backend_node) = agent.get("backend") else {
        return Err(vec![agent.missing(
            "backend",
            &format!("agent `{name}` has no `backend`"),
            "add `backend: {type: openai, model: gpt-5}` (or `type: scripted` offline)",
        )]);
    };
    let backend_fields =
        Fields::of(backend_node, agent.key_path("backend")).map_err(|problem| vec![problem])?;
    let backend = parse_backend(&backend_fields, notes)?;
    crate::config::server_tools::check(name, &backend_fields, backend.kind)
        .and_then(|()| {
            crate::config::server_tools::check_legacy_search(name, &backend_fields, backend.kind)
        })
        .map_err(|problem| vec![problem])?;
    Ok(backend)
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
