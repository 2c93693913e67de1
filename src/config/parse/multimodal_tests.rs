//! `enable_multimodal_tools` per agent and inherited from the orchestrator, the one
//! warning about `generate_media`, agent CLIs left out, and a wrong value refused.

use crate::config::{Env, Loaded, from_text};

fn load(yaml: &str) -> Loaded {
    from_text(yaml, "t.yaml", &Env::default()).unwrap()
}

fn enabled(loaded: &Loaded) -> Vec<bool> {
    let agents = &loaded.config.agents;
    agents
        .iter()
        .map(|agent| agent.backend.tools.multimodal_tools)
        .collect()
}

fn generate_media_warnings(loaded: &Loaded) -> usize {
    let warnings = loaded.warnings.iter();
    warnings
        .filter(|warning| warning.message.contains("`generate_media`"))
        .count()
}

const TWO_AGENTS: &str = "agents:\n  - id: a\n    backend: {type: scripted, cwd: wa}\n  \
                          - id: b\n    backend: {type: scripted, cwd: wb, \
                          enable_multimodal_tools: false}\n";

#[test]
fn an_agents_own_key_is_honoured_and_not_ignored() {
    let loaded = load(
        "agent:\n  id: a\n  backend:\n    type: scripted\n    cwd: ws\n    \
         enable_multimodal_tools: true\n",
    );
    assert_eq!(enabled(&loaded), [true]);
    assert!(loaded.keys.ignored.is_empty(), "{:?}", loaded.keys);
    assert_eq!(generate_media_warnings(&loaded), 1, "{:?}", loaded.warnings);
}

#[test]
fn the_orchestrators_key_is_inherited_where_the_agent_says_nothing() {
    let loaded = load(&format!(
        "{TWO_AGENTS}orchestrator:\n  enable_multimodal_tools: true\n"
    ));
    assert_eq!(enabled(&loaded), [true, false]);
    assert!(loaded.keys.ignored.is_empty(), "{:?}", loaded.keys);
    assert_eq!(
        generate_media_warnings(&loaded),
        1,
        "one warning for the whole config"
    );
}

#[test]
fn without_the_key_nothing_is_enabled_or_said() {
    let loaded = load(TWO_AGENTS);
    assert_eq!(enabled(&loaded), [false, false]);
    assert_eq!(generate_media_warnings(&loaded), 0);
}

#[test]
fn an_agent_cli_gets_no_read_media_and_is_told_so() {
    let loaded = load(
        "agent:\n  id: cc\n  backend:\n    type: claude_code\n    cwd: ws\n    \
         enable_multimodal_tools: true\n",
    );
    assert_eq!(enabled(&loaded), [false]);
    assert_eq!(
        loaded.keys.ignored,
        ["agents[0].backend.enable_multimodal_tools".to_string()]
    );
}

#[test]
fn a_value_that_is_no_boolean_is_refused() {
    let error = from_text(
        &format!("{TWO_AGENTS}orchestrator:\n  enable_multimodal_tools: sometimes\n"),
        "t.yaml",
        &Env::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("enable_multimodal_tools"), "{error}");
}
