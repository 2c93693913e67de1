//! The agents view's keys: `/agents` opens it between turns only (`/single` and `A` keep
//! cycling single-agent mode), agents are added, removed and edited (type, model from the
//! fetched list or typed, system message), saved without overwriting unasked, and applied
//! as `Op::ReplaceAgents`; `--quickstart` saves, then starts.

use crossterm::event::KeyCode;

use super::tests::{agents, key, start_turn, top_modal, type_text};
use super::*;
use crate::config::{AgentDraft, BackendKind};
use crate::tui::agents_form::Stage;
use crate::tui::agents_io::SaveOutcome;
use crate::tui::test_support::event;
use crate::tui::view::ModalKind;

fn command(app: &mut App, text: &str) -> Vec<Effect> {
    app.view.input.focused = true;
    type_text(app, text);
    app.on_key(key(KeyCode::Enter))
}

fn press(app: &mut App, codes: &[KeyCode]) -> Vec<Effect> {
    codes
        .iter()
        .flat_map(|code| app.on_key(key(*code)))
        .collect()
}

fn drafts(app: &App) -> Vec<(String, BackendKind, String)> {
    let form = app
        .view
        .modals
        .agents
        .as_ref()
        .expect("the agents view is open");
    form.drafts
        .iter()
        .map(|d| (d.id.clone(), d.kind, d.model.clone()))
        .collect()
}

fn with_drafts() -> App {
    let drafts = ["a", "b"]
        .map(|id| AgentDraft::new(id, BackendKind::Scripted, "m"))
        .to_vec();
    App::new(agents()).with_agent_drafts(drafts)
}

#[test]
fn slash_agents_opens_the_view_and_slash_single_cycles_the_agent_mode() {
    let mut app = with_drafts();
    assert!(command(&mut app, "/agents").is_empty());
    assert_eq!(top_modal(&app), Some(ModalKind::Agents));
    assert_eq!(drafts(&app).len(), 2);
    assert_eq!(app.next.choices.single, None);
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(top_modal(&app), None);
    command(&mut app, "/single");
    assert_eq!(
        app.next.choices.single,
        Some(crate::protocol::AgentId::new("a"))
    );
    assert_eq!(top_modal(&app), None);
}

#[test]
fn the_view_is_refused_while_a_turn_runs() {
    let mut app = with_drafts();
    start_turn(&mut app);
    command(&mut app, "/agents");
    assert_eq!(top_modal(&app), None);
    assert!(app.view.notice.as_deref().unwrap().contains("once it ends"));
}

#[test]
fn agents_are_added_removed_and_the_last_one_kept() {
    let mut app = with_drafts();
    command(&mut app, "/agents");
    press(&mut app, &[KeyCode::Char('a')]);
    assert_eq!(drafts(&app)[2].0, "agent");
    press(&mut app, &[KeyCode::Up, KeyCode::Char('d')]);
    let ids: Vec<String> = drafts(&app).into_iter().map(|d| d.0).collect();
    assert_eq!(ids, ["a", "agent"]);
    press(&mut app, &[KeyCode::Char('d'), KeyCode::Char('d')]);
    assert_eq!(drafts(&app).len(), 1, "a run needs one agent");
    let note = app
        .view
        .modals
        .agents
        .as_ref()
        .unwrap()
        .note
        .clone()
        .unwrap();
    assert!(note.contains("needs an agent"), "{note}");
}

