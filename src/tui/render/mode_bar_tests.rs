//! The mode bar: its tiers measured as drawn, the running turn's mode, the notice's place
//! and the strategy toggle.

use super::*;
use crate::protocol::{AgentId, TurnOptions};
use crate::tui::choices::Choices;
use crate::tui::test_support::event;

/// Draws the bar alone and returns its line.
fn drawn(state: &UiState, view: &View, next: &NextQuestion, width: u16) -> (BarLayout, String) {
    let layout = layout(state, view, next, width, 24);
    let area = Rect::new(0, 0, width, layout.height);
    let mut buf = Buffer::empty(area);
    mode_bar(
        state,
        view,
        next,
        &layout,
        &Theme::default(),
        area,
        &mut buf,
    );
    let last = (0..width)
        .map(|x| buf[(x, layout.height - 1)].symbol().to_string())
        .collect::<String>();
    (layout, last)
}

#[test]
fn the_measured_width_is_the_drawn_width_at_every_tier() {
    let state = UiState::default();
    for mode in [Mode::Normal, Mode::Planning, Mode::Execute] {
        let view = View::default();
        let next = NextQuestion {
            mode,
            choices: Choices {
                single: Some(AgentId::new("scholar")),
                plan: Some("plan_20261124_174012_123456".into()),
                ..Choices::default()
            },
        };
        let bar = BarContent::of(&state, &view, &next);
        for tier in TIERS {
            let mut spans = Vec::new();
            bar.pieces(tier, &mut |text, _| spans.push(text.to_string()));
            let drawn: usize = spans.iter().map(|span| display_width(span)).sum();
            assert_eq!(bar.width(tier), drawn);
        }
    }
}

#[test]
fn a_running_turn_shows_its_own_mode_and_the_notice_picks_the_tier_once() {
    let mut state = UiState::default();
    state.apply(&event(
        1,
        None,
        crate::tui::test_plans::turn_started(
            Mode::Execute,
            TurnOptions {
                plan: Some("plan_1".into()),
                ..TurnOptions::default()
            },
            Vec::new(),
        ),
    ));
    let view = View {
        notice: Some("a short notice".into()),
        ..View::default()
    };
    let next = NextQuestion {
        mode: Mode::Planning,
        ..NextQuestion::default()
    };
    let (layout, line) = drawn(&state, &view, &next, 150);
    assert_eq!(
        (layout.tier, layout.inline, layout.height),
        (TIERS[0], true, 1)
    );
    assert!(line.contains("○ Planning ◉ Executing"), "{line}");
    assert!(line.contains("plan_1"), "the running plan: {line}");
    assert!(line.contains("a short notice"), "{line}");
    let (layout, line) = drawn(&state, &view, &next, 60);
    assert!(line.contains("◉ Exec"), "{line}");
    assert_eq!(
        (layout.inline, layout.height, layout.notice_lines.len()),
        (false, 2, 1),
        "the notice takes its own line: {line}"
    );
}

#[test]
fn the_bar_shows_each_strategy_and_the_configs_until_one_is_chosen() {
    let state = UiState::default();
    let view = View::default();
    let mut shown = Vec::new();
    for strategy in [None].into_iter().chain(Strategy::ALL.map(Some)) {
        let next = NextQuestion {
            choices: Choices {
                strategy,
                ..Choices::default()
            },
            ..NextQuestion::default()
        };
        for width in [120, 80] {
            let (_, line) = drawn(&state, &view, &next, width);
            shown.push(format!("{width:>3} |{}|", line.trim_end()));
        }
    }
    insta::assert_snapshot!("mode_bar_strategies", shown.join("\n"));
}

#[test]
fn the_last_turns_recorded_strategy_shows_until_the_user_picks_one() {
    let mut state = UiState::default();
    state.apply(&event(
        1,
        None,
        crate::tui::test_strategy::turn_started(&["a"], Strategy::Debate),
    ));
    let (_, line) = drawn(&state, &View::default(), &NextQuestion::default(), 120);
    assert!(line.contains("Strategy ◉ debate"), "{line}");
}
