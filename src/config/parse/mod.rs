//! Turns a YAML tree into a [`Config`]: types, required keys, unique ids, and one warning
//! per key that massgen reads but does not act on yet. Backends are read in `backend`, the
//! orchestrator, timeout and ui blocks in `settings`.

mod agent_cli;
mod agents;
mod backend;
mod checklist;
mod code_based_tools;
mod command_line;
mod coordination;
mod criteria;
mod custom_tools;
mod fairness;
mod fast_iteration;
mod key_table;
mod limits;
mod modes;
mod multimodal;
mod permissions;
mod persona_generator;
mod request_options;
mod server_security;
mod settings;
mod strategy;
mod strict_tools;
mod tool_execution;
mod tools;
mod upload_files;
mod web_search_options;

pub use limits::LimitRules;

use super::error::Problem;
use super::fields::Fields;
use super::key_notes::{self, Section};
use super::schema::{AgentConfig, Config, OrchestratorConfig, UiConfig};
use crate::config::yaml_node::{Entry, Location, Node};
use key_table::KeyTable;
use settings::{parse_orchestrator, parse_timeouts, parse_ui};

/// A warning before the file name is attached.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub loc: Option<Location>,
    pub message: String,
    /// The key path this note says is ignored, if it is about an ignored key.
    pub ignored: Option<String>,
}

/// Reads the whole document. Each section (the limits, every agent, the orchestrator, the
/// timeouts, the display) is read on its own, so every section's mistake is reported at
/// once, in the order of the file.
pub fn parse(
    root: &Node,
    source_name: &str,
    limit_rules: LimitRules<'_>,
) -> Result<(Config, Vec<Note>), Vec<Problem>> {
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    let top = Fields::of(root, "").map_err(|problem| vec![problem])?;
    KeyTable::of(Section::Top).check(&top, &mut notes);
    // Limits first: the agent count is checked before thousands of agents are read.
    let limits = top
        .get("limits")
        .map(|node| Fields::of(node, "limits"))
        .transpose()
        .and_then(|block| limits::parse_limits(block.as_ref(), limit_rules, &mut notes));
    let limits = kept(limits, &mut problems).unwrap_or_default();
    let mut agents = agents::parse_agents(&top, &limits, &mut notes, &mut problems);
    kept(
        multimodal::inherit_multimodal_tools(&top, &mut agents, &mut notes),
        &mut problems,
    );
    apply_permissions(&top, &mut agents, &mut notes, &mut problems);
    let orchestrator = section(&top, "orchestrator", &mut problems, |fields| {
        parse_orchestrator(fields, &mut notes)
    });
    if let Some(presenter) = orchestrator
        .as_ref()
        .and_then(|orchestrator| orchestrator.presenter_agent.as_ref())
    {
        let ids: Vec<&str> = agents.iter().map(|(agent, _)| agent.id.as_str()).collect();
        if !ids.contains(&presenter.as_str()) {
            let loc = top
                .get("orchestrator")
                .and_then(|node| Fields::of(node, "orchestrator").ok())
                .and_then(|fields| fields.get("presenter_agent").map(|node| node.loc))
                .unwrap_or(Location { line: 1, column: 1 });
            problems.push(Problem::at(
                loc,
                format!(
                    "orchestrator.presenter_agent `{presenter}` names no agent; the agents are: {}",
                    ids.join(", ")
                ),
            ).help("name the agent that integrates every answer by its `id`, or leave it out (the last agent presents)"));
        }
    }
    let mut orchestrator = orchestrator;
    if let Some(orchestrator) = orchestrator.as_mut() {
        problems.extend(strategy::seat_chairman(
            &top,
            orchestrator,
            &mut agents,
            &mut notes,
        ));
    }
    if problems.is_empty() {
        notes.extend(super::server_tools::gemini_notes(
            &agents,
            orchestrator
                .as_ref()
                .unwrap_or(&OrchestratorConfig::default()),
        ));
    }
    let timeouts = section(&top, "timeout_settings", &mut problems, |fields| {
        parse_timeouts(fields, &mut notes)
    });
    let ui = section(&top, "ui", &mut problems, |fields| {
        parse_ui(fields, &mut notes).map_err(|problem| vec![problem])
    });
    // A top-level `display:` block, which some MassGen configs write, reads like `ui`;
    // where both say something, `ui` wins.
    let display = section(&top, "display", &mut problems, |fields| {
        parse_ui(fields, &mut notes).map_err(|problem| vec![problem])
    });
    if !problems.is_empty() {
        problems.sort_by_key(|problem| problem.loc);
        problems.dedup();
        return Err(problems);
    }
    Ok((
        Config {
            source_name: source_name.to_string(),
            agents: agents.into_iter().map(|(agent, _)| agent).collect(),
            orchestrator: orchestrator.unwrap_or_default(),
            timeouts: timeouts.unwrap_or_default(),
            ui: match (ui, display) {
                (Some(mut ui), Some(display)) => {
                    ui.display = ui.display.or(display.display);
                    ui
                }
                (Some(ui), None) | (None, Some(ui)) => ui,
                (None, None) => UiConfig {
                    display: None,
                    logging_enabled: true,
                },
            },
            limits,
            granted_paths: Vec::new(),
        },
        notes,
    ))
}

