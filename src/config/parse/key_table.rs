//! The keys each config section accepts and the ones it knows but ignores: the one table
//! the parser checks a mapping's keys against, suggests from, and lists in errors.

use super::{Note, unsupported_note, web_search_options};
use crate::config::backend_kind::BackendKind;
use crate::config::error::{Problem, did_you_mean};
use crate::config::fields::Fields;
use crate::config::key_notes::Section;
use crate::config::providers::{self, AgentProgram};
use crate::config::scripted::SCRIPTED_KEYS;
use crate::config::server_tools;
use crate::config::yaml_node::Entry;
use crate::config::{keys, limits};

/// What one section (a mapping of the config) reads.
pub struct KeyTable {
    pub section: Section,
    /// Keys the section acts on.
    pub accepted: Vec<&'static str>,
    /// Keys MassGen reads that massgen does not act on yet: a warning, never an error.
    ignored: Vec<&'static str>,
    /// Keys the section reads itself to say something more specific.
    reported_elsewhere: &'static [&'static str],
}

impl KeyTable {
    /// Every section but a backend, whose keys depend on its type ([`KeyTable::backend`]).
    pub fn of(section: Section) -> Self {
        let (accepted, ignored, reported_elsewhere): (&[&'static str], &[&'static str], _) =
            match section {
                Section::Top => (keys::TOP_LEVEL, keys::TOP_LEVEL_UNSUPPORTED, &[][..]),
                Section::Agent => (keys::AGENT, keys::AGENT_UNSUPPORTED, &[]),
                Section::Backend => return Self::backend(BackendKind::Openai),
                Section::McpServer => (keys::MCP_SERVER, keys::MCP_SERVER_UNSUPPORTED, &[]),
                Section::Orchestrator => (
                    keys::ORCHESTRATOR,
                    keys::ORCHESTRATOR_UNSUPPORTED,
                    &["timeout"],
                ),
                Section::Coordination => (keys::COORDINATION, keys::COORDINATION_UNSUPPORTED, &[]),
                Section::Timeouts => (keys::TIMEOUTS, keys::TIMEOUTS_UNSUPPORTED, &[]),
                Section::Ui => (keys::UI, keys::UI_UNSUPPORTED, &[]),
                Section::Limits => (&LIMIT_NAMES, &[], &[]),
                Section::ContextPath => (keys::CONTEXT_PATH, &[], &[]),
            };
        Self {
            section,
            accepted: accepted.to_vec(),
            ignored: ignored.to_vec(),
            reported_elsewhere,
        }
    }

    /// A `kind` backend's own keys. A backend of a model API also sends the provider's
    /// request options (`provider_options`); they are sorted there, not listed here. An
    /// agent CLI takes its own keys (`keys::agent_cli`) and no request options.
    pub fn backend(kind: BackendKind) -> Self {
        let mut accepted: Vec<&'static str> = keys::BACKEND_COMMON
            .iter()
            .chain(keys::BACKEND_TOOLS)
            .chain(&server_tools::KEYS)
            .chain(&["organization"])
            .copied()
            .collect();
        if providers::row(kind).agent == AgentProgram::Cli {
            accepted.extend(keys::agent_cli(kind));
            return Self::backend_with(accepted);
        }
        accepted.extend(web_search_options::KEYS);
        match kind {
            BackendKind::Scripted => accepted.extend(SCRIPTED_KEYS),
            BackendKind::Claude => {
                accepted.extend(keys::BACKEND_REQUEST);
                accepted.push("enable_strict_tool_use");
            }
            BackendKind::AzureOpenai => {
                accepted.extend(keys::BACKEND_REQUEST);
                accepted.push("azure_endpoint");
            }
            _ => accepted.extend(keys::BACKEND_REQUEST),
        }
        Self::backend_with(accepted)
    }

    /// A backend's table accepting `accepted` and ignoring MassGen's other backend keys.
    fn backend_with(accepted: Vec<&'static str>) -> Self {
        let ignored = keys::BACKEND_UNSUPPORTED
            .iter()
            .copied()
            .filter(|key| !accepted.contains(key))
            .collect();
        Self {
            section: Section::Backend,
            accepted,
            ignored,
            reported_elsewhere: &[],
        }
    }

    pub fn accepts(&self, key: &str) -> bool {
        self.accepted.contains(&key)
    }

    /// Whether `key` is one MassGen reads and massgen knowingly skips.
    pub fn ignores(&self, key: &str) -> bool {
        self.ignored.contains(&key)
            || (self.section == Section::Backend && keys::is_backend_unsupported(key))
    }

    /// The accepted key `typed` most likely means, also among `more` (a provider's options).
    pub fn suggest<'a>(&'a self, typed: &str, more: &'a [&'a str]) -> Option<&'a str> {
        did_you_mean(typed, self.accepted.iter().chain(more).copied())
    }

    /// The entries of `fields` this table neither accepts nor ignores nor leaves to the
    /// section to report.
    pub fn unknown<'f>(&'f self, fields: &'f Fields<'_>) -> impl Iterator<Item = &'f Entry> {
        fields.entries.iter().filter(move |entry| {
            let key = entry.key.as_str();
            !self.accepts(key) && !self.ignores(key) && !self.reported_elsewhere.contains(&key)
        })
    }

    /// One note per ignored key (saying what MassGen would have done with it) and one per
    /// unknown key (with the accepted key it most likely means), in the config's order.
    pub fn check(&self, fields: &Fields<'_>, notes: &mut Vec<Note>) {
        for entry in fields.entries {
            let (key, path) = (entry.key.as_str(), fields.key_path(&entry.key));
            if self.accepts(key) || self.reported_elsewhere.contains(&key) {
                continue;
            }
            if self.ignores(key) {
                notes.push(unsupported_note(entry, &path, self.section));
                continue;
            }
            let suggestion = self
                .suggest(key, &[])
                .map(|close| format!("; did you mean `{close}`?"))
                .unwrap_or_default();
            notes.push(super::unknown_key_note(entry, path, &suggestion));
        }
    }

    /// An error for a key the section cannot run with: what it most likely means, or every
    /// key the section accepts.
    pub fn reject(&self, entry: &Entry, message: String) -> Problem {
        let problem = Problem::at(entry.key_loc, message);
        match self.suggest(&entry.key, &[]) {
            Some(close) => problem.help(format!(
                "did you mean `{close}`? Rename `{}:` to `{close}:`",
                entry.key
            )),
            None => problem.help(format!("keys here: {}", self.accepted.join(", "))),
        }
    }
}

const LIMIT_NAMES: [&str; limits::LIMITS.len()] = {
    let mut names = [""; limits::LIMITS.len()];
    let mut index = 0;
    while index < names.len() {
        names[index] = limits::LIMITS[index].name;
        index += 1;
    }
    names
};

#[cfg(test)]
#[path = "key_table_tests.rs"]
mod tests;
