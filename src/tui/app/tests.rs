//! Key paths of the app: submitting, history, Ctrl+C's three meanings, modes, focus.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use jiff::Timestamp;

use super::*;
use crate::protocol::{AgentId, EventMsg};
use crate::tui::modal::ModalKind;
use crate::tui::render::render;

fn agents() -> Vec<AgentInfo> {
    AgentInfo::roster(
        ["a", "b", "c"].map(|id| (AgentId::new(id), "scripted".to_string(), "m".to_string())),
    )
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn type_text(app: &mut App, text: &str) {
    for ch in text.chars() {
        assert!(app.on_key(key(KeyCode::Char(ch))).is_empty());
    }
}

fn start_turn(app: &mut App) {
    app.on_event(&Event {
        seq: 1,
        at: Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: None,
        msg: EventMsg::TurnStarted {
            question: "q".into(),
            mode: Mode::Normal,
            agents: agents(),
            log_dir: None,
        },
    });
}

#[test]
fn enter_submits_the_question_with_the_chosen_mode() {
    let mut app = App::new(agents());
    app.on_key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
    assert_eq!(app.view.mode, Mode::Planning);
    type_text(&mut app, "Why?");
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::SHIFT));
    type_text(&mut app, "Really");
    let effects = app.on_key(key(KeyCode::Enter));
    assert_eq!(
        effects,
        [Effect::Send(Op::Submit {
            text: "Why?\nReally".into(),
            mode: Mode::Planning,
            context_paths: Vec::new(),
        })]
    );
    assert!(app.view.composer.is_empty());
    assert!(
        app.on_key(key(KeyCode::Enter)).is_empty(),
        "empty text is not sent"
    );
}

#[test]
fn text_sent_during_a_turn_is_human_input_and_the_mode_is_locked() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "focus on cost");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::InjectHumanInput {
            text: "focus on cost".into()
        })]
    );
    app.on_key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
    assert_eq!(app.view.mode, Mode::Normal);
    assert_eq!(
        app.view.notice.as_deref(),
        Some("the mode cannot change while a turn runs")
    );
}

#[test]
fn ctrl_c_clears_then_cancels_then_quits_after_confirmation() {
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let mut app = App::new(agents());
    start_turn(&mut app);
    type_text(&mut app, "draft");
    assert!(app.on_key(ctrl_c).is_empty());
    assert!(app.view.composer.is_empty());
    assert_eq!(app.on_key(ctrl_c), [Effect::Send(Op::Cancel)]);
    app.on_key(key(KeyCode::Up));
    assert_eq!(
        app.view.composer.text(),
        "draft",
        "cleared text is not lost"
    );

    let mut idle = App::new(agents());
    assert!(idle.on_key(ctrl_c).is_empty());
    assert_eq!(
        idle.view.notice.as_deref(),
        Some("press Ctrl+C again to quit")
    );
    assert_eq!(idle.on_key(ctrl_c), [Effect::Quit]);
    // Any other key disarms it.
    let mut idle = App::new(agents());
    idle.on_key(ctrl_c);
    idle.on_key(key(KeyCode::Char('x')));
    idle.on_key(key(KeyCode::Backspace));
    assert!(idle.on_key(ctrl_c).is_empty());
}

#[test]
fn up_and_down_walk_the_history() {
    let mut app = App::new(agents());
    for question in ["first", "second"] {
        type_text(&mut app, question);
        app.on_key(key(KeyCode::Enter));
    }
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.composer.text(), "second");
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.composer.text(), "first");
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.composer.text(), "first");
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.composer.text(), "second");
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.composer.text(), "");
}