/// Each agent's effective `permissions:` block: its backend's layered over the top level's.
fn apply_permissions(
    top: &Fields<'_>,
    agents: &mut [(AgentConfig, &Node)],
    notes: &mut Vec<Note>,
    problems: &mut Vec<Problem>,
) {
    let shared = kept(permissions::parse_permissions(top, notes), problems).flatten();
    let listed = top.get("agents").and_then(|list| match &list.value {
        crate::config::yaml_node::Value::Seq(items) => Some(items),
        _ => None,
    });
    for (agent, node) in agents.iter_mut() {
        let path = listed
            .and_then(|items| items.iter().position(|item| std::ptr::eq(item, *node)))
            .map_or_else(|| "agent".to_string(), |index| format!("agents[{index}]"));
        let own = node
            .get("backend")
            .and_then(|backend| Fields::of(backend, format!("{path}.backend")).ok())
            .and_then(|backend| {
                kept(permissions::parse_permissions(&backend, notes), problems).flatten()
            });
        agent.backend.tools.permissions = permissions::effective(shared.as_ref(), own.as_ref());
    }
}

/// The value, or `None` with its problem kept.
fn kept<T>(result: Result<T, Problem>, problems: &mut Vec<Problem>) -> Option<T> {
    result.map_err(|problem| problems.push(problem)).ok()
}

/// The top-level block `key` read by `read`; `None` when it is absent or has problems.
fn section<T>(
    top: &Fields<'_>,
    key: &str,
    problems: &mut Vec<Problem>,
    read: impl FnOnce(&Fields<'_>) -> Result<T, Vec<Problem>>,
) -> Option<T> {
    let node = top.get(key)?;
    let fields = kept(Fields::of(node, key), problems)?;
    read(&fields).map_err(|found| problems.extend(found)).ok()
}

/// The problems of a section's independent fields, gathered so that all are reported.
#[derive(Default)]
pub(super) struct Gathered(Vec<Problem>);

impl Gathered {
    /// The value, or `None` with its problem kept.
    pub fn take<T>(&mut self, result: Result<T, Problem>) -> Option<T> {
        kept(result, &mut self.0)
    }

    /// The value, or `None` with its problems kept.
    pub fn take_all<T>(&mut self, result: Result<T, Vec<Problem>>) -> Option<T> {
        result.map_err(|found| self.0.extend(found)).ok()
    }

    /// `value` if no problem was kept.
    pub fn finish<T>(self, value: T) -> Result<T, Vec<Problem>> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self.0)
        }
    }
}

/// "ignored: unknown key `path`" and what may help (`; did you mean `x`?`), at the key.
pub(super) fn unknown_key_note(entry: &Entry, path: String, help: &str) -> Note {
    Note {
        loc: Some(entry.key_loc),
        message: format!("ignored: unknown key `{path}`{help}"),
        ignored: Some(path),
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

#[cfg(test)]
mod together_tests;

#[cfg(test)]
mod context_window_tests;
