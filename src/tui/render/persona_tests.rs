//! Generated personas (`persona_generator`) on screen: each card shows its agent's persona
//! in one line cut to the card's width, and `/inspect` shows every persona in full.

use super::tests::{both_sizes, draw, modal_view, view};
use crate::config;
use crate::tui::test_support::{first_answer, fold, fold_until, timed_turns};
use crate::tui::view::ModalKind;

fn example() -> &'static str {
    config::examples::all()
        .find(|example| example.path == "scripted/personas.yaml")
        .map(|example| example.text)
        .unwrap_or_else(|| unreachable!("the personas example is shipped"))
}

#[tokio::test(start_paused = true)]
async fn each_card_shows_its_agents_persona_in_one_line() {
    let events = timed_turns(example(), &["Plan a picnic"]).await;
    let state = fold_until(&events, first_answer);
    let personas: Vec<Option<String>> = state
        .agents
        .iter()
        .map(|card| {
            card.persona
                .as_ref()
                .and_then(|persona| persona.summary.clone())
        })
        .collect();
    assert_eq!(
        personas,
        [
            Some("pragmatic lens".to_string()),
            Some("meticulous lens".to_string()),
            Some("inventive lens".to_string())
        ]
    );
    let screen = format!("{:?}", draw(&state, &view(), 160, 48));
    assert!(screen.contains("🎭 meticulous lens"), "{screen}");
    both_sizes("persona_card", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn inspect_shows_every_persona_in_full() {
    let events = timed_turns(example(), &["Plan a picnic"]).await;
    let state = fold(&events);
    let persona = state.turns[0].agents[1].persona.clone().unwrap_or_default();
    assert!(
        persona.starts_with("Approach the whole task as the meticulous one"),
        "{persona}"
    );
    both_sizes(
        "persona_inspect",
        &state,
        &modal_view(ModalKind::Turns { selected: 0 }),
    );
}
