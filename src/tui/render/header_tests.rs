//! The header and the cards' token counts: estimated counts marked `~`, and the turn's
//! spend against its cost budget.

use super::tests::{FRANCE, draw, view};
use crate::protocol::{EventMsg, Usage};
use crate::tui::test_support::{apply_as, demo_turns, demo_until, first_answer, fold};
use crate::tui::view::View;

#[tokio::test(start_paused = true)]
async fn estimated_token_counts_are_marked_on_the_card_and_in_the_header() {
    let mut state = demo_until(FRANCE, first_answer).await;
    let before = format!("{:?}", draw(&state, &view(), 160, 48));
    assert!(!before.contains('~'), "{before}");
    apply_as(
        &mut state,
        0,
        [EventMsg::Usage {
            usage: Usage {
                input_tokens: 300,
                output_tokens: 40,
                estimated: true,
                ..Usage::default()
            },
            cost_usd: Some(0.0),
            timing: None,
        }],
    );
    let screen = format!("{:?}", draw(&state, &view(), 160, 48));
    assert_eq!(
        screen.matches(" tok").count(),
        before.matches(" tok").count()
    );
    assert!(
        screen.matches("~").count() >= 2,
        "the card and the session total: {screen}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_header_shows_the_turns_spend_against_its_budget() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    let view = View {
        budget_usd: Some(0.5),
        ..view()
    };
    let header = |view: &View| -> String {
        let backend = draw(&state, view, 160, 48);
        let buffer = backend.buffer();
        (0..buffer.area.width)
            .map(|x| buffer[(x, 0)].symbol().to_string())
            .collect()
    };
    let shown = header(&view);
    assert!(shown.contains("budget $0/$0.50"), "{shown}");
    assert!(
        !header(&View::default()).contains("budget"),
        "no budget, no mention"
    );
}
