//! The views and keys from behaviour §3: Ctrl+O's override (refused before voting is done,
//! the choice sent once it is, the override folded in), Ctrl+P's current directory,
//! `/metrics` `/m` `M`, `/history` `h`, `/context` and `/export`.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tests::{agents, key, start_turn, top_modal, type_text};
use super::views::OVERRIDE_NOT_YET;
use super::{App, Effect, commands};
use crate::protocol::{ContextPath, Event, EventMsg, Op};
use crate::tui::render::tests::{FRANCE, draw, screen_text};
use crate::tui::test_support::demo_turns;
use crate::tui::view::{CwdMode, ModalKind};

fn ctrl(ch: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(ch), KeyModifiers::CONTROL)
}

/// An app that saw `events`.
fn app_after(events: &[Event]) -> App {
    let mut app = App::new(Vec::new()).with_cwd(PathBuf::from("/work/proj"));
    for event in events {
        app.on_event(event);
    }
    app
}

fn label_of(effects: &[Effect]) -> String {
    match effects {
        [Effect::Send(Op::OverrideFinal { label })] => label.to_string(),
        other => panic!("not an override: {other:?}"),
    }
}

#[test]
fn ctrl_o_before_voting_is_done_says_when_it_will_work() {
    let mut app = App::new(agents());
    assert!(app.on_key(ctrl('o')).is_empty());
    assert_eq!(app.view.notice.as_deref(), Some(OVERRIDE_NOT_YET));
    start_turn(&mut app);
    assert!(app.on_key(ctrl('o')).is_empty());
    assert_eq!(app.view.notice.as_deref(), Some(OVERRIDE_NOT_YET));
    assert_eq!(top_modal(&app), None);
}

#[tokio::test(start_paused = true)]
async fn ctrl_o_while_presenting_opens_the_override_on_the_winning_answer() {
    let events = demo_turns(&[FRANCE]).await;
    let presenting = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::FinalPresentationStarted { .. }))
        .unwrap();
    let mut app = app_after(&events[..=presenting]);
    assert!(app.view.input.focused, "Ctrl+O works from the composer");
    app.on_key(ctrl('o'));
    let Some(ModalKind::Override { selected }) = top_modal(&app) else {
        panic!("no override view: {:?}", app.view.notice);
    };
    let winner = app.state.turn.winner.clone().unwrap();
    let chosen = crate::tui::modal::override_choice(&app.state, selected).unwrap();
    let author = app.state.agents.iter().find(|card| {
        card.items.iter().any(|item| {
            matches!(item, crate::tui::state::CardItem::Answer { label, .. } if *label == chosen)
        })
    });
    assert_eq!(author.unwrap().info.id, winner);
    // ← picks another answer; Enter sends it and closes the view.
    app.on_key(key(KeyCode::Left));
    let effects = app.on_key(key(KeyCode::Enter));
    let label = label_of(&effects);
    assert_ne!(label, chosen.to_string());
    assert_eq!(top_modal(&app), None);
    assert!(app.view.notice.as_deref().unwrap().contains(&label));
}

#[tokio::test(start_paused = true)]
async fn an_override_after_the_turn_is_the_final_answer_everywhere() {
    let events = demo_turns(&[FRANCE]).await;
    let mut app = app_after(&events);
    app.on_key(ctrl('o'));
    assert!(matches!(top_modal(&app), Some(ModalKind::Override { .. })));
    app.on_key(key(KeyCode::Home));
    // The first answer of the session (config order): scout's.
    for _ in 0..10 {
        app.on_key(key(KeyCode::Left));
    }
    let label = label_of(&app.on_key(key(KeyCode::Enter)));
    let (_, content) = app.state.agents[0]
        .items
        .iter()
        .find_map(|item| match item {
            crate::tui::state::CardItem::Answer { label: l, content } if l.to_string() == label => {
                Some((l.clone(), content.clone()))
            }
            _ => None,
        })
        .unwrap();
    let scout = app.state.agents[0].info.id.clone();
    app.on_event(&Event {
        seq: 9_999,
        at: jiff::Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: Some(scout.clone()),
        msg: EventMsg::FinalOverridden {
            label: serde_json::from_value(serde_json::json!(label)).unwrap(),
            agent: scout.clone(),
            content: content.clone(),
        },
    });
    let record = app.state.turns.last().unwrap();
    assert_eq!(record.winner.as_ref(), Some(&scout));
    assert_eq!(record.final_answer.as_ref().unwrap().content, content);
    assert!(app.state.agents[0].is_winner);
    assert_eq!(app.state.turn.winner.as_ref(), Some(&scout));
    let mut view = app.view.clone();
    let final_view = screen_text(&draw(&app.state, &view, 160, 48));
    assert!(
        final_view.contains("Final answer · scout"),
        "the final view shows the chosen answer: {final_view}"
    );
    view.final_view.shown = false;
    view.timeline.focused = true;
    let screen = screen_text(&draw(&app.state, &view, 160, 48));
    assert!(
        screen.contains(&format!("override: final answer is {label} (scout)")),
        "{screen}"
    );
    // `/history` shows the chosen answer as the turn's final answer.
    app.view.input.focused = true;
    type_text(&mut app, "/history");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), Some(ModalKind::History));
    let screen = screen_text(&draw(&app.state, &app.view, 160, 48));
    assert!(screen.contains(&format!("scout · {label}")), "{screen}");
}

