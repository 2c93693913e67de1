//! Snapshots of an agent's context window on screen: the card's gauge (shown from half
//! full, a warning from MassGen's 75 % threshold) and a compression's timeline entry and
//! card notice.

use super::tests::{FRANCE, both_sizes, draw, screen_text, view};
use crate::protocol::{CompressionReason, EventMsg};
use crate::tui::test_support::{apply_as, demo_until, first_answer};

#[tokio::test(start_paused = true)]
async fn the_card_shows_its_context_gauge_and_a_compression_in_the_timeline() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        0,
        [EventMsg::ContextUsage {
            tokens: 30_000,
            window: 128_000,
        }],
    );
    apply_as(
        &mut state,
        1,
        [EventMsg::ContextUsage {
            tokens: 79_360,
            window: 128_000,
        }],
    );
    apply_as(
        &mut state,
        2,
        [
            EventMsg::ContextUsage {
                tokens: 101_000,
                window: 128_000,
            },
            EventMsg::ContextCompressed {
                reason: CompressionReason::Threshold,
                tokens_before: 101_000,
                tokens_after: 26_500,
                window: 128_000,
                messages_removed: 14,
                summarized: false,
            },
        ],
    );
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(
        !screen.contains("ctx 23%"),
        "under half full, no gauge: {screen}"
    );
    assert!(screen.contains("ctx 62%"), "{screen}");
    assert!(
        !screen.contains("ctx 78%"),
        "after the compression the gauge follows the smaller context: {screen}"
    );
    assert!(
        screen.contains(
            "context compressed (past 75% of the window): 101.0k → 26.5k tokens of 128.0k"
        ),
        "{screen}"
    );
    both_sizes("context_gauge", &state, &view());

    apply_as(
        &mut state,
        2,
        [
            EventMsg::ContextUsage {
                tokens: 99_000,
                window: 128_000,
            },
            EventMsg::ContextCompressed {
                reason: CompressionReason::ProviderError,
                tokens_before: 99_000,
                tokens_after: 21_000,
                window: 128_000,
                messages_removed: 9,
                summarized: true,
            },
        ],
    );
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(
        screen.contains("context compressed (the provider refused it as too long)"),
        "{screen}"
    );
    assert!(
        screen.contains("tokens of 128.0k, model-summarized"),
        "{screen}"
    );
}