#[test]
fn single_keys_act_once_the_composer_is_left() {
    let mut app = App::new(agents());
    app.on_key(key(KeyCode::Esc));
    assert!(!app.view.composer_focused);
    app.on_key(key(KeyCode::Tab));
    assert_eq!(app.view.focused, 1);
    app.on_key(key(KeyCode::Char('3')));
    assert_eq!(app.view.focused, 2);
    app.on_key(key(KeyCode::Right));
    assert_eq!(app.view.focused, 0);
    app.on_key(key(KeyCode::Left));
    assert_eq!(app.view.focused, 2);
    app.on_key(key(KeyCode::Char('9')));
    assert_eq!(app.view.focused, 2, "no ninth agent");
    app.on_key(key(KeyCode::Char('z')));
    assert!(app.view.maximized);
    app.on_key(key(KeyCode::PageUp));
    assert_eq!(app.view.card_scroll, 10);
    app.on_key(key(KeyCode::End));
    assert_eq!(app.view.card_scroll, 0);
    app.on_key(key(KeyCode::Char('i')));
    assert!(app.view.composer_focused);
    app.on_key(key(KeyCode::Esc));
    assert_eq!(app.on_key(key(KeyCode::Char('q'))), [Effect::Quit]);
}

#[test]
fn q_does_not_quit_during_a_turn_and_paste_keeps_newlines() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_key(key(KeyCode::Esc));
    assert!(app.on_key(key(KeyCode::Char('q'))).is_empty());
    app.on_paste("line one\r\nline two");
    assert!(app.view.composer_focused);
    assert_eq!(app.view.composer.text(), "line one\nline two");
}

#[test]
fn single_keys_and_slash_commands_open_modals_and_esc_closes_the_top() {
    let mut app = App::new(agents());
    type_text(&mut app, "/vote");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(
        app.view.modals.last().map(|modal| modal.kind),
        Some(ModalKind::Votes)
    );
    // Keys go to the modal: the composer is untouched, Esc closes it.
    app.on_key(key(KeyCode::PageDown));
    assert_eq!(app.view.modals[0].scroll, 10);
    app.on_key(key(KeyCode::Esc));
    assert!(app.view.modals.is_empty());
    assert!(app.view.composer_focused);
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
        assert_eq!(
            app.view.modals.last().map(|modal| modal.kind),
            Some(kind),
            "{ch}"
        );
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
    assert_eq!(
        app.view.modals.last().map(|modal| modal.kind),
        Some(ModalKind::Turns { selected: 0 })
    );
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
fn the_composer_edits_at_the_cursor_and_keeps_up_down_for_multi_line_text() {
    let mut app = App::new(agents());
    type_text(&mut app, "helo");
    app.on_key(key(KeyCode::Left));
    type_text(&mut app, "l");
    assert_eq!(app.view.composer.text(), "hello");
    app.on_key(key(KeyCode::End));
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT));
    type_text(&mut app, "world");
    assert_eq!(app.view.composer.text(), "hello\nworld");
    // With several lines, Up moves the cursor instead of recalling history.
    app.on_key(key(KeyCode::Up));
    type_text(&mut app, "!");
    assert_eq!(app.view.composer.text(), "hello!\nworld");
    app.on_key(key(KeyCode::Backspace));
    assert_eq!(app.view.composer.text(), "hello\nworld");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::Submit {
            text: "hello\nworld".into(),
            mode: Mode::Normal,
            context_paths: Vec::new(),
        })]
    );
}

#[test]
fn history_keeps_the_draft_and_down_never_erases_it() {
    let mut app = App::new(agents());
    type_text(&mut app, "old question");
    app.on_key(key(KeyCode::Enter));
    type_text(&mut app, "draft");
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.composer.text(), "draft");
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.composer.text(), "old question");
    app.on_key(key(KeyCode::Down));
    assert_eq!(app.view.composer.text(), "draft");
}

#[test]
fn pasted_carriage_returns_become_line_breaks() {
    let mut app = App::new(agents());
    app.on_paste("one\rtwo\r\nthree");
    assert_eq!(app.view.composer.text(), "one\ntwo\nthree");
}

