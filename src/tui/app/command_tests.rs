//! Slash commands and help keys can never become a paid question: `/` after Esc, `?`,
//! exact aliases that completion must not rewrite, and `/clear` (and `/quit` mid-turn)
//! confirmed before it acts.

use crossterm::event::KeyCode;

use super::tests::{agents, finish_turn, key, start_turn, top_modal, type_text};
use super::*;
use crate::tui::view::ModalKind;

fn sends_question(effects: &[Effect]) -> bool {
    effects
        .iter()
        .any(|effect| matches!(effect, Effect::Send(Op::Submit { .. })))
}

#[test]
fn slash_after_esc_starts_a_command_instead_of_being_lost() {
    let mut app = App::new(agents());
    app.on_key(key(KeyCode::Esc));
    assert!(!app.view.input.focused);
    app.on_key(key(KeyCode::Char('/')));
    assert!(app.view.input.focused);
    assert_eq!(app.view.input.composer.text(), "/");
    type_text(&mut app, "help");
    let effects = app.on_key(key(KeyCode::Enter));
    assert!(!sends_question(&effects), "{effects:?}");
    assert_eq!(top_modal(&app), Some(ModalKind::Help));
}

#[test]
fn question_mark_in_an_empty_composer_opens_help_and_types_elsewhere() {
    let mut app = App::new(agents());
    app.on_key(key(KeyCode::Char('?')));
    assert_eq!(top_modal(&app), Some(ModalKind::Help));
    assert!(app.view.input.composer.is_empty());
    app.on_key(key(KeyCode::Esc));
    type_text(&mut app, "why?");
    assert_eq!(app.view.input.composer.text(), "why?");
}

#[test]
fn an_exact_alias_runs_as_typed_whatever_completion_suggests() {
    for (alias, modal) in [
        ("/r", ModalKind::Coordination),
        ("/v", ModalKind::Votes),
        ("/c", ModalKind::Costs),
    ] {
        let mut app = App::new(agents());
        type_text(&mut app, alias);
        assert!(app.view.input.popup.is_some(), "{alias} has suggestions");
        let effects = app.on_key(key(KeyCode::Enter));
        assert!(effects.is_empty(), "{alias}: {effects:?}");
        assert_eq!(top_modal(&app), Some(modal), "{alias}");
    }
}

#[test]
fn clear_asks_to_be_typed_again_before_it_forgets_the_conversation() {
    let mut app = App::new(agents());
    type_text(&mut app, "/clear");
    let first = app.on_key(key(KeyCode::Enter));
    assert!(first.is_empty(), "{first:?}");
    let notice = app.view.notice.clone().unwrap_or_default();
    assert!(notice.contains("again to confirm"), "{notice}");
    type_text(&mut app, "/clear");
    let second = app.on_key(key(KeyCode::Enter));
    assert!(
        second
            .iter()
            .any(|effect| matches!(effect, Effect::Send(Op::ClearHistory))),
        "{second:?}"
    );
    // Anything else in between disarms it.
    type_text(&mut app, "/reset");
    app.on_key(key(KeyCode::Enter));
    type_text(&mut app, "/votes");
    app.on_key(key(KeyCode::Enter));
    app.on_key(key(KeyCode::Esc));
    type_text(&mut app, "/reset");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
}

#[test]
fn quit_mid_turn_asks_to_be_typed_again_and_idle_quits_at_once() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "/quit");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty(), "not yet");
    let notice = app.view.notice.clone().unwrap_or_default();
    assert!(
        notice.contains("/quit again cancels it (its work is saved) and quits"),
        "{notice}"
    );
    // `/exit` is the same command: it confirms.
    type_text(&mut app, "/exit");
    assert_eq!(app.on_key(key(KeyCode::Enter)), [Effect::Quit]);

    // Anything else in between disarms it.
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "/q");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    type_text(&mut app, "/votes");
    app.on_key(key(KeyCode::Enter));
    app.on_key(key(KeyCode::Esc));
    type_text(&mut app, "/quit");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty(), "asked again");

    // No turn running: nothing to lose.
    let mut app = App::new(agents());
    type_text(&mut app, "/quit");
    assert_eq!(app.on_key(key(KeyCode::Enter)), [Effect::Quit]);
    start_turn(&mut app);
    finish_turn(&mut app, 2, 10);
    type_text(&mut app, "/exit");
    assert_eq!(app.on_key(key(KeyCode::Enter)), [Effect::Quit]);
}

/// Short and plural forms the app takes, and the listed command each stands for.
const ALIASES: [(&str, &str); 17] = [
    ("h", "help"),
    ("?", "help"),
    ("r", "table"),
    ("q", "quit"),
    ("p", "mcp"),
    ("w", "workspace"),
    ("v", "vote"),
    ("votes", "vote"),
    ("c", "cost"),
    ("costs", "cost"),
    ("b", "answers"),
    ("t", "timeline"),
    ("o", "events"),
    ("i", "inspect"),
    ("f", "final"),
    ("m", "metrics"),
    ("consensus", "map"),
];

/// Whether the app runs `/name` (rather than calling it unknown).
fn runs(name: &str) -> bool {
    let mut app = App::new(agents());
    type_text(&mut app, &format!("/{name}"));
    app.on_key(key(KeyCode::Enter));
    !app.view
        .notice
        .as_deref()
        .is_some_and(|notice| notice.starts_with("unknown command"))
}

#[test]
fn every_command_the_app_takes_is_offered_by_completion() {
    let listed = |name: &str| crate::tui::complete::COMMANDS.contains(&format!("/{name}").as_str());
    let taken = commands::COMMAND_NAMES
        .iter()
        .chain(&commands::CONFIRMED)
        .chain(&["config"]);
    for name in taken {
        assert!(runs(name), "/{name} is taken");
        let alias_of = ALIASES
            .iter()
            .find(|(alias, _)| alias == name)
            .map(|(_, full)| *full);
        match alias_of {
            Some(full) => assert!(listed(full), "/{name} stands for /{full}, which is offered"),
            None => assert!(listed(name), "/{name} is offered by completion"),
        }
    }
    for command in crate::tui::complete::COMMANDS {
        let name = command.trim_start_matches('/');
        assert!(commands::is_command_name(name), "{command}");
        assert!(runs(name), "{command} is offered and runs");
    }
    assert!(!runs("frobnicate"), "the check can fail");
}
