//! The agents view drawn at 80×24, 160×48 and 40×12: the list (quickstart, and `/agents`
//! for the next turn), one agent with the model list open, and the save path.

use insta::assert_snapshot;

use super::ModalKind;
use crate::backend::catalog::demo_drafts;
use crate::config::BackendKind;
use crate::tui::agents_form::{AgentsForm, Stage};
use crate::tui::render::tests::{FRANCE, both_sizes, draw, modal_view, screen_text};
use crate::tui::test_support::{demo_until, run_started};
use crate::tui::view::View;

fn with_form(form: AgentsForm) -> View {
    let mut view = modal_view(ModalKind::Agents);
    view.modals.agents = Some(form);
    view
}

fn quickstart() -> AgentsForm {
    let mut form = AgentsForm::new(demo_drafts());
    form.quickstart = true;
    form.intro = Some("No provider API key found: three offline scripted agents.".into());
    form.selected = 1;
    form
}

fn choosing_a_model() -> AgentsForm {
    let mut drafts = demo_drafts();
    drafts[0].kind = BackendKind::Openai;
    drafts[0].model = "gpt-5".into();
    let mut form = AgentsForm::new(drafts);
    form.listed(
        BackendKind::Openai,
        Ok([
            "gpt-4o",
            "gpt-4o-mini",
            "gpt-5",
            "gpt-5-mini",
            "gpt-5-nano",
            "o3",
        ]
        .map(String::from)
        .to_vec()),
    );
    form.stage = Stage::ChooseModel {
        typed: "gpt-5".into(),
        selected: 1,
    };
    form
}

#[tokio::test(start_paused = true)]
async fn the_agents_view_at_three_sizes() {
    let state = demo_until(FRANCE, run_started).await;
    let list = with_form(quickstart());
    both_sizes("modal_agents_list", &state, &list);
    assert_snapshot!("modal_agents_list_40x12", draw(&state, &list, 40, 12));
    let next_turn = with_form(AgentsForm::new(demo_drafts()));
    both_sizes("modal_agents_next_turn", &state, &next_turn);
    assert_snapshot!(
        "modal_agents_next_turn_40x12",
        draw(&state, &next_turn, 40, 12)
    );
    let model = with_form(choosing_a_model());
    both_sizes("modal_agents_model", &state, &model);
    assert_snapshot!("modal_agents_model_40x12", draw(&state, &model, 40, 12));
    let mut saving = AgentsForm::new(demo_drafts());
    saving.stage = Stage::SavePath {
        path: ".massgen/agents.yaml".into(),
    };
    let save = with_form(saving);
    both_sizes("modal_agents_save", &state, &save);
    assert_snapshot!("modal_agents_save_40x12", draw(&state, &save, 40, 12));
}

#[tokio::test(start_paused = true)]
async fn what_the_agents_view_shows() {
    let state = demo_until(FRANCE, run_started).await;
    let screen = screen_text(&draw(&state, &with_form(quickstart()), 160, 48));
    for needed in [
        "Quickstart · 3 agents",
        "scholar",
        "scripted-deep",
        "s save and start",
    ] {
        assert!(screen.contains(needed), "{needed} missing:\n{screen}");
    }
    let screen = screen_text(&draw(
        &state,
        &with_form(AgentsForm::new(demo_drafts())),
        80,
        24,
    ));
    for needed in ["Agents for the next turn · 3", "▸ scout", "u use them"] {
        assert!(screen.contains(needed), "{needed} missing:\n{screen}");
    }
    assert!(!screen.contains("Quickstart"), "{screen}");
    let screen = screen_text(&draw(&state, &with_form(choosing_a_model()), 160, 48));
    for needed in [
        "Agent 1 of 3: scout",
        "gpt-5▏",
        "● gpt-5-mini",
        "○ gpt-5-nano",
    ] {
        assert!(screen.contains(needed), "{needed} missing:\n{screen}");
    }
    assert!(!screen.contains("gpt-4o"), "filtered out");
}
