//! Looking around: focus and single keys, modals and slash commands, scrolling and pausing,
//! the theme.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tests::{agents, finish_turn, key, start_turn, top_modal, type_text};
use super::{App, Effect};
use crate::protocol::{EventMsg, Op};
use crate::tui::frame::render;
use crate::tui::test_support::event;
use crate::tui::view::ModalKind;

#[test]
fn single_keys_act_once_the_composer_is_left() {
    let mut app = App::new(agents());
    app.on_key(key(KeyCode::Esc));
    assert!(!app.view.input.focused);
    app.on_key(key(KeyCode::Tab));
    assert_eq!(app.view.cards.focused, 1);
    app.on_key(key(KeyCode::Char('3')));
    assert_eq!(app.view.cards.focused, 2);
    app.on_key(key(KeyCode::Right));
    assert_eq!(app.view.cards.focused, 0);
    app.on_key(key(KeyCode::Left));
    assert_eq!(app.view.cards.focused, 2);
    app.on_key(key(KeyCode::Char('9')));
    assert_eq!(app.view.cards.focused, 2, "no ninth agent");
    app.on_key(key(KeyCode::Char('z')));
    assert!(app.view.cards.maximized);
    app.on_key(key(KeyCode::PageUp));
    assert_eq!(app.view.cards.scroll, 10);
    app.on_key(key(KeyCode::End));
    assert_eq!(app.view.cards.scroll, 0);
    app.on_key(key(KeyCode::Char('i')));
    assert!(app.view.input.focused);
    app.on_key(key(KeyCode::Esc));
    assert_eq!(app.on_key(key(KeyCode::Char('q'))), [Effect::Quit]);
}

#[test]
fn single_keys_and_slash_commands_open_modals_and_esc_closes_the_top() {
    let mut app = App::new(agents());
    type_text(&mut app, "/vote");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), Some(ModalKind::Votes));
    // Keys go to the modal: the composer is untouched, Esc closes it.
    app.on_key(key(KeyCode::PageDown));
    assert_eq!(app.view.modals.stack[0].scroll, 10);
    app.on_key(key(KeyCode::Esc));
    assert!(app.view.modals.is_empty());
    assert!(app.view.input.focused);
    app.on_key(key(KeyCode::Esc));
    for (ch, kind) in [
        ('?', ModalKind::Help),
        ('c', ModalKind::Costs),
        ('t', ModalKind::Timeline),
        ('s', ModalKind::Status),
        ('o', ModalKind::AgentOutput { agent: 0 }),
        ('a', ModalKind::Answers { selected: 0 }),
        ('r', ModalKind::Coordination),
        ('m', ModalKind::Servers),
        (
            'd',
            ModalKind::Tools {
                agent: 0,
                selected: 0,
            },
        ),
    ] {
        app.on_key(key(KeyCode::Char(ch)));
        assert_eq!(top_modal(&app), Some(kind), "{ch}");
        app.on_key(key(KeyCode::Esc));
    }
    assert!(app.view.modals.is_empty());
}

#[test]
fn slash_commands_quit_cancel_and_explain_mistakes() {
    let mut app = App::new(agents());
    type_text(&mut app, "/cancel");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(app.view.notice.as_deref(), Some("no turn is running"));
    type_text(&mut app, "/inspect");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), Some(ModalKind::Turns { selected: 0 }));
    app.on_key(key(KeyCode::Esc));
    type_text(&mut app, "/frobnicate");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(
        app.view.notice.as_deref(),
        Some("unknown command /frobnicate: /help lists them")
    );
    start_turn(&mut app);
    type_text(&mut app, "/cancel");
    assert_eq!(app.on_key(key(KeyCode::Enter)), [Effect::Send(Op::Cancel)]);
    type_text(&mut app, "/quit");
    assert_eq!(app.on_key(key(KeyCode::Enter)), [Effect::Quit]);
}

#[test]
fn a_paused_timeline_stays_put_and_counts_what_is_new() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    let warn = |seq: u64| {
        event(
            seq,
            Some("a"),
            EventMsg::Warning {
                message: format!("note {seq}"),
            },
        )
    };
    for seq in 2..6 {
        app.on_event(&warn(seq));
    }
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('p')));
    assert!(app.view.timeline.focused);
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.timeline.scroll, 1);
    app.on_event(&warn(6));
    app.on_event(&warn(7));
    assert_eq!(
        app.view.timeline.scroll, 3,
        "two new entries below the view"
    );
    app.on_key(key(KeyCode::PageUp));
    assert_eq!(
        app.view.timeline.scroll, 6,
        "no further than the first entry"
    );
    app.on_key(key(KeyCode::End));
    assert_eq!(app.view.timeline.scroll, 0);
    app.on_event(&warn(8));
    assert_eq!(app.view.timeline.scroll, 0, "following again");
}

#[test]
fn ctrl_t_switches_between_dark_and_light() {
    use crate::tui::theme::ThemeKind;

    let mut app = App::new(agents());
    assert_eq!(app.theme.kind, ThemeKind::Dark);
    let ctrl_t = KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL);
    app.on_key(ctrl_t);
    assert_eq!(app.theme.kind, ThemeKind::Light);
    assert!(app.view.input.composer.is_empty(), "the key is not typed");
    app.on_key(ctrl_t);
    assert_eq!(app.theme.kind, ThemeKind::Dark);
    app.theme = crate::tui::theme::Theme::new(ThemeKind::Plain);
    app.on_key(ctrl_t);
    assert_eq!(
        app.theme.kind,
        ThemeKind::Plain,
        "NO_COLOR stays without colour"
    );
}

