//! The gap-report, peer-update and fast-iteration keys load without a warning, follow
//! MassGen 0.1.97's derivations, and a wrong value is a load error naming what is valid.

use crate::config::{Env, FastIteration, GapReport, GapReportMode, from_text};

const AGENT: &str = "agents:\n  - id: a\n    backend: {type: scripted}\n";

fn loaded(orchestrator: &str) -> crate::config::Loaded {
    let yaml = format!("{AGENT}orchestrator:\n{orchestrator}");
    from_text(&yaml, "t.yaml", &Env::default()).unwrap()
}

fn load_error(orchestrator: &str) -> String {
    let yaml = format!("{AGENT}orchestrator:\n{orchestrator}");
    let error = from_text(&yaml, "t.yaml", &Env::default()).unwrap_err();
    format!("{} {}", error.message, error.help.unwrap_or_default())
}

fn gap(orchestrator: &str) -> GapReport {
    loaded(orchestrator)
        .config
        .orchestrator
        .checklist
        .gap_report
}

#[test]
fn the_gap_report_mode_follows_the_requirement_and_the_requirement_the_mode() {
    assert_eq!(gap(""), GapReport::default());
    let required = GapReport {
        required: true,
        mode: GapReportMode::Separate,
    };
    assert_eq!(gap("  checklist_require_gap_report: true\n"), required);
    assert_eq!(
        gap("  gap_report_mode: changedoc\n"),
        GapReport {
            required: true,
            mode: GapReportMode::Changedoc
        }
    );
    assert_eq!(
        gap("  checklist_require_gap_report: false\n  gap_report_mode: separate\n"),
        GapReport {
            required: false,
            mode: GapReportMode::Separate
        }
    );
    assert!(!gap("  gap_report_mode: none\n").required);
}

#[test]
fn the_keys_load_without_a_warning() {
    let loaded = loaded(
        "  voting_sensitivity: checklist_gated\n  checklist_require_gap_report: true\n  \
         allow_midstream_peer_updates_before_checklist_submit: true\n  coordination:\n    \
         fast_iteration_mode: true\n    max_verifications_per_round: 1\n    \
         max_internal_fix_loops: 0\n",
    );
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let orchestrator = loaded.config.orchestrator;
    assert_eq!(orchestrator.checklist.midstream_before_submit, Some(true));
    assert_eq!(
        orchestrator.coordination.fast_iteration,
        FastIteration {
            mode: true,
            max_verifications_per_round: Some(1),
            max_internal_fix_loops: Some(0),
        }
    );
    let unset = loaded_null();
    assert_eq!(unset.checklist.midstream_before_submit, None);
    assert_eq!(unset.coordination.fast_iteration, FastIteration::default());
}

fn loaded_null() -> crate::config::OrchestratorConfig {
    loaded(
        "  allow_midstream_peer_updates_before_checklist_submit: null\n  coordination:\n    \
         max_verifications_per_round: null\n",
    )
    .config
    .orchestrator
}

#[test]
fn wrong_values_say_what_is_valid() {
    for (orchestrator, expected) in [
        (
            "  gap_report_mode: changdoc\n",
            "did you mean \"changedoc\"?",
        ),
        (
            "  checklist_require_gap_report: maybe\n",
            "checklist_require_gap_report",
        ),
        (
            "  allow_midstream_peer_updates_before_checklist_submit: 3\n",
            "true or false",
        ),
        (
            "  coordination:\n    max_internal_fix_loops: -1\n",
            "a whole number ≥ 0",
        ),
        (
            "  coordination:\n    fast_iteration_mode: fast\n",
            "fast_iteration_mode",
        ),
    ] {
        let error = load_error(orchestrator);
        assert!(error.contains(expected), "{orchestrator}: {error}");
    }
}