#[test]
fn type_then_model_from_the_fetched_list_then_system_message() {
    let mut app = with_drafts();
    command(&mut app, "/agents");
    // Enter opens the agent on its type row; Enter again opens the type list.
    let effects = press(&mut app, &[KeyCode::Enter, KeyCode::Enter]);
    assert!(
        effects.is_empty(),
        "scripted has no list to fetch: {effects:?}"
    );
    assert!(matches!(app.agents_stage(), Some(Stage::ChooseType { .. })));
    let fetch = press(&mut app, &[KeyCode::Up; 30]);
    assert!(fetch.is_empty());
    let fetch = press(&mut app, &[KeyCode::Enter]);
    assert_eq!(
        fetch,
        [Effect::FetchModels {
            kind: BackendKind::Openai,
            base_url: None
        }]
    );
    assert_eq!(drafts(&app)[0].2, "gpt-5-mini", "the type's default model");
    app.models_listed(
        BackendKind::Openai,
        Ok(vec!["gpt-4o".into(), "gpt-5".into()]),
    );
    // On the model row: the list, filtered by typing.
    press(&mut app, &[KeyCode::Enter]);
    type_text(&mut app, "5");
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(drafts(&app)[0].2, "gpt-5");
    // On the system message row.
    press(&mut app, &[KeyCode::Enter]);
    type_text(&mut app, "Be brief.");
    press(&mut app, &[KeyCode::Enter, KeyCode::Esc]);
    let form = app.view.modals.agents.as_ref().unwrap();
    assert_eq!(form.drafts[0].system_message.as_deref(), Some("Be brief."));
    assert!(form.changed);
}

#[test]
fn a_model_not_listed_or_without_a_list_is_typed() {
    let mut app = with_drafts();
    command(&mut app, "/agents");
    press(&mut app, &[KeyCode::Enter, KeyCode::Enter]);
    // 17 rows up from scripted (the last of 19) is claude, the second.
    for _ in 0..17 {
        press(&mut app, &[KeyCode::Up]);
    }
    let fetch = press(&mut app, &[KeyCode::Enter]);
    assert!(matches!(
        fetch.as_slice(),
        [Effect::FetchModels {
            kind: BackendKind::Claude,
            ..
        }]
    ));
    app.models_listed(BackendKind::Claude, Err("no key".into()));
    press(&mut app, &[KeyCode::Enter]);
    type_text(&mut app, "claude-opus-4-1");
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(
        drafts(&app)[0],
        ("a".into(), BackendKind::Claude, "claude-opus-4-1".into())
    );
}

#[test]
fn saving_asks_before_replacing_a_file() {
    let mut app = with_drafts();
    command(&mut app, "/agents");
    let effects = press(&mut app, &[KeyCode::Char('s'), KeyCode::Enter]);
    let [
        Effect::SaveAgents {
            path,
            yaml,
            overwrite: false,
        },
    ] = effects.as_slice()
    else {
        panic!("{effects:?}")
    };
    assert_eq!(path, &PathBuf::from(".massgen/agents.yaml"));
    assert!(yaml.contains("  - id: a\n") && !yaml.contains("api_key"));
    assert!(
        app.agents_saved(".massgen/agents.yaml", SaveOutcome::Exists)
            .is_empty()
    );
    assert!(matches!(app.agents_stage(), Some(Stage::Overwrite { .. })));
    let effects = press(&mut app, &[KeyCode::Char('y')]);
    assert!(matches!(
        effects.as_slice(),
        [Effect::SaveAgents {
            overwrite: true,
            ..
        }]
    ));
    app.agents_saved(".massgen/agents.yaml", SaveOutcome::Saved);
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::Agents),
        "saving is not applying"
    );
}

#[test]
fn applying_sends_the_agents_and_the_runtime_confirms_them() {
    let mut app = with_drafts();
    command(&mut app, "/agents");
    press(&mut app, &[KeyCode::Char('a')]);
    let effects = press(&mut app, &[KeyCode::Char('u')]);
    let [Effect::Send(Op::ReplaceAgents { yaml })] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(yaml.contains("  - id: agent\n"));
    assert_eq!(top_modal(&app), None);
    let roster = AgentInfo::roster(["a", "b", "agent"].map(|id| {
        (
            crate::protocol::AgentId::new(id),
            "scripted".to_string(),
            "m".to_string(),
        )
    }));
    assert_eq!(app.view.notice.as_deref(), Some("applying the agents…"));
    app.on_event(&event(5, None, EventMsg::AgentsReplaced { agents: roster }));
    assert_eq!(app.state.agents.len(), 3);
    assert_eq!(
        app.view.notice.as_deref(),
        Some("the next turn runs with a, b, agent")
    );
    command(&mut app, "/agents");
    assert_eq!(
        drafts(&app).len(),
        3,
        "the view starts from the applied agents"
    );
}

