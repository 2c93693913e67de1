//! `max_new_answers_per_agent` and `max_new_answers_global`: whole numbers of 1 or more, or
//! null for no limit (as MassGen's validator allows); the global cap is acted on under
//! `orchestrator` and ignored (with a note) under `orchestrator.coordination`.

use crate::config::{Env, from_text};

const AGENT: &str = "agents:\n  - id: a\n    backend: {type: scripted}\n";

#[test]
fn max_new_answers_global_loads_without_a_warning() {
    let yaml = format!("{AGENT}orchestrator:\n  max_new_answers_global: 4\n");
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert_eq!(loaded.config.orchestrator.max_new_answers_global, Some(4));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

#[test]
fn null_answer_limits_mean_no_limit() {
    let yaml = format!(
        "{AGENT}orchestrator:\n  max_new_answers_global: null\n  max_new_answers_per_agent: ~\n"
    );
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert_eq!(loaded.config.orchestrator.max_new_answers_global, None);
    assert_eq!(loaded.config.orchestrator.max_new_answers_per_agent, None);
}

#[test]
fn a_global_limit_of_zero_or_text_is_an_error() {
    let zero = format!("{AGENT}orchestrator:\n  max_new_answers_global: 0\n");
    let error = from_text(&zero, "t.yaml", &Env::default()).unwrap_err();
    assert_eq!(
        error.message,
        "`orchestrator.max_new_answers_global` is 0, so no agent could ever answer"
    );
    assert_eq!(error.loc.map(|loc| (loc.line, loc.column)), Some((5, 27)));
    let text = format!("{AGENT}orchestrator:\n  max_new_answers_global: many\n");
    let error = from_text(&text, "t.yaml", &Env::default()).unwrap_err();
    assert!(
        error.message.contains("must be a whole number"),
        "{}",
        error.message
    );
}

#[test]
fn under_coordination_the_global_limit_is_ignored_with_a_note() {
    let yaml = format!("{AGENT}orchestrator:\n  coordination:\n    max_new_answers_global: 2\n");
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert_eq!(loaded.config.orchestrator.max_new_answers_global, None);
    let warning = &loaded.warnings[0];
    assert!(
        warning.message.contains("set it under `orchestrator`"),
        "{}",
        warning.message
    );
}
