//! `S` and `/strategy`: the strategy cycles and goes with the next question, is refused
//! with a notice while a turn runs, and a name it does not know is said.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tests::{agents, key, start_turn, type_text};
use super::{App, Effect};
use crate::protocol::{Mode, Op, Strategy, TurnOptions};

fn press_s(app: &mut App) {
    app.on_key(KeyEvent::new(KeyCode::Char('S'), KeyModifiers::SHIFT));
}

fn submitted(app: &mut App, text: &str) -> Vec<Effect> {
    app.view.input.focused = true;
    type_text(app, text);
    app.on_key(key(KeyCode::Enter))
}

#[test]
fn s_cycles_the_strategy_from_the_default_and_it_goes_with_the_question() {
    let mut app = App::new(agents());
    assert_eq!(app.shown_strategy(), None, "the config's until chosen");
    assert_eq!(
        app.next.choices.options(Mode::Normal).strategy,
        None,
        "untouched, the config's strategy applies"
    );
    app.on_key(key(KeyCode::Esc));
    let mut seen = Vec::new();
    for _ in 0..3 {
        press_s(&mut app);
        seen.push(app.shown_strategy());
    }
    assert_eq!(
        seen,
        [
            Some(Strategy::Council),
            Some(Strategy::Debate),
            Some(Strategy::Vote)
        ]
    );
    press_s(&mut app);
    assert_eq!(
        submitted(&mut app, "Why?"),
        [Effect::Send(Op::Submit {
            text: "Why?".into(),
            mode: Mode::Normal,
            context_paths: Vec::new(),
            options: TurnOptions {
                strategy: Some(Strategy::Council),
                ..TurnOptions::default()
            },
        })]
    );
}

#[test]
fn the_strategy_command_picks_by_name_and_says_which_names_there_are() {
    let mut app = App::new(agents());
    submitted(&mut app, "/strategy debate");
    assert_eq!(app.next.choices.strategy, Some(Strategy::Debate));
    submitted(&mut app, "/strategy");
    assert_eq!(app.next.choices.strategy, Some(Strategy::Vote), "the next");
    submitted(&mut app, "/strategy majority");
    assert_eq!(app.next.choices.strategy, Some(Strategy::Vote));
    assert_eq!(
        app.view.notice.as_deref(),
        Some("unknown strategy \"majority\": vote, council or debate")
    );
}

#[test]
fn changing_the_strategy_mid_turn_is_refused_with_the_reason() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_key(key(KeyCode::Esc));
    press_s(&mut app);
    assert_eq!(app.next.choices.strategy, None);
    assert!(
        app.view.notice.as_deref().is_some_and(
            |notice| notice.starts_with("Cannot change the strategy while a turn runs")
        ),
        "{:?}",
        app.view.notice
    );
    submitted(&mut app, "/strategy council");
    assert_eq!(app.next.choices.strategy, None, "the command too");
}
