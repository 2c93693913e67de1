//! The key tables against the parser: every key a section's table lists is one the parser
//! reads there, and every key the parser reads is listed, for every section and backend type.

use std::collections::BTreeSet;

use super::KeyTable;
use crate::config::backend_kind::BackendKind;
use crate::config::fields::reads;
use crate::config::key_notes::Section;
use crate::config::provider_options;
use crate::config::{Env, from_text};

/// Reaches every reading path: a backend of each kind with stdio and http MCP servers,
/// context paths, a coordination block, timeouts, the display and limits.
fn full_config() -> String {
    let servers = "      mcp_servers:\n        - {name: fs, command: npx}\n        \
                   - {name: web, type: http, url: \"http://localhost:9/mcp\"}\n";
    let mut yaml = String::from("agents:\n");
    for (index, kind) in BackendKind::ALL.iter().enumerate() {
        if *kind == BackendKind::Ag2 {
            continue;
        }
        // Claude's strict tools read the servers' `strict`.
        let strict = if *kind == BackendKind::Claude {
            "      enable_strict_tool_use: true\n"
        } else {
            ""
        };
        yaml.push_str(&format!(
            "  - id: a{index}\n    backend:\n      type: {}\n      model: m\n      \
             enable_mcp_command_line: true\n{strict}{servers}",
            kind.name()
        ));
    }
    yaml.push_str(
        "orchestrator:\n  context_paths:\n    - {path: ./docs}\n  coordination:\n    \
         enable_planning_mode: true\n\
         timeout_settings:\n  orchestrator_timeout_seconds: 60\n\
         ui:\n  display_type: simple\n\
         limits:\n  max_agents: 64\n",
    );
    yaml
}

/// The section a mapping path is in, and for a backend the index of its agent.
fn section_of(path: &str) -> Option<(Section, Option<usize>)> {
    let agent = |path: &str| {
        path.strip_prefix("agents[")
            .and_then(|rest| rest.split(']').next())
            .and_then(|index| index.parse::<usize>().ok())
    };
    Some(match path {
        "" => (Section::Top, None),
        "orchestrator" => (Section::Orchestrator, None),
        "orchestrator.coordination" => (Section::Coordination, None),
        "timeout_settings" => (Section::Timeouts, None),
        "ui" => (Section::Ui, None),
        "limits" => (Section::Limits, None),
        _ if path.starts_with("orchestrator.context_paths[") => (Section::ContextPath, None),
        _ if path.contains(".mcp_servers[") && path.ends_with(']') => (Section::McpServer, None),
        _ if path.ends_with("].backend") => (Section::Backend, agent(path)),
        _ if path.starts_with("agents[") && path.ends_with(']') => (Section::Agent, None),
        _ => return None,
    })
}

/// The table of `section` (of the backend of agent `agent`), and what it may also read.
fn table_of(
    config: &crate::config::Config,
    section: Section,
    agent: Option<usize>,
) -> (KeyTable, &'static [&'static str]) {
    match (section, agent) {
        (Section::Backend, Some(index)) => {
            let kind = config.agents[index].backend.kind;
            (KeyTable::backend(kind), provider_options::options_of(kind))
        }
        _ => (KeyTable::of(section), &[]),
    }
}

#[test]
fn every_key_the_parser_reads_is_listed_and_every_listed_key_is_read() {
    let yaml = full_config();
    let mut config = None;
    let read = reads::during(|| {
        config = Some(from_text(&yaml, "t.yaml", &Env::default()).map_err(|e| e.to_string()));
    });
    let config = config.unwrap().unwrap().config;
    let mut seen: Vec<(Section, Option<usize>, BTreeSet<String>)> = Vec::new();
    for (path, key) in read {
        let Some((section, agent)) = section_of(&path) else {
            continue;
        };
        let (table, sent) = table_of(&config, section, agent);
        assert!(
            table.accepts(&key) || sent.contains(&key.as_str()),
            "the parser reads `{key}` in {section:?} (`{path}`), which its key table does not list"
        );
        match seen
            .iter_mut()
            .find(|(s, a, _)| *s == section && *a == agent)
        {
            Some((_, _, keys)) => {
                keys.insert(key);
            }
            None => seen.push((section, agent, BTreeSet::from([key]))),
        }
    }
    // Read by walking the mapping's entries rather than asking for the key.
    let mut read_otherwise = vec!["organization"];
    read_otherwise.extend(crate::config::parse::web_search_options::KEYS);
    for (section, agent, keys) in &seen {
        let (table, _) = table_of(&config, *section, *agent);
        for listed in &table.accepted {
            assert!(
                keys.contains(*listed) || read_otherwise.contains(listed),
                "{section:?} (agent {agent:?}) lists `{listed}`, which the parser never reads \
                 there; it read {keys:?}"
            );
        }
    }
    let sections: BTreeSet<String> = seen.iter().map(|(s, _, _)| format!("{s:?}")).collect();
    assert_eq!(sections.len(), 10, "sections reached: {sections:?}");
}

#[test]
fn a_listed_key_is_never_also_ignored() {
    for section in [
        Section::Top,
        Section::Agent,
        Section::McpServer,
        Section::Orchestrator,
        Section::Coordination,
        Section::Timeouts,
        Section::Ui,
        Section::Limits,
        Section::ContextPath,
    ] {
        let table = KeyTable::of(section);
        for key in &table.accepted {
            assert!(!table.ignored.contains(key), "{section:?}.{key}");
        }
    }
    for kind in BackendKind::ALL {
        let table = KeyTable::backend(kind);
        for key in &table.accepted {
            assert!(!table.ignored.contains(key), "{kind}.{key}");
        }
    }
}

#[test]
fn the_scripted_backends_list_names_model_and_type() {
    let error = from_text(
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      zzz: 1\n",
        "t.yaml",
        &Env::default(),
    )
    .unwrap_err()
    .to_string();
    let listed = error.split("keys here: ").nth(1).unwrap_or_default();
    for key in KeyTable::backend(BackendKind::Scripted).accepted {
        assert!(
            listed.split(", ").any(|name| name.trim() == key),
            "`{key}` missing from: {error}"
        );
    }
    assert!(listed.contains("model") && listed.contains("tokens_per_second"));
}
