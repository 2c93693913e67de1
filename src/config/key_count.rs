//! How many of a config's keys massgen acts on and which it ignores: `--validate`'s summary.
//!
//! The keys counted are those of the config's sections — the top level, each agent, its
//! backend and MCP servers, the orchestrator, its coordination block and context paths, the
//! timeouts, the display (`ui`, or a top-level `display`) and the limits. A key is ignored when the loader said so (a note
//! naming its path); a key inside an ignored block is not counted again.

use std::collections::HashSet;

use crate::config::yaml_node::{Node, Value};

/// The keys of one config, sorted into those acted on and those ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyCount {
    /// Keys massgen acts on.
    pub honoured: usize,
    /// The paths of the keys massgen ignores, in the order the loader named them.
    pub ignored: Vec<String>,
}

impl KeyCount {
    /// Counts the section keys of `root`; `ignored` are the key paths the loader's notes
    /// named. Linear in the keys and their depth, for configs of a hundred thousand keys.
    pub fn of(root: &Node, ignored: &[String]) -> Self {
        let mut seen: HashSet<&str> = HashSet::with_capacity(ignored.len());
        let ignored_paths: Vec<String> = ignored
            .iter()
            .filter(|path| seen.insert(path.as_str()))
            .cloned()
            .collect();
        let mut keys = Vec::new();
        section_keys(root, &mut keys);
        let honoured = keys
            .iter()
            .filter(|key| !blocks_of(key).any(|block| seen.contains(block)))
            .count();
        Self {
            honoured,
            ignored: ignored_paths,
        }
    }

    /// "14 keys honoured, 2 ignored" (or "all 14 keys honoured").
    pub fn summary(&self) -> String {
        let keys = crate::text::plural(self.honoured, "key");
        if self.ignored.is_empty() {
            format!("all {keys} honoured")
        } else {
            format!("{keys} honoured, {} ignored", self.ignored.len())
        }
    }
}

/// `key` and every block it lies in: `a[0].b` → `a[0].b`, `a[0]`, `a`.
fn blocks_of(key: &str) -> impl Iterator<Item = &str> {
    let ends = key
        .char_indices()
        .filter(|(_, c)| *c == '.' || *c == '[')
        .map(|(index, _)| index);
    std::iter::once(key).chain(ends.map(|end| &key[..end]))
}

/// Whether `key` is `block` or lies inside it (`a.b` is within `a`, `a[0].b` within `a`).
pub(super) fn is_within(key: &str, block: &str) -> bool {
    key == block
        || key
            .strip_prefix(block)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// The dotted paths of every key of the config's sections.
fn section_keys(root: &Node, keys: &mut Vec<String>) {
    let top = mapping_keys(root, "", keys);
    if let Some(agent) = top.get("agent") {
        agent_keys(agent, "agent", keys);
    }
    if let Some(Value::Seq(agents)) = top.get("agents").map(|node| &node.value) {
        for (index, agent) in agents.iter().enumerate() {
            agent_keys(agent, &format!("agents[{index}]"), keys);
        }
    }
    if let Some(orchestrator) = top.get("orchestrator") {
        let fields = mapping_keys(orchestrator, "orchestrator", keys);
        if let Some(coordination) = fields.get("coordination") {
            mapping_keys(coordination, "orchestrator.coordination", keys);
        }
        if let Some(Value::Seq(paths)) = fields.get("context_paths").map(|node| &node.value) {
            for (index, path) in paths.iter().enumerate() {
                mapping_keys(path, &format!("orchestrator.context_paths[{index}]"), keys);
            }
        }
    }
    for section in ["timeout_settings", "ui", "display", "limits"] {
        if let Some(node) = top.get(section) {
            mapping_keys(node, section, keys);
        }
    }
}

fn agent_keys(agent: &Node, path: &str, keys: &mut Vec<String>) {
    let fields = mapping_keys(agent, path, keys);
    let Some(backend) = fields.get("backend") else {
        return;
    };
    let backend_path = format!("{path}.backend");
    let backend = mapping_keys(backend, &backend_path, keys);
    let servers_path = format!("{backend_path}.mcp_servers");
    match backend.get("mcp_servers").map(|node| &node.value) {
        Some(Value::Seq(servers)) => {
            for (index, server) in servers.iter().enumerate() {
                mapping_keys(server, &format!("{servers_path}[{index}]"), keys);
            }
        }
        Some(Value::Map(servers)) => {
            for server in servers {
                mapping_keys(
                    &server.value,
                    &format!("{servers_path}.{}", server.key),
                    keys,
                );
            }
        }
        _ => {}
    }
}

/// The node's keys, each added to `keys` as `path.key`; an empty view if it is no mapping.
fn mapping_keys<'a>(node: &'a Node, path: &str, keys: &mut Vec<String>) -> Section<'a> {
    let Value::Map(entries) = &node.value else {
        return Section(None);
    };
    for entry in entries {
        keys.push(if path.is_empty() {
            entry.key.clone()
        } else {
            format!("{path}.{}", entry.key)
        });
    }
    Section(Some(node))
}

/// A mapping whose keys were counted, to look into.
struct Section<'a>(Option<&'a Node>);

impl<'a> Section<'a> {
    fn get(&self, key: &str) -> Option<&'a Node> {
        self.0?.get(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(yaml: &str, ignored: &[&str]) -> KeyCount {
        let root = crate::config::yaml::parse(yaml).unwrap().root.unwrap();
        let ignored: Vec<String> = ignored.iter().map(|path| path.to_string()).collect();
        KeyCount::of(&root, &ignored)
    }

    #[test]
    fn counts_every_section_key_and_leaves_ignored_blocks_out() {
        let yaml = "agents:\n  - id: a\n    backend:\n      type: openai\n      model: m\n      \
                    mcp_servers:\n        - {name: s, type: stdio, command: x}\n      \
                    custom_tools: [{path: t.py, function: f}]\n\
                    orchestrator:\n  coordination: {max_orchestration_restarts: 1}\n  \
                    context_paths: [{path: ., permission: read}]\n\
                    ui: {display_type: simple}\nmemory: {enabled: true}\n";
        let counted = count(
            yaml,
            &["agents[0].backend.custom_tools", "memory", "memory"],
        );
        // agents, orchestrator, ui, memory; id, backend; type, model, mcp_servers,
        // custom_tools; name, type, command; coordination, context_paths;
        // max_orchestration_restarts; path, permission; display_type.
        assert_eq!(counted.ignored.len(), 2);
        assert_eq!(counted.honoured, 19 - 2);
        assert_eq!(counted.summary(), "17 keys honoured, 2 ignored");
    }

    #[test]
    fn a_config_without_ignored_keys_says_all() {
        let counted = count("agent:\n  id: a\n  backend: {type: scripted}\n", &[]);
        assert_eq!(counted.summary(), "all 4 keys honoured");
    }

    #[test]
    fn mapping_form_servers_are_counted_and_prefixes_are_whole_keys() {
        let yaml = "agents:\n  - id: a\n    backend:\n      type: openai\n      \
                    mcp_servers:\n        weather: {type: stdio, command: x}\n      \
                    cwd: w\n      cwd_extra: y\n";
        let counted = count(yaml, &["agents[0].backend.cwd"]);
        // agents; id, backend; type, mcp_servers, cwd, cwd_extra; type, command.
        assert_eq!(counted.honoured, 9 - 1);
    }
}