#[test]
fn a_paused_card_keeps_its_view_while_output_streams_on() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    let mut app = App::new(agents());
    start_turn(&mut app);
    let mut seq = 1;
    let mut stream = |app: &mut App, text: String| {
        seq += 1;
        app.on_event(&event(seq, Some("a"), EventMsg::TextDelta { text }));
    };
    for line in 0..40 {
        stream(&mut app, format!("line {line}\n"));
    }
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let mut screen = |app: &App| {
        terminal
            .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame))
            .unwrap();
        format!("{:?}", terminal.backend())
    };
    screen(&app);
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::PageUp));
    let paused = screen(&app);
    assert!(paused.contains("line 29") && !paused.contains("line 39"));
    stream(&mut app, "line 40 continues".into());
    stream(&mut app, " here\nline 41\n".into());
    let later = screen(&app);
    assert_eq!(
        paused.replace("⏸ 0 new", "⏸ 2 new"),
        later,
        "only the count of new lines changes"
    );
    app.on_key(key(KeyCode::End));
    let following = screen(&app);
    assert!(following.contains("line 41") && !following.contains("⏸"));
}

#[test]
fn clear_forgets_the_history_only_between_turns_and_shows_the_welcome_view() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "/clear");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert_eq!(
        app.view.notice.as_deref(),
        Some("a turn is running: /cancel it first")
    );
    finish_turn(&mut app, 2, 5);
    // It forgets the conversation, so it is typed twice.
    type_text(&mut app, "/reset");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    type_text(&mut app, "/reset");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::ClearHistory)]
    );
    app.on_event(&event(3, None, EventMsg::HistoryCleared));
    assert_eq!(app.state.turn.number, 0, "back to the welcome view");
    assert_eq!(app.state.turns.len(), 1, "/inspect keeps the finished turn");
}

#[test]
fn config_opens_the_config_file_or_says_there_is_none() {
    let mut app = App::new(agents());
    type_text(&mut app, "/config");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert!(
        app.view
            .notice
            .as_deref()
            .is_some_and(|notice| notice.starts_with("this session has no config file")),
        "{:?}",
        app.view.notice
    );
    let mut app = App::new(agents()).with_config_file(Some(PathBuf::from("team.yaml")));
    type_text(&mut app, "/config");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::OpenFile(PathBuf::from("team.yaml"))]
    );
}

#[test]
fn inspect_opens_a_chosen_turn_and_events_the_last_turns() {
    let mut app = App::new(agents());
    let run = |app: &mut App, typed: &str| {
        type_text(app, typed);
        app.on_key(key(KeyCode::Enter));
        let opened = top_modal(app);
        app.view.modals.stack.clear();
        opened
    };
    assert_eq!(run(&mut app, "/inspect 1"), None);
    assert_eq!(
        app.view.notice.as_deref(),
        Some("/inspect 1: no such finished turn (no finished turn yet); /inspect lists them")
    );
    for seq in [10, 20, 30] {
        start_turn(&mut app);
        finish_turn(&mut app, seq, 1_000);
    }
    // The test turns are all numbered 1 by the shared builder: renumber them.
    for (index, turn) in app.state.turns.iter_mut().enumerate() {
        turn.turn = u32::try_from(index).unwrap() + 3;
    }
    assert_eq!(
        run(&mut app, "/inspect 4"),
        Some(ModalKind::Turns { selected: 1 })
    );
    assert_eq!(
        run(&mut app, "/inspect all"),
        Some(ModalKind::Turns { selected: 2 })
    );
    assert_eq!(
        run(&mut app, "/inspect"),
        Some(ModalKind::Turns { selected: 2 })
    );
    assert_eq!(run(&mut app, "/inspect 9"), None);
    assert_eq!(
        app.view.notice.as_deref(),
        Some("/inspect 9: no such finished turn (turns 3–5); /inspect lists them")
    );
    assert_eq!(
        run(&mut app, "/events"),
        Some(ModalKind::Events { turns: 1 })
    );
    assert_eq!(
        run(&mut app, "/events 3"),
        Some(ModalKind::Events { turns: 3 })
    );
    assert_eq!(
        run(&mut app, "/o all"),
        Some(ModalKind::Events { turns: usize::MAX })
    );
    for wrong in ["x", "0"] {
        assert_eq!(run(&mut app, &format!("/events {wrong}")), None);
        assert_eq!(
            app.view.notice,
            Some(format!(
                "/events {wrong}: give a number of turns (1, 2, …) or `all`"
            ))
        );
    }
    assert_eq!(run(&mut app, "/timeline"), Some(ModalKind::Timeline));
}

#[test]
fn escape_sequences_and_bidi_overrides_from_a_model_reach_no_cell() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    let mut app = App::new(agents());
    start_turn(&mut app);
    let hostile = "\u{1b}[2J\u{1b}]52;c;ZXZpbA==\u{7}clip \u{9b}31mred\u{8}\u{8} \
                   \u{202e}gnp.exe\r\u{1b}[1Aspoof\n";
    app.on_event(&event(
        2,
        Some("a"),
        EventMsg::TextDelta {
            text: hostile.to_string(),
        },
    ));
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal
        .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let shown: String = buffer.content().iter().map(|cell| cell.symbol()).collect();
    assert!(shown.contains("gnp.exe"), "the text itself is shown");
    for cell in buffer.content() {
        let symbol = cell.symbol();
        assert!(
            !symbol.chars().any(|ch| ch.is_control()
                || matches!(ch, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
            "a cell holds {symbol:?}"
        );
    }
}
