//! `orchestrator.final_answer_strategy`: each of MassGen's three values loads without a
//! note, `null` is unset, anything else is a load error naming the valid values.

use crate::config::{Env, from_text};
use crate::protocol::FinalAnswerStrategy;

fn with(value: &str) -> String {
    format!(
        "agents:\n  - {{id: a, backend: {{type: scripted}}}}\norchestrator:\n  \
         final_answer_strategy: {value}\n"
    )
}

#[test]
fn each_strategy_loads_without_a_note() {
    for strategy in FinalAnswerStrategy::ALL {
        let loaded = from_text(&with(strategy.as_str()), "t.yaml", &Env::default()).unwrap();
        assert_eq!(
            loaded.config.orchestrator.final_answer_strategy,
            Some(strategy)
        );
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    }
    let unset = from_text(&with("null"), "t.yaml", &Env::default()).unwrap();
    assert_eq!(unset.config.orchestrator.final_answer_strategy, None);
}

#[test]
fn an_unknown_strategy_is_an_error_naming_the_valid_ones() {
    let error = from_text(&with("synthesise"), "t.yaml", &Env::default()).unwrap_err();
    assert!(
        error
            .message
            .contains("`orchestrator.final_answer_strategy` cannot be \"synthesise\""),
        "{error}"
    );
    let help = error.help.unwrap_or_default();
    assert!(
        help.contains("did you mean \"synthesize\"")
            && help.contains("winner_reuse, winner_present, synthesize"),
        "{help}"
    );
    let error = from_text(&with("vote"), "t.yaml", &Env::default()).unwrap_err();
    assert_eq!(
        error.help.as_deref(),
        Some("valid values: winner_reuse, winner_present, synthesize")
    );
}