#[test]
fn a_second_ctrl_c_while_cancelling_quits() {
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let mut app = App::new(agents());
    start_turn(&mut app);
    assert_eq!(app.on_key(ctrl_c), [Effect::Send(Op::Cancel)]);
    assert_eq!(app.on_key(ctrl_c), [Effect::Quit]);
}

#[test]
fn stray_coordination_events_after_a_turn_do_not_restart_it() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_event(&Event {
        seq: 2,
        at: Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: None,
        msg: EventMsg::TurnFinished {
            outcome: crate::protocol::TurnOutcome::Cancelled,
            winner: None,
            duration_ms: 10,
        },
    });
    let info = &agents()[0];
    app.on_event(&Event {
        seq: 3,
        at: Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: Some(info.id.clone()),
        msg: EventMsg::AnswerSubmitted {
            label: crate::protocol::AnswerLabel::answer(&info.anon_id, 1),
            anon_id: info.anon_id.clone(),
            content: "late".into(),
        },
    });
    assert!(!app.state.is_running());
}

#[test]
fn slash_and_path_popups_complete_with_tab_and_enter() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README.md"), "").unwrap();
    let mut app = App::new(agents()).with_cwd(dir.path().to_path_buf());
    type_text(&mut app, "/vo");
    let popup = app.view.popup.clone().unwrap();
    assert_eq!(popup.items, ["/vote"]);
    // Enter takes the command suggestion first, then runs it.
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert_eq!(app.view.composer.text(), "/vote ");
    assert!(app.view.popup.is_none());
    app.on_key(key(KeyCode::Enter));
    assert_eq!(
        app.view.modals.last().map(|modal| modal.kind),
        Some(ModalKind::Votes)
    );
    app.on_key(key(KeyCode::Esc));

    type_text(&mut app, "summarise @rea");
    assert_eq!(
        app.view.popup.as_ref().map(|popup| popup.items.clone()),
        Some(vec!["@README.md".to_string()])
    );
    app.on_key(key(KeyCode::Tab));
    assert_eq!(app.view.composer.text(), "summarise @README.md ");
    // Esc closes a popup without leaving the composer.
    type_text(&mut app, "@");
    assert!(app.view.popup.is_some());
    app.on_key(key(KeyCode::Esc));
    assert!(app.view.popup.is_none());
    assert!(app.view.composer_focused);
}

#[test]
fn a_paused_timeline_stays_put_and_counts_what_is_new() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    let info = agents()[0].clone();
    let warn = |seq: u64| Event {
        seq,
        at: Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: Some(info.id.clone()),
        msg: EventMsg::Warning {
            message: format!("note {seq}"),
        },
    };
    for seq in 2..6 {
        app.on_event(&warn(seq));
    }
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('p')));
    assert!(app.view.timeline_focused);
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.timeline_scroll, 1);
    app.on_event(&warn(6));
    app.on_event(&warn(7));
    assert_eq!(
        app.view.timeline_scroll, 3,
        "two new entries below the view"
    );
    app.on_key(key(KeyCode::PageUp));
    assert_eq!(
        app.view.timeline_scroll, 6,
        "no further than the first entry"
    );
    app.on_key(key(KeyCode::End));
    assert_eq!(app.view.timeline_scroll, 0);
    app.on_event(&warn(8));
    assert_eq!(app.view.timeline_scroll, 0, "following again");
}

