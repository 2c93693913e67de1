//! Fixtures for the TUI's tests: real demo turns from the orchestrator, scripted agents
//! made instant (run under tokio's paused clock, so every run is the same).

use std::sync::Arc;

use crate::backend::build_backends;
use crate::config::{self, Env};
use crate::orchestrator::ToolSetup;
use crate::orchestrator::{self, RuntimeOptions};
use crate::protocol::Event;
use crate::tools::NoTools;

/// The shipped demo's events for `questions`, one turn each.
pub async fn demo_turns(questions: &[&str]) -> Vec<Event> {
    let demo = config::examples::demo().unwrap();
    scripted_turns(demo.text, questions).await
}

/// The events of scripted agents configured by `yaml`, one turn per question.
pub async fn scripted_turns(yaml: &str, questions: &[&str]) -> Vec<Event> {
    let mut config = config::from_text(yaml, "test", &Env::default())
        .unwrap()
        .into_runnable()
        .unwrap()
        .0;
    for agent in &mut config.agents {
        if let Some(options) = agent.backend.scripted.as_mut() {
            options.tokens_per_second = 0.0;
            options.first_token_ms = 0;
        }
    }
    let backends = build_backends(&config, &Env::default()).unwrap();
    let mut handle = orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::Shared(Arc::new(NoTools)),
        RuntimeOptions {
            massgen_dir: None,
            resume: None,
        },
    );
    let mut events = Vec::new();
    for question in questions {
        events.extend(handle.run_turn(question).await);
    }
    events
}