#[test]
fn a_refusal_by_the_runtime_is_shown_and_the_agents_stay() {
    let mut app = with_drafts();
    command(&mut app, "/agents");
    press(&mut app, &[KeyCode::Char('a'), KeyCode::Char('u')]);
    let refused = EventMsg::Warning {
        message: "the agents were not changed: no key".into(),
    };
    app.on_event(&event(5, None, refused));
    assert_eq!(
        app.view.notice.as_deref(),
        Some("the agents were not changed: no key")
    );
    command(&mut app, "/agents");
    assert_eq!(
        drafts(&app).len(),
        2,
        "the view starts from the agents that run"
    );
}

#[test]
fn esc_with_changes_asks_before_dropping_them() {
    let mut app = with_drafts();
    command(&mut app, "/agents");
    press(&mut app, &[KeyCode::Char('a'), KeyCode::Esc]);
    assert_eq!(app.agents_stage(), Some(&Stage::Discard));
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(top_modal(&app), None);
    command(&mut app, "/agents");
    assert_eq!(drafts(&app).len(), 2, "the added agent was dropped");
}

#[test]
fn quickstart_saves_then_starts_with_the_agents() {
    let mut app = App::new(Vec::new());
    let drafts = crate::backend::catalog::demo_drafts();
    app.open_quickstart(drafts, "no API key found: offline agents".into());
    assert_eq!(top_modal(&app), Some(ModalKind::Agents));
    let effects = press(&mut app, &[KeyCode::Char('s'), KeyCode::Enter]);
    assert!(matches!(
        effects.as_slice(),
        [Effect::SaveAgents { path, .. }] if path == &PathBuf::from(".massgen/config.yaml")
    ));
    let effects = app.agents_saved(".massgen/config.yaml", SaveOutcome::Saved);
    assert!(matches!(
        effects.as_slice(),
        [Effect::Send(Op::ReplaceAgents { .. })]
    ));
    assert_eq!(top_modal(&app), None);
    assert!(
        app.view
            .notice
            .as_deref()
            .unwrap()
            .starts_with("saved .massgen/config.yaml")
    );
    let opened = command(&mut app, "/config");
    assert_eq!(opened, [Effect::OpenFile(".massgen/config.yaml".into())]);
}

#[test]
fn pasted_text_goes_into_the_open_field() {
    let mut app = with_drafts();
    command(&mut app, "/agents");
    press(
        &mut app,
        &[KeyCode::Enter, KeyCode::Down, KeyCode::Down, KeyCode::Enter],
    );
    app.on_paste("Line one\nline two");
    press(&mut app, &[KeyCode::Enter]);
    let form = app.view.modals.agents.as_ref().unwrap();
    assert_eq!(
        form.drafts[0].system_message.as_deref(),
        Some("Line one line two")
    );
    assert!(app.view.input.composer.is_empty());
}

#[test]
fn a_new_base_url_is_kept_and_the_model_list_fetched_from_it() {
    let mut drafts = vec![AgentDraft::new("local", BackendKind::Vllm, "m")];
    drafts[0].workspace = false;
    let mut app = App::new(agents()).with_agent_drafts(drafts);
    command(&mut app, "/agents");
    let first = press(&mut app, &[KeyCode::Enter]);
    assert_eq!(
        first,
        [Effect::FetchModels {
            kind: BackendKind::Vllm,
            base_url: None
        }]
    );
    app.models_listed(BackendKind::Vllm, Err("refused".into()));
    press(
        &mut app,
        &[KeyCode::Down, KeyCode::Down, KeyCode::Down, KeyCode::Enter],
    );
    type_text(&mut app, "http://gpu-box:8000/v1/");
    press(&mut app, &[KeyCode::Enter, KeyCode::Up, KeyCode::Up]);
    let again = press(&mut app, &[KeyCode::Enter]);
    assert_eq!(
        again,
        [Effect::FetchModels {
            kind: BackendKind::Vllm,
            base_url: Some("http://gpu-box:8000/v1".into())
        }]
    );
    let form = app.view.modals.agents.as_ref().unwrap();
    assert!(form.yaml().contains("base_url: \"http://gpu-box:8000/v1\""));
}
