//! `context_window` (a backend's window in tokens) and `coordination.
//! compression_target_ratio` load as written and are acted on; nonsense is refused.

use crate::config::{Env, from_text};

fn load(yaml: &str) -> Result<crate::config::Config, String> {
    from_text(yaml, "t.yaml", &Env::default())
        .map(|loaded| {
            assert!(
                loaded.warnings.is_empty(),
                "{:?}",
                loaded
                    .warnings
                    .iter()
                    .map(|w| &w.message)
                    .collect::<Vec<_>>()
            );
            loaded.config
        })
        .map_err(|error| error.to_string())
}

#[test]
fn both_keys_load_with_no_warning() {
    let config = load(
        "agents:\n  - id: a\n    backend: {type: vllm, model: m, base_url: \"http://localhost:8000/v1\", context_window: 32768}\n\
         orchestrator:\n  coordination: {compression_target_ratio: 0.3}\n",
    )
    .unwrap();
    assert_eq!(config.agents[0].backend.context_window, Some(32768));
    assert!((config.orchestrator.coordination.compression_target_ratio - 0.3).abs() < 1e-9);
    let defaults = load("agents:\n  - id: a\n    backend: {type: scripted}\n").unwrap();
    assert_eq!(defaults.agents[0].backend.context_window, None);
    assert!((defaults.orchestrator.coordination.compression_target_ratio - 0.2).abs() < 1e-9);
}

#[test]
fn a_ratio_outside_zero_to_one_is_refused() {
    for ratio in ["0", "1.5", "-0.2"] {
        let error = load(&format!(
            "agents:\n  - id: a\n    backend: {{type: scripted}}\n\
             orchestrator:\n  coordination: {{compression_target_ratio: {ratio}}}\n"
        ))
        .unwrap_err();
        assert!(
            error.contains("orchestrator.coordination.compression_target_ratio"),
            "{error}"
        );
        assert!(error.contains("above 0 and at most 1"), "{error}");
    }
}

#[test]
fn a_tiny_or_wrongly_typed_window_is_refused() {
    let error = load("agents:\n  - id: a\n    backend: {type: scripted, context_window: 100}\n")
        .unwrap_err();
    assert!(error.contains("context_window` is 100"), "{error}");
    let error = load("agents:\n  - id: a\n    backend: {type: scripted, context_window: big}\n")
        .unwrap_err();
    assert!(error.contains("context_window"), "{error}");
}