#[test]
fn ctrl_p_attaches_the_current_directory_read_then_write_then_not() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().to_path_buf();
    let mut app = App::new(agents())
        .with_cwd(cwd.clone())
        .allowing_outside_project(true);
    let ask = |app: &mut App| {
        type_text(app, "Why?");
        match app.on_key(key(KeyCode::Enter)).as_slice() {
            [Effect::Send(Op::Submit { context_paths, .. })] => context_paths.clone(),
            other => panic!("not a question: {other:?}"),
        }
    };
    assert!(ask(&mut app).is_empty());
    app.on_key(ctrl('p'));
    assert_eq!(app.view.context.cwd_mode, CwdMode::Read);
    assert!(app.view.notice.as_deref().unwrap().contains("(read)"));
    let read = ContextPath {
        path: cwd.clone(),
        writable: false,
    };
    assert_eq!(ask(&mut app), std::slice::from_ref(&read));
    assert_eq!(app.view.context.attached, [read]);
    app.on_key(ctrl('p'));
    assert_eq!(
        ask(&mut app),
        [ContextPath {
            path: cwd.clone(),
            writable: true
        }]
    );
    let screen = screen_text(&draw(&app.state, &app.view, 160, 48));
    assert!(
        screen.contains("📁 ") && screen.contains("[read+write]"),
        "{screen}"
    );
    app.on_key(ctrl('p'));
    assert!(ask(&mut app).is_empty());
}

#[test]
fn ctrl_p_keeps_the_refusal_rules_of_at_paths() {
    let mut app = App::new(agents()).with_cwd(PathBuf::from("/"));
    app.on_key(ctrl('p'));
    type_text(&mut app, "Why?");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    let notice = app.view.notice.clone().unwrap();
    assert!(notice.starts_with("@/ "), "{notice}");
    assert_eq!(app.view.input.composer.text(), "Why?");
}

#[test]
fn metrics_history_and_context_open_by_key_and_command() {
    for name in ["context", "metrics", "m", "history", "export"] {
        assert!(commands::COMMAND_NAMES.contains(&name), "{name}");
    }
    for command in ["/context", "/metrics", "/history", "/export"] {
        assert!(
            crate::tui::complete::COMMANDS.contains(&command),
            "{command}"
        );
    }
    let mut app = App::new(agents());
    for (command, kind) in [
        ("/metrics", ModalKind::Metrics),
        ("/m", ModalKind::Metrics),
        ("/history", ModalKind::History),
        ("/context", ModalKind::Context),
    ] {
        type_text(&mut app, command);
        app.on_key(key(KeyCode::Enter));
        assert_eq!(top_modal(&app), Some(kind), "{command}");
        app.on_key(key(KeyCode::Esc));
        assert!(app.view.input.focused);
    }
    app.on_key(key(KeyCode::Esc));
    for (ch, kind) in [('M', ModalKind::Metrics), ('h', ModalKind::History)] {
        app.on_key(key(KeyCode::Char(ch)));
        assert_eq!(top_modal(&app), Some(kind));
        app.on_key(key(KeyCode::Esc));
    }
    // `m` stays the MCP servers.
    app.on_key(key(KeyCode::Char('m')));
    assert_eq!(top_modal(&app), Some(ModalKind::Servers));
}

