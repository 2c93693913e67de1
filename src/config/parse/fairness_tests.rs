//! The fairness keys load without a warning, default to MassGen 0.1.97's values, and a
//! wrong value is a load error naming what is valid.

use crate::config::{Env, Fairness, from_text};

const AGENT: &str = "agents:\n  - id: a\n    backend: {type: scripted}\n";

fn load_error(orchestrator: &str) -> String {
    let yaml = format!("{AGENT}orchestrator:\n  {orchestrator}\n");
    from_text(&yaml, "t.yaml", &Env::default())
        .unwrap_err()
        .message
}

#[test]
fn unset_fairness_keys_are_massgens_defaults() {
    let loaded = from_text(AGENT, "t.yaml", &Env::default()).unwrap();
    let fairness = loaded.config.orchestrator.fairness;
    assert_eq!(fairness, Fairness::default());
    assert!(fairness.enabled);
    assert_eq!(fairness.lead_cap(), Some(2));
    assert_eq!(fairness.injection_cap(), Some(2));
    assert!(!fairness.defer_peer_updates_until_restart);
}

#[test]
fn the_fairness_keys_load_without_a_warning() {
    let yaml = format!(
        "{AGENT}orchestrator:\n  fairness_enabled: true\n  fairness_lead_cap_answers: 1\n  \
         max_midstream_injections_per_round: 3\n  defer_peer_updates_until_restart: true\n"
    );
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let fairness = loaded.config.orchestrator.fairness;
    assert_eq!(fairness.lead_cap(), Some(1));
    assert_eq!(fairness.injection_cap(), Some(3));
    assert!(fairness.defer_peer_updates_until_restart);
}

#[test]
fn fairness_off_turns_both_caps_off_but_not_the_deferral() {
    let yaml = format!(
        "{AGENT}orchestrator:\n  fairness_enabled: false\n  defer_peer_updates_until_restart: yes\n"
    );
    let fairness = from_text(&yaml, "t.yaml", &Env::default())
        .unwrap()
        .config
        .orchestrator
        .fairness;
    assert_eq!(fairness.lead_cap(), None);
    assert_eq!(fairness.injection_cap(), None);
    assert!(fairness.defer_peer_updates_until_restart);
}

#[test]
fn a_lead_cap_of_zero_loads() {
    let yaml = format!("{AGENT}orchestrator:\n  fairness_lead_cap_answers: 0\n");
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert_eq!(loaded.config.orchestrator.fairness.lead_cap(), Some(0));
}

#[test]
fn wrong_values_are_errors_naming_the_valid_ones() {
    assert_eq!(
        load_error("fairness_lead_cap_answers: -1"),
        "`orchestrator.fairness_lead_cap_answers` must be 0 (strict lockstep) or a positive \
         whole number like 1 or 2"
    );
    assert_eq!(
        load_error("fairness_lead_cap_answers: two"),
        "`orchestrator.fairness_lead_cap_answers` must be 0 (strict lockstep) or a positive \
         whole number like 1 or 2"
    );
    assert_eq!(
        load_error("max_midstream_injections_per_round: 0"),
        "`orchestrator.max_midstream_injections_per_round` must be a positive whole number \
         like 1 or 2"
    );
    for key in ["fairness_enabled", "defer_peer_updates_until_restart"] {
        let message = load_error(&format!("{key}: sometimes"));
        assert!(
            message.contains(key) && message.contains("true or false"),
            "{message}"
        );
    }
}

#[test]
fn novelty_injection_loads_as_a_coordination_key_and_names_its_levels_when_wrong() {
    let yaml =
        format!("{AGENT}orchestrator:\n  coordination:\n    novelty_injection: aggressive\n");
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(
        loaded.config.orchestrator.coordination.novelty_injection,
        crate::config::NoveltyInjection::Aggressive
    );
    let yaml = format!("{AGENT}orchestrator:\n  coordination:\n    novelty_injection: wild\n");
    let error = from_text(&yaml, "t.yaml", &Env::default()).unwrap_err();
    let shown = format!("{} {}", error.message, error.help.unwrap_or_default());
    for level in ["none", "gentle", "moderate", "aggressive"] {
        assert!(shown.contains(level), "{shown}");
    }
}
