//! The criteria keys load without a warning into what the checklist scores, and a wrong
//! value is a load error saying what is wrong.

use crate::config::{BootstrapCaps, CriteriaGenerator, CriteriaMode, Env, from_text};
use crate::protocol::CriteriaSource;

const AGENT: &str = "agents:\n  - id: a\n    backend: {type: scripted}\n";

fn coordination(keys: &str) -> String {
    format!("{AGENT}orchestrator:\n  coordination:\n{keys}")
}

fn error_of(keys: &str) -> String {
    let error = from_text(&coordination(keys), "t.yaml", &Env::default()).unwrap_err();
    format!("{} {}", error.message, error.help.unwrap_or_default())
}

#[test]
fn inline_preset_and_generator_load_without_a_warning() {
    let yaml = coordination(
        "    checklist_criteria_inline:\n      - {text: Cites sources, category: must}\n    \
         checklist_criteria_preset: planning\n    evaluation_criteria_generator:\n      \
         enabled: true\n      max_criteria: 9\n",
    );
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let coordination = loaded.config.orchestrator.coordination;
    let inline = coordination.checklist_criteria.unwrap();
    assert_eq!(inline.source, CriteriaSource::Inline);
    assert_eq!(inline.criteria[0].category, "standard");
    let preset = coordination.checklist_criteria_preset.unwrap();
    assert_eq!(preset.source, CriteriaSource::Preset);
    assert_eq!(preset.criteria.len(), 7);
    assert_eq!(preset.criteria[4].id, "E5");
    assert_eq!(preset.criteria[4].category, "primary");
    assert_eq!(
        coordination.criteria_generator,
        Some(CriteriaGenerator {
            min_criteria: 4,
            max_criteria: 9
        })
    );
}

#[test]
fn a_disabled_generator_and_an_empty_list_are_none() {
    let yaml = coordination(
        "    checklist_criteria_inline: []\n    evaluation_criteria_generator: {enabled: false}\n",
    );
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    let coordination = loaded.config.orchestrator.coordination;
    assert_eq!(coordination.checklist_criteria, None);
    assert_eq!(coordination.criteria_generator, None);
}

#[test]
fn wrong_values_say_what_is_wrong() {
    let shown = error_of("    checklist_criteria_preset: plans\n");
    assert!(shown.contains("cannot be \"plans\""), "{shown}");
    assert!(shown.contains("planning, spec, round_evaluator"), "{shown}");
    let shown = error_of("    checklist_criteria_inline:\n      - {category: primary}\n");
    assert!(shown.contains("criterion 1 has no `text`"), "{shown}");
    let shown = error_of("    checklist_criteria_inline: Cites sources\n");
    assert!(shown.contains("checklist_criteria_inline"), "{shown}");
    let shown = error_of(
        "    evaluation_criteria_generator: {enabled: true, min_criteria: 5, max_criteria: 3}\n",
    );
    assert!(shown.contains("is below `min_criteria` (5)"), "{shown}");
    let shown = error_of("    evaluation_criteria_generator: {enabled: true, min_criteria: 0}\n");
    assert!(shown.contains("is 0"), "{shown}");
}

fn gated(keys: &str) -> String {
    format!("{AGENT}orchestrator:\n  voting_sensitivity: checklist_gated\n  coordination:\n{keys}")
}

#[test]
fn bootstrap_keys_load_without_a_warning_with_massgen_defaults() {
    let yaml = gated(
        "    criteria_mode: bootstrap_inline\n    bootstrap_max_per_agent_per_round: 2\n    \
         bootstrap_max_total: 0\n",
    );
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let coordination = loaded.config.orchestrator.coordination;
    assert_eq!(coordination.criteria_mode, CriteriaMode::BootstrapInline);
    assert_eq!(
        coordination.bootstrap_caps,
        BootstrapCaps {
            per_agent_per_round: 2,
            total: 0
        }
    );
    let plain = from_text(
        &gated("    criteria_mode: static\n"),
        "t.yaml",
        &Env::default(),
    );
    let coordination = plain.unwrap().config.orchestrator.coordination;
    assert_eq!(coordination.criteria_mode, CriteriaMode::Static);
    assert_eq!(coordination.bootstrap_caps, BootstrapCaps::default());
    assert_eq!(BootstrapCaps::default().per_agent_per_round, 3);
    assert_eq!(BootstrapCaps::default().total, 30);
}

#[test]
fn bootstrap_subagent_loads_without_a_note_under_checklist_gated_voting() {
    let loaded = from_text(
        &gated("    criteria_mode: bootstrap_subagent\n    bootstrap_max_total: 4\n"),
        "t.yaml",
        &Env::default(),
    )
    .unwrap();
    let coordination = &loaded.config.orchestrator.coordination;
    assert_eq!(coordination.criteria_mode, CriteriaMode::BootstrapSubagent);
    assert_eq!(coordination.bootstrap_caps.total, 4);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

#[test]
fn wrong_bootstrap_values_say_what_is_wrong() {
    let shown = error_of("    criteria_mode: bootstrap\n");
    assert!(shown.contains("cannot be \"bootstrap\""), "{shown}");
    assert!(
        shown.contains("static, bootstrap_inline, bootstrap_subagent"),
        "{shown}"
    );
    let shown = error_of("    bootstrap_max_total: -1\n");
    assert!(shown.contains("bootstrap_max_total"), "{shown}");
    // MassGen refuses bootstrap_inline without the checklist tool that carries proposals.
    let shown = error_of("    criteria_mode: bootstrap_inline\n");
    assert!(
        shown.contains("criteria_mode='bootstrap_inline' requires voting_sensitivity='checklist_gated', got 'unset'"),
        "{shown}"
    );
    assert!(shown.contains("checklist_gated"), "{shown}");
    // The error points at `criteria_mode` itself (line 6 of the config), not the mapping.
    let error = from_text(
        &coordination("    criteria_mode: bootstrap_inline\n"),
        "t.yaml",
        &Env::default(),
    )
    .unwrap_err();
    assert_eq!(error.loc.map(|loc| loc.line), Some(6), "{error:?}");
    // Its critic's criteria would reach no checklist either.
    let shown = error_of("    criteria_mode: bootstrap_subagent\n");
    assert!(
        shown.contains("criteria_mode='bootstrap_subagent' requires voting_sensitivity='checklist_gated', got 'unset'"),
        "{shown}"
    );
}