#[test]
fn ctrl_t_switches_between_dark_and_light() {
    use crate::tui::theme::ThemeKind;

    let mut app = App::new(agents());
    assert_eq!(app.theme.kind, ThemeKind::Dark);
    app.on_key(KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL));
    assert_eq!(app.theme.kind, ThemeKind::Light);
    assert!(app.view.composer.is_empty(), "the key is not typed");
    app.on_key(KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL));
    assert_eq!(app.theme.kind, ThemeKind::Dark);
    app.theme = crate::tui::theme::Theme::new(ThemeKind::Plain);
    app.on_key(KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL));
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
    let agent = agents()[0].id.clone();
    let mut seq = 1;
    let mut stream = |app: &mut App, text: String| {
        seq += 1;
        app.on_event(&Event {
            seq,
            at: Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: Some(agent.clone()),
            msg: EventMsg::TextDelta { text },
        });
    };
    for line in 0..40 {
        stream(&mut app, format!("line {line}\n"));
    }
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let mut screen = |app: &App| {
        terminal
            .draw(|frame| render(&app.state, &app.view, &app.theme, frame))
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
    let event = |seq, msg| Event {
        seq,
        at: Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: None,
        msg,
    };
    app.on_event(&event(
        2,
        EventMsg::TurnFinished {
            outcome: crate::protocol::TurnOutcome::Cancelled,
            winner: None,
            duration_ms: 5,
        },
    ));
    type_text(&mut app, "/reset");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::ClearHistory)]
    );
    app.on_event(&event(3, EventMsg::HistoryCleared));
    assert_eq!(app.state.turn, 0, "back to the welcome view");
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
fn the_workspace_browser_lists_files_previews_them_and_switches_agent_and_directory() {
    use crate::tui::files::FilesSource;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(workspace.join("src")).unwrap();
    std::fs::write(
        workspace.join("src/lib.rs"),
        "pub fn answer() -> u32 { 42 }\n",
    )
    .unwrap();
    let mut app = App::new(agents());
    app.on_event(&Event {
        seq: 1,
        at: Timestamp::UNIX_EPOCH,
        turn: 0,
        agent: Some(agents()[0].id.clone()),
        msg: EventMsg::WorkspaceAssigned {
            workspace: workspace.clone(),
            temp: dir.path().join("temp"),
            snapshot: dir.path().join("snap"),
        },
    });
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('w')));
    assert_eq!(app.view.files.entries.len(), 2);
    app.on_key(key(KeyCode::Down));
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    terminal
        .draw(|frame| render(&app.state, &app.view, &app.theme, frame))
        .unwrap();
    let screen = format!("{:?}", terminal.backend());
    assert!(screen.contains("Files of a · workspace"), "{screen}");
    assert!(screen.contains("lib.rs"), "{screen}");
    assert!(screen.contains("pub fn answer() -> u32 { 42 }"), "{screen}");

    app.on_key(key(KeyCode::Tab));
    assert!(matches!(
        app.view.modals.last().map(|modal| modal.kind),
        Some(ModalKind::Files {
            source: FilesSource::Snapshot,
            selected: 0,
            ..
        })
    ));
    assert!(
        app.view
            .files
            .note
            .as_deref()
            .is_some_and(|note| note.ends_with("does not exist yet"))
    );
    app.on_key(key(KeyCode::Right));
    assert!(
        app.view
            .files
            .note
            .as_deref()
            .is_some_and(|note| note.starts_with("b has no workspace"))
    );
    app.on_key(key(KeyCode::Esc));
    assert!(app.view.modals.is_empty());
}

#[test]
fn attached_paths_travel_with_the_question_and_missing_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spec.md"), "x").unwrap();
    let mut app = App::new(agents()).with_cwd(dir.path().to_path_buf());
    type_text(&mut app, "Review @spec.md:w please");
    let effects = app.on_key(key(KeyCode::Enter));
    let [
        Effect::Send(Op::Submit {
            text,
            context_paths,
            ..
        }),
    ] = effects.as_slice()
    else {
        panic!("{effects:?}");
    };
    let spec = dir.path().canonicalize().unwrap().join("spec.md");
    assert_eq!(text, &format!("Review {} please", spec.display()));
    assert_eq!(context_paths.len(), 1);
    assert!(context_paths[0].writable && context_paths[0].path.ends_with("spec.md"));

    type_text(&mut app, "Fix @nothing.rs");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert_eq!(
        app.view.composer.text(),
        "Fix @nothing.rs",
        "the text is kept"
    );
    assert!(
        app.view
            .notice
            .as_deref()
            .is_some_and(|notice| notice.starts_with("not found: @nothing.rs"))
    );
}
