//! The display a config chooses: `ui.display_type`, else `ui.type`, else a top-level
//! `display.type`.

use crate::config::{DisplayKind, Env, from_text};

const AGENT: &str = "agent:\n  id: a\n  backend: {type: scripted}\n";

fn display(blocks: &str) -> (Option<DisplayKind>, Vec<String>) {
    let loaded = from_text(&format!("{AGENT}{blocks}"), "t.yaml", &Env::default()).unwrap();
    let warnings = loaded.warnings.iter().map(ToString::to_string).collect();
    (loaded.config.ui.display, warnings)
}

#[test]
fn ui_type_and_the_display_block_choose_the_display_too() {
    let (kind, warnings) = display("ui:\n  type: simple\n");
    assert_eq!(kind, Some(DisplayKind::Plain));
    assert!(warnings.is_empty(), "{warnings:?}");
    let (kind, warnings) = display("display:\n  type: \"textual_terminal\"\n");
    assert_eq!(kind, Some(DisplayKind::Tui));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        display("display: {type: silent}\n").0,
        Some(DisplayKind::Quiet)
    );
}

#[test]
fn display_type_wins_over_type_and_ui_over_the_display_block() {
    let (kind, _) = display("ui:\n  display_type: silent\n  type: rich_terminal\n");
    assert_eq!(kind, Some(DisplayKind::Quiet));
    let (kind, _) = display("ui: {type: simple}\ndisplay: {type: textual_terminal}\n");
    assert_eq!(kind, Some(DisplayKind::Plain));
}

#[test]
fn bad_display_names_are_errors_and_other_display_keys_warn() {
    let error = from_text(
        &format!("{AGENT}display: {{type: fancy}}\n"),
        "t.yaml",
        &Env::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("`display.type` cannot be \"fancy\""),
        "{error}"
    );
    let (kind, warnings) = display("display: {type: simple, theme: dark}\n");
    assert_eq!(kind, Some(DisplayKind::Plain));
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("ignored: display.theme")),
        "{warnings:?}"
    );
    // The block reads like `ui`: its `logging_enabled` is honoured too.
    let loaded = from_text(
        &format!("{AGENT}display: {{type: simple, logging_enabled: false}}\n"),
        "t.yaml",
        &Env::default(),
    )
    .unwrap();
    assert!(!loaded.config.ui.logging_enabled);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let (kind, warnings) = display("ui: {type: web}\n");
    assert_eq!(kind, None);
    assert!(
        warnings.iter().any(|w| w.contains("ui.type: web")),
        "{warnings:?}"
    );
}
