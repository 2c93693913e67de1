//! Newer MassGen mode values load with a warning naming the fallback (`checklist_gated`
//! and its knobs are read); per-agent
//! `voting_sensitivity` and `persona`; MassGen's rate-limits file is named as such.

use crate::config::{Env, Sensitivity, from_text};
use crate::protocol::PlanDepth;

const AGENT: &str = "agents:\n  - id: a\n    backend: {type: scripted}\n";

fn warnings(yaml: &str) -> Vec<String> {
    from_text(yaml, "t.yaml", &Env::default())
        .unwrap()
        .warnings
        .into_iter()
        .map(|warning| warning.message)
        .collect()
}

#[test]
fn checklist_gated_loads_as_a_mode_of_its_own_with_massgens_defaults() {
    let yaml = format!("{AGENT}orchestrator:\n  voting_sensitivity: checklist_gated\n");
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let checklist = loaded.config.orchestrator.checklist;
    assert!(checklist.gated);
    assert_eq!(
        (checklist.voting_threshold, checklist.max_calls_per_round),
        (5, 1)
    );
    assert!(!checklist.first_answer);
    assert_eq!(loaded.config.agents[0].checklist_gated, None);
}

#[test]
fn checklist_knobs_and_a_per_agent_gate_are_read() {
    let yaml = "agents:\n  - id: a\n    backend: {type: scripted}\n    voting_sensitivity: \
                checklist_gated\n  - id: b\n    backend: {type: scripted}\n    \
                voting_sensitivity: balanced\norchestrator:\n  voting_threshold: 3\n  \
                max_checklist_calls_per_round: 2\n  checklist_first_answer: true\n";
    let loaded = from_text(yaml, "t.yaml", &Env::default()).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let config = &loaded.config;
    assert_eq!(config.agents[0].checklist_gated, Some(true));
    assert_eq!(config.agents[1].checklist_gated, Some(false));
    let checklist = config.orchestrator.checklist;
    assert!(!checklist.gated);
    assert_eq!(
        (checklist.voting_threshold, checklist.max_calls_per_round),
        (3, 2)
    );
    assert!(checklist.first_answer);
}

#[test]
fn checklist_knobs_out_of_range_are_errors_that_say_why() {
    for (line, words) in [
        ("voting_threshold: 70", "runs from 0 to 10"),
        (
            "max_checklist_calls_per_round: 0",
            "no agent could submit its checklist",
        ),
        ("checklist_first_answer: maybe", "checklist_first_answer"),
    ] {
        let yaml = format!("{AGENT}orchestrator:\n  {line}\n");
        let error = from_text(&yaml, "t.yaml", &Env::default())
            .unwrap_err()
            .to_string();
        assert!(error.contains(words), "{line}: {error}");
    }
}

#[test]
fn every_newer_voting_mode_loads_and_names_its_fallback() {
    for (mode, fallback) in [
        ("roi", "balanced"),
        ("roi_conservative", "lenient"),
        ("roi_aggressive", "strict"),
        ("sequential", "balanced"),
        ("adversarial", "strict"),
        ("consistency", "balanced"),
        ("diversity", "balanced"),
        ("reflective", "strict"),
        ("checklist", "strict"),
        ("checklist_scored", "strict"),
    ] {
        let yaml = format!("{AGENT}orchestrator:\n  voting_sensitivity: {mode}\n");
        let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
        assert_eq!(
            loaded.config.orchestrator.voting_sensitivity,
            Sensitivity::from_name(fallback).unwrap(),
            "{mode}"
        );
        assert!(
            loaded.warnings[0]
                .message
                .ends_with(&format!("massgen uses `{fallback}` instead")),
            "{mode}: {:?}",
            loaded.warnings
        );
    }
}

#[test]
fn a_misspelled_mode_is_still_an_error_listing_every_mode() {
    let yaml = format!("{AGENT}orchestrator:\n  voting_sensitivity: checklist_gate\n");
    let error = from_text(&yaml, "t.yaml", &Env::default())
        .unwrap_err()
        .to_string();
    assert!(error.contains("cannot be \"checklist_gate\""), "{error}");
    assert!(
        error.contains("did you mean \"checklist_gated\"?"),
        "{error}"
    );
    assert!(error.contains("lenient, balanced, strict, roi"), "{error}");
}

