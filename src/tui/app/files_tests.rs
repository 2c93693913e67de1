//! The workspace browser (`w`): an agent's files listed and previewed, ← → the agent,
//! Tab the directory, Esc closes it; `/context` lists the agents' memory files.

use crossterm::event::KeyCode;

use super::App;
use super::tests::{agents, key, top_modal};
use crate::protocol::{Event, EventMsg};
use crate::tui::frame::render;
use crate::tui::test_support::event;
use crate::tui::view::ModalKind;

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
        turn: 0,
        ..event(
            1,
            Some("a"),
            EventMsg::WorkspaceAssigned {
                workspace: workspace.clone(),
                temp: dir.path().join("temp"),
                snapshot: dir.path().join("snap"),
            },
        )
    });
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('w')));
    assert_eq!(app.view.modals.files.entries.len(), 2);
    app.on_key(key(KeyCode::Down));
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    terminal
        .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame))
        .unwrap();
    let screen = format!("{:?}", terminal.backend());
    assert!(screen.contains("Files of a · workspace"), "{screen}");
    assert!(screen.contains("lib.rs"), "{screen}");
    assert!(screen.contains("pub fn answer() -> u32 { 42 }"), "{screen}");

    app.on_key(key(KeyCode::Tab));
    assert!(matches!(
        top_modal(&app),
        Some(ModalKind::Files {
            source: FilesSource::Snapshot,
            selected: 0,
            ..
        })
    ));
    assert!(
        app.view
            .modals
            .files
            .note
            .as_deref()
            .is_some_and(|note| note.ends_with("does not exist yet"))
    );
    app.on_key(key(KeyCode::Right));
    assert!(
        app.view
            .modals
            .files
            .note
            .as_deref()
            .is_some_and(|note| note.starts_with("b has no workspace"))
    );
    app.on_key(key(KeyCode::Esc));
    assert!(app.view.modals.is_empty());
}

#[test]
fn context_lists_each_agents_memory_files() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(workspace.join("memory/short_term")).unwrap();
    std::fs::create_dir_all(workspace.join("memory/long_term")).unwrap();
    std::fs::write(workspace.join("memory/short_term/user_prefs.md"), "tabs").unwrap();
    std::fs::write(workspace.join("memory/long_term/analysis.md"), "deep").unwrap();
    let mut app = App::new(agents());
    app.on_event(&Event {
        turn: 0,
        ..event(
            1,
            Some("a"),
            EventMsg::WorkspaceAssigned {
                workspace: workspace.clone(),
                temp: dir.path().join("temp"),
                snapshot: dir.path().join("snap"),
            },
        )
    });
    app.command("context");
    assert_eq!(top_modal(&app), Some(ModalKind::Context));
    let screen = crate::tui::render::tests::screen_text(&crate::tui::render::tests::draw(
        &app.state, &app.view, 160, 48,
    ));
    assert!(
        screen.contains("memory     memory/short_term/user_prefs.md"),
        "{screen}"
    );
    assert!(screen.contains("memory/long_term/analysis.md"), "{screen}");
}