#[tokio::test(start_paused = true)]
async fn export_writes_every_part_of_the_turn_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let events = demo_turns(&[FRANCE]).await;
    let mut app = App::new(Vec::new()).with_cwd(dir.path().to_path_buf());
    for event in &events {
        app.on_event(event);
    }
    type_text(&mut app, "/export");
    let effects = app.on_key(key(KeyCode::Enter));
    let [
        Effect::Export {
            turn,
            path,
            markdown,
        },
    ] = effects.as_slice()
    else {
        panic!("no export: {effects:?}");
    };
    assert_eq!(*turn, 1);
    assert_eq!(*path, dir.path().join(".massgen/exports/turn_1.md"));
    let written = crate::tui::export::write_new(path, markdown).unwrap();
    assert_eq!(written, *path);
    let again = crate::tui::export::write_new(path, "other").unwrap();
    assert_eq!(again, dir.path().join(".massgen/exports/turn_1_2.md"));
    let text = std::fs::read_to_string(&written).unwrap();
    assert_eq!(text, *markdown);
    let record = app.state.turns.last().unwrap();
    assert!(text.contains(&format!("## Question\n\n{FRANCE}")));
    for part in &record.agents {
        for (label, content) in &part.answers {
            assert!(text.contains(&format!("### {label} — {}", part.id)));
            for line in content.lines() {
                // Its headings nest below the answer's; `export::tests` checks them.
                let line = line.trim_start_matches('#');
                assert!(text.contains(line), "{line}");
            }
        }
        for vote in &part.votes {
            assert!(text.contains(&format!("- **{}** {}", part.id, vote.text())));
        }
        assert!(text.contains(&format!(
            "| {} | {} |",
            part.id, part.spend.usage.input_tokens
        )));
    }
    assert!(record.agents.iter().any(|part| !part.votes.is_empty()));
    let final_answer = record.final_answer.as_ref().unwrap();
    assert!(text.contains(&format!(
        "## Final answer\n\n_{} by {}_",
        final_answer.label, final_answer.agent
    )));
    for line in final_answer.content.lines() {
        let line = line.trim_start_matches('#');
        assert!(text.contains(line), "{line}");
    }
    assert!(text.contains(&format!(
        "| **total** | {} |",
        record.spend.usage.input_tokens
    )));
    assert!(text.contains("| Agent | Input | Output | Reasoning | Cost |"));
    assert_eq!(
        crate::tui::export::notice(1, &Ok(written.clone()), path),
        format!("turn 1 exported to {}", written.display())
    );
}

#[tokio::test(start_paused = true)]
async fn export_takes_a_turn_number_and_a_path() {
    let events = demo_turns(&[FRANCE, "Second?"]).await;
    let mut app = app_after(&events);
    type_text(&mut app, "/export 1 notes/first.md");
    let effects = app.on_key(key(KeyCode::Enter));
    let [
        Effect::Export {
            turn,
            path,
            markdown,
        },
    ] = effects.as_slice()
    else {
        panic!("no export: {effects:?}");
    };
    assert_eq!(
        (*turn, path.clone()),
        (1, PathBuf::from("/work/proj/notes/first.md"))
    );
    assert!(markdown.starts_with("# Turn 1\n"));
    type_text(&mut app, "/export 7");
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    assert_eq!(
        app.view.notice.as_deref(),
        Some("/export 7: no such finished turn")
    );
    let mut fresh = App::new(agents());
    type_text(&mut fresh, "/export");
    assert!(fresh.on_key(key(KeyCode::Enter)).is_empty());
    assert_eq!(
        fresh.view.notice.as_deref(),
        Some("/export: no finished turn yet")
    );
}

/// A continued session shows a turn overridden after it ended with the chosen answer: the
/// override is kept when the turn's log is compacted and folded into its record.
#[tokio::test(start_paused = true)]
async fn a_resumed_turn_keeps_its_override() {
    use crate::tui::test_support::{fold, resume, resumed};

    let mut events = demo_turns(&[FRANCE]).await;
    let scout = crate::protocol::AgentId::new("scout");
    let (label, content) = fold(&events).agents[0]
        .items
        .iter()
        .find_map(|item| match item {
            crate::tui::state::CardItem::Answer { label, content } => {
                Some((label.clone(), content.clone()))
            }
            _ => None,
        })
        .unwrap();
    let last = events.last().unwrap().clone();
    events.push(Event {
        seq: last.seq + 1,
        agent: Some(scout.clone()),
        msg: EventMsg::FinalOverridden {
            label: label.clone(),
            agent: scout.clone(),
            content: content.clone(),
        },
        ..last
    });
    let mut state = crate::tui::state::UiState::new(Vec::new());
    resume(
        &mut state,
        vec![resumed(1, crate::protocol::TurnOutcome::Completed, &events)],
    );
    let record = &state.turns[0];
    assert_eq!(record.winner.as_ref(), Some(&scout));
    let chosen = record.final_answer.as_ref().unwrap();
    assert_eq!((&chosen.label, &chosen.content), (&label, &content));
}

#[test]
fn c_and_slash_map_open_the_consensus_map_and_esc_closes_it() {
    for name in ["map", "consensus"] {
        assert!(commands::COMMAND_NAMES.contains(&name), "{name}");
    }
    let mut app = App::new(agents());
    type_text(&mut app, "/map");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), Some(ModalKind::ConsensusMap));
    app.on_key(key(KeyCode::Esc));
    assert_eq!(top_modal(&app), None);
    app.on_key(key(KeyCode::Esc));
    app.on_key(KeyEvent::new(KeyCode::Char('C'), KeyModifiers::SHIFT));
    assert_eq!(top_modal(&app), Some(ModalKind::ConsensusMap));
    app.on_key(key(KeyCode::Esc));
    assert_eq!(top_modal(&app), None);
    // `c` stays the costs.
    app.on_key(key(KeyCode::Char('c')));
    assert_eq!(top_modal(&app), Some(ModalKind::Costs));
}