#[test]
fn an_agent_has_its_own_voting_sensitivity_and_persona() {
    let yaml = "agents:\n  - id: a\n    voting_sensitivity: strict\n    persona: \"A skeptic.\"\n    \
                backend: {type: scripted}\n  - id: b\n    voting_sensitivity: roi_conservative\n    \
                persona: \"  \"\n    backend: {type: scripted}\n";
    let loaded = from_text(yaml, "t.yaml", &Env::default()).unwrap();
    let agents = &loaded.config.agents;
    assert_eq!(agents[0].voting_sensitivity, Some(Sensitivity::Strict));
    assert_eq!(agents[0].persona.as_deref(), Some("A skeptic."));
    assert_eq!(agents[1].voting_sensitivity, Some(Sensitivity::Lenient));
    assert_eq!(agents[1].persona, None, "a blank persona is no persona");
    let messages: Vec<&str> = loaded.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].starts_with("agents[1].voting_sensitivity: roi_conservative is a MassGen"),
        "{messages:?}"
    );
    let plain = from_text(AGENT, "t.yaml", &Env::default()).unwrap();
    assert_eq!(plain.config.agents[0].voting_sensitivity, None);
}

#[test]
fn dynamic_plan_depth_runs_as_medium_with_a_warning() {
    let yaml = format!("{AGENT}orchestrator:\n  coordination:\n    plan_depth: dynamic\n");
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert_eq!(
        loaded.config.orchestrator.coordination.plan_depth,
        PlanDepth::Medium
    );
    assert!(
        loaded.warnings[0]
            .message
            .starts_with("orchestrator.coordination.plan_depth: dynamic is a MassGen 0.1.9x mode"),
        "{:?}",
        loaded.warnings
    );
}

#[test]
fn unsupported_keys_say_what_massgen_would_have_done() {
    let yaml = format!(
        "{AGENT}orchestrator:\n  coordination:\n    massgen_skills: [pdf]\n    skip_redundant_scaffolding: true\n"
    );
    let messages = warnings(&yaml);
    assert_eq!(
        messages[0],
        "ignored: orchestrator.coordination.massgen_skills — MassGen would also give agents the \
         skills bundled with MassGen (these names only); massgen bundles none and lists the \
         skills in `skills_directory` and ~/.agent/skills"
    );
    assert!(
        messages[1].starts_with(
            "ignored: orchestrator.coordination.skip_redundant_scaffolding — MassGen would tell"
        ),
        "{messages:?}"
    );
}

#[test]
fn massgen_rate_limits_file_is_named_not_called_agentless() {
    let yaml =
        "gemini:\n  gemini-2.5-flash:\n    rpm: 9\n    tpm: 240000\n  default:\n    rpm: 7\n";
    let error = from_text(yaml, "rate_limits.yaml", &Env::default())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("this looks like MassGen's rate-limits file")
            && error.contains("not an agent config"),
        "{error}"
    );
    let other = from_text("gemini:\n  model: x\n", "t.yaml", &Env::default())
        .unwrap_err()
        .to_string();
    assert!(other.contains("the config defines no agents"), "{other}");
}

#[test]
fn enable_memory_filesystem_mode_is_acted_on_and_checked() {
    let on =
        format!("{AGENT}orchestrator:\n  coordination: {{enable_memory_filesystem_mode: true}}\n");
    let loaded = from_text(&on, "t.yaml", &Env::default()).unwrap();
    assert!(
        loaded
            .config
            .orchestrator
            .coordination
            .enable_memory_filesystem_mode
    );
    assert!(
        !warnings(&on)
            .iter()
            .any(|warning| warning.contains("enable_memory_filesystem_mode")),
        "no longer ignored"
    );
    let off = from_text(AGENT, "t.yaml", &Env::default()).unwrap();
    assert!(
        !off.config
            .orchestrator
            .coordination
            .enable_memory_filesystem_mode
    );
    let wrong =
        format!("{AGENT}orchestrator:\n  coordination: {{enable_memory_filesystem_mode: [yes]}}\n");
    let error = from_text(&wrong, "t.yaml", &Env::default())
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("enable_memory_filesystem_mode"), "{error}");
}

#[test]
fn skills_keys_are_read_with_massgens_default_directory() {
    let config = |coordination: &str| {
        let yaml = format!("{AGENT}orchestrator:\n  coordination: {coordination}\n");
        let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        loaded.config.orchestrator.coordination.skills
    };
    let default = config("{use_skills: true}").unwrap();
    assert_eq!(default.directory, std::path::Path::new(".agent/skills"));
    assert!(!default.load_previous_sessions);
    assert!(
        default
            .user_directory
            .is_some_and(|dir| dir.ends_with(".agent/skills"))
    );
    let chosen = config(
        "{use_skills: true, skills_directory: my/skills, load_previous_session_skills: true}",
    )
    .unwrap();
    assert_eq!(chosen.directory, std::path::Path::new("my/skills"));
    assert!(chosen.load_previous_sessions);
    assert_eq!(config("{skills_directory: my/skills}"), None);

    let empty = format!(
        "{AGENT}orchestrator:\n  coordination: {{use_skills: true, skills_directory: ''}}\n"
    );
    let error = from_text(&empty, "t.yaml", &Env::default())
        .unwrap_err()
        .to_string();
    assert!(error.contains("skills_directory` is empty"), "{error}");
}
