//! Footprint (issue 17): syntect's syntaxes and theme and the o200k tokenizer tables are
//! loaded only when first needed. `--help`, a 3-agent demo turn and drawing it in the TUI
//! load neither; a code block loads the highlighter and nothing else; a token estimate
//! loads the tokenizer.
//!
//! One test function in its own binary: the tables are process-wide, so nothing else may
//! run beside it and load them first.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use clap::Parser;
use massgen::backend::{build_backends, tokens};
use massgen::cli::Args;
use massgen::config::{self, Env};
use massgen::orchestrator::{self, RuntimeOptions, ToolSetup};
use massgen::protocol::{Event, EventMsg};
use massgen::tools::NoTools;
use massgen::tui::choices::NextQuestion;
use massgen::tui::frame::render;
use massgen::tui::state::{CodeLines, UiState, highlight_tables_loaded};
use massgen::tui::theme::Theme;
use massgen::tui::view::View;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The shipped demo's events for one question, its agents made instant.
async fn demo_turn(question: &str) -> Vec<Event> {
    let demo = config::examples::demo().unwrap();
    let mut config = config::from_text(demo.text, "demo", &Env::default())
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
    let logs = tempfile::tempdir().unwrap();
    let mut handle = orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::Shared(Arc::new(NoTools)),
        RuntimeOptions {
            logs: Some(massgen::session::RunLogDir::create(&logs.path().join(".massgen")).unwrap()),
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor: massgen::redact::Redactor::default(),
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: None,
        },
    );
    let events = handle.run_turn(question).await;
    handle.shutdown().await;
    events
}

fn loaded() -> (bool, bool) {
    (highlight_tables_loaded(), tokens::tokenizer_loaded())
}

/// This process's resident anonymous memory (heap, stacks), in KiB.
fn rss_anon_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("RssAnon:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[tokio::test]
async fn big_tables_load_only_when_first_needed() {
    assert_eq!(loaded(), (false, false), "nothing loads them before main");

    // The log writer's queue is small: tracing-appender's default touches 4 MB up front.
    let logs = tempfile::tempdir().unwrap();
    let before = rss_anon_kib();
    let guard = massgen::cli::logging::init(
        false,
        false,
        Some(logs.path()),
        &massgen::redact::Redactor::default(),
    );
    assert!(guard.is_some(), "the log file is set up");
    let grown = rss_anon_kib().saturating_sub(before);
    assert!(grown < 1024, "setting up logging took {grown} KiB");

    let help = Args::try_parse_from(["massgen", "--help"]).unwrap_err();
    assert!(help.to_string().contains("Usage"), "{help}");
    assert_eq!(loaded(), (false, false), "--help loads neither");

    let events = demo_turn("What is the capital of France?").await;
    assert!(
        events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::FinalPresentationDone { .. })),
        "the demo turn completes"
    );
    assert_eq!(loaded(), (false, false), "a demo turn loads neither");

    let mut state = UiState::default();
    for event in &events {
        state.apply(event);
    }
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal
        .draw(|frame| {
            render(
                &state,
                &View::default(),
                &NextQuestion::default(),
                &Theme::default(),
                frame,
            )
        })
        .unwrap();
    assert_eq!(
        loaded(),
        (false, false),
        "the TUI folds and draws a turn with no code block without either"
    );

    let mut code = CodeLines::default();
    code.update("Prose first.\n");
    assert_eq!(loaded(), (false, false), "prose needs no highlighter");
    code.update("Prose first.\n```rust\nfn main() {}\n```\n");
    assert!(code.lines[2].is_some(), "the code line is highlighted");
    assert_eq!(
        loaded(),
        (true, false),
        "a code block loads the highlighter only"
    );

    assert_eq!(tokens::count("hello world"), 2);
    assert_eq!(loaded(), (true, true), "an estimate loads the tokenizer");
}
